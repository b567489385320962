/**
 * Hunting groups in the call engine (docs/groups.md): a call to a group's number is offered to its free,
 * logged-on members by the group's policy, moves on after the no-answer time, waits in the group's queue,
 * overflows or is refused busy as the group says. The group is a SERVICE party of the call while it
 * distributes it; the members it offers the call to ring with `offeredBy` set, seen only by themselves until
 * one answers (`huntAnswered`, run by the answer before it connects the call). A call is offered to each member
 * once.
 */
import type { CallCause } from '@openness/wire'
import { ownEntry } from '../../own-entry.js'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext } from '../engine-operation.js'
import {
  groupOfMember,
  type HuntingGroup,
  type HuntingGroups,
  type HuntOverflow,
} from '../hunting-groups.js'
import { newConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, Endpoint } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { forgetIfNoUser } from './feature-support.js'
import { releaseCall } from './guards.js'
import { ring, stopRinging } from './ringing.js'
import { MAX_DIVERSIONS, reachParty } from './routing.js'

/** The group as a party of the calls it distributes. */
export function groupEndpoint(number: string): Endpoint {
  return { number, service: 'HUNTING_GROUP' }
}

/** The group with this number in the transaction's state. */
export function groupAt(transaction: Transaction, number: string): HuntingGroup | undefined {
  return ownEntry(transaction.state.huntingGroups, number)
}

/** Replaces the group (or removes it: undefined) in the transaction's state, which gets a new record of groups. */
export function putGroup(
  transaction: Transaction,
  number: string,
  group: HuntingGroup | undefined,
): void {
  const groups: Record<string, HuntingGroup> = { ...transaction.state.huntingGroups }
  if (group !== undefined) {
    groups[number] = group
    transaction.state.huntingGroups = groups
    return
  }
  delete groups[number]
  if (Object.keys(groups).length === 0) delete transaction.state.huntingGroups
  else transaction.state.huntingGroups = groups
}

/** A copy of the group with `change`, put in the state. */
export function changeGroup(
  transaction: Transaction,
  group: HuntingGroup,
  change: Partial<HuntingGroup>,
): HuntingGroup {
  const changed = { ...group, ...change }
  putGroup(transaction, group.number, changed)
  return changed
}

/**
 * What `dialed` reaches when it is a hunting group's number: the group as a party; undefined otherwise (the
 * directory resolves the rest).
 */
export function groupReached(
  groups: HuntingGroups | undefined,
  dialed: string,
): Endpoint | undefined {
  return ownEntry(groups, dialed) === undefined ? undefined : groupEndpoint(dialed)
}

/** A member the group may offer the call to now, with the device it rings. */
interface Candidate {
  loginName: string
  endpoint: Endpoint
}

/**
 * The members of the group who may be offered the call now, in hunt order, `limit` at most: logged on, their
 * main device in service, in no call at all (a member who talks, holds or rings is not free), without do not
 * disturb or an immediate forward (docs/groups.md, "Members' routing"), and not offered this call yet. The
 * search stops at the limit: a SEQUENTIAL or CIRCULAR group looks at the members up to the first free one.
 */
function candidates(
  transaction: Transaction,
  call: CallRecord,
  group: HuntingGroup,
  context: EngineContext,
  limit: number,
): Candidate[] {
  const tried = call.hunt?.tried ?? []
  const found: Candidate[] = []
  const lookup = transaction.lookup()
  const { loggedOff } = group
  for (const loginName of huntOrder(group)) {
    if (found.length >= limit) break
    if (tried.includes(loginName) || (loggedOff.length > 0 && loggedOff.includes(loginName)))
      continue
    const endpoint = context.directory.resolve(loginName)
    if (endpoint?.deviceId === undefined || endpoint.loginName !== loginName) continue
    if (transaction.state.devices[endpoint.deviceId]?.state !== 'IN_SERVICE') continue
    if (lookup.ofUser(loginName).length > 0) continue
    const routing = context.routing?.(loginName)
    if (routing?.dnd || routing?.forward?.condition === 'IMMEDIATE') continue
    found.push({ loginName, endpoint: { ...endpoint, offeredBy: group.number } })
  }
  return found
}

/**
 * The members in the order the policy offers calls: the list's order (PARALLEL, SEQUENTIAL); the list turned
 * to start after the member served last (CIRCULAR); the longest idle first, the list's order among equals
 * (LONGEST_IDLE).
 */
function huntOrder(group: HuntingGroup): readonly string[] {
  const { members } = group
  switch (group.policy) {
    case 'CIRCULAR': {
      const last = group.lastServed === undefined ? -1 : members.indexOf(group.lastServed)
      return [...members.slice(last + 1), ...members.slice(0, last + 1)]
    }
    case 'LONGEST_IDLE':
      return members
        .map((loginName, position) => ({
          loginName,
          position,
          since: group.idleSince[loginName] ?? 0,
        }))
        .sort((a, b) => a.since - b.since || a.position - b.position)
        .map((member) => member.loginName)
    default:
      return members
  }
}

/**
 * Offers the call to the next members by the group's policy: every candidate for PARALLEL, the first for the
 * others. Each rings with the group's no-answer time instead of the ringing timeout. Returns whether one rings.
 */
function offer(
  transaction: Transaction,
  call: CallRecord,
  group: HuntingGroup,
  context: EngineContext,
): boolean {
  const hunt = call.hunt
  if (hunt === undefined) return false
  const chosen = candidates(
    transaction,
    call,
    group,
    context,
    group.policy === 'PARALLEL' ? Number.POSITIVE_INFINITY : 1,
  )
  for (const { loginName, endpoint } of chosen) {
    hunt.tried.push(loginName)
    ring(transaction, call, endpoint, context, { ringingTimeout: false })
    transaction.schedule(group.noAnswerMs, {
      type: 'huntNoAnswer',
      callRef: call.callRef,
      number: endpoint.number,
    })
    // The member sees the call arrive DISTRIBUTED (the communication log's CALLEE arrivals).
    transaction.causeFor(loginName, 'DISTRIBUTED')
  }
  return chosen.length > 0
}

/** The connections the hunt has ringing for the call. */
function offered(call: CallRecord): Connection[] {
  return call.connections.filter((connection) => connection.endpoint.offeredBy !== undefined)
}

/**
 * A call reaches the group: the group joins it as a party (the caller hears it ring) and offers it to its
 * members (but the one who sent it there); with none free, the call waits, overflows or is refused busy, as
 * the group says.
 */
export function reachGroup(
  transaction: Transaction,
  call: CallRecord,
  number: string,
  context: EngineContext,
): void {
  const group = groupAt(transaction, number)
  if (group === undefined) return
  // A member who sends the call to the group (redirect, blind transfer) is not offered it back.
  const sender = call.lastRedirecting?.loginName
  call.hunt = { group: number, tried: sender === undefined ? [] : [sender] }
  call.connections.push(newConnection(groupEndpoint(number), 'RINGING_INCOMING'))
  if (offer(transaction, call, group, context)) return
  nobodyFree(transaction, call, group, context, 'BUSY')
}

/**
 * Nobody can be offered the call now (on arrival, or after every candidate let it ring): it waits in the
 * queue when the group queues calls and has room, else it overflows when the group has somewhere to send
 * it, else it ends with `cause` (BUSY on arrival, NOT_ANSWERED after a round).
 */
function nobodyFree(
  transaction: Transaction,
  call: CallRecord,
  group: HuntingGroup,
  context: EngineContext,
  cause: CallCause,
): void {
  if (group.whenBusy === 'QUEUE' && enqueue(transaction, call, group)) return
  if (group.whenBusy === 'BUSY' && cause === 'BUSY') {
    endUnserved(transaction, call, 'BUSY')
    return
  }
  if (group.overflow !== undefined) overflow(transaction, call, group, context)
  else endUnserved(transaction, call, cause)
}

/** The queued calls of the group still waiting (a call that ended meanwhile is no longer counted). */
function waiting(transaction: Transaction, group: HuntingGroup): string[] {
  return group.queue.filter((callRef) => {
    const call = transaction.state.calls.get(callRef)
    return call?.hunt?.queuedAt !== undefined && call.hunt.group === group.number
  })
}

/** Puts the call at the end of the group's queue; false when the queue is full. */
function enqueue(transaction: Transaction, call: CallRecord, group: HuntingGroup): boolean {
  const queue = waiting(transaction, group)
  if (queue.length >= group.queueSize) return false
  const hunt = call.hunt
  if (hunt === undefined) return false
  const first = !transaction.state.timers.some(
    (timer) => timer.command.type === 'huntQueueTimeout' && timer.command.callRef === call.callRef,
  )
  hunt.queuedAt = transaction.now
  changeGroup(transaction, group, { queue: [...queue, call.callRef] })
  // The longest a caller waits for the group counts from the first time the call waited.
  if (first && group.queueTimeoutMs !== undefined)
    transaction.schedule(group.queueTimeoutMs, { type: 'huntQueueTimeout', callRef: call.callRef })
  return true
}

/** The hunt ends: the members it rings stop, the group leaves the call, the call leaves the queue. */
function endHunt(transaction: Transaction, call: CallRecord): void {
  const number = call.hunt?.group
  for (const connection of offered(call)) stopRinging(transaction, call, connection)
  call.connections = call.connections.filter(
    (connection) => connection.endpoint.service !== 'HUNTING_GROUP',
  )
  delete call.hunt
  transaction.cancelTimers(
    (command) => command.type === 'huntQueueTimeout' && command.callRef === call.callRef,
  )
  const group = number === undefined ? undefined : groupAt(transaction, number)
  if (group?.queue.includes(call.callRef))
    changeGroup(transaction, group, {
      queue: group.queue.filter((callRef) => callRef !== call.callRef),
    })
}

/** Nobody took the call: it is placed (the caller sees the group), then released with `cause`. */
function endUnserved(transaction: Transaction, call: CallRecord, cause: CallCause): void {
  transaction.commit()
  endHunt(transaction, call)
  releaseCall(transaction, call, cause)
}

/** Where the group's overflow sends a call; undefined when that reaches nothing now. */
function overflowDestination(
  transaction: Transaction,
  context: EngineContext,
  target: HuntOverflow,
): Endpoint | undefined {
  if ('voicemailOf' in target) {
    const number = context.directory.featuresOf?.(target.voicemailOf)?.voicemail
    return number === undefined ? undefined : { number, service: 'VOICEMAIL' }
  }
  return (
    groupReached(transaction.state.huntingGroups, target.number) ??
    context.directory.resolve(target.number)
  )
}

/**
 * The call leaves the group for its overflow (cause OVERFLOWN, `lastRedirecting` the group): a number (a
 * user, an outside number, another group) or a user's voice mail. An overflow that reaches nothing, or one
 * diversion too many (MAX_DIVERSIONS: two groups overflowing to each other), ends the call NOT_ANSWERED.
 */
function overflow(
  transaction: Transaction,
  call: CallRecord,
  group: HuntingGroup,
  context: EngineContext,
): void {
  const target = group.overflow
  const destination =
    target === undefined ? undefined : overflowDestination(transaction, context, target)
  if (destination === undefined || (call.diversions ?? 0) >= MAX_DIVERSIONS) {
    endUnserved(transaction, call, 'NOT_ANSWERED')
    return
  }
  transaction.commit()
  endHunt(transaction, call)
  call.diversions = (call.diversions ?? 0) + 1
  call.lastRedirecting = groupEndpoint(group.number)
  if (destination.service === 'HUNTING_GROUP') {
    transaction.commit('OVERFLOWN')
    reachGroup(transaction, call, destination.number, context)
    return
  }
  reachParty(transaction, call, destination, context, {
    cause: 'OVERFLOWN',
    from: groupEndpoint(group.number),
  })
  forgetIfNoUser(transaction, call)
}

/**
 * The hunt goes on after offered members left without answering (no answer, declined): while others ring,
 * nothing; otherwise the next members are offered the call, and with none left the round is over.
 */
export function huntGoesOn(
  transaction: Transaction,
  call: CallRecord,
  context: EngineContext,
): void {
  const hunt = call.hunt
  if (hunt === undefined || offered(call).length > 0) return
  const group = groupAt(transaction, hunt.group)
  if (group === undefined) return
  if (hunt.queuedAt !== undefined) return
  if (offer(transaction, call, group, context)) return
  nobodyFree(transaction, call, group, context, 'NOT_ANSWERED')
}

/**
 * The member's ringing ends unanswered at the group's no-answer time (a timer): the member sees the call
 * removed (NOT_ANSWERED) and the hunt goes on.
 */
export function huntNoAnswer(
  transaction: Transaction,
  callRef: string,
  number: string,
  context: EngineContext,
): void {
  const call = transaction.call(callRef)
  if (call?.hunt === undefined) return
  const ringing = offered(call).filter(
    (connection) =>
      connection.endpoint.number === number && connection.state === 'RINGING_INCOMING',
  )
  if (ringing.length === 0) return
  for (const connection of ringing) stopRinging(transaction, call, connection)
  transaction.commit('NOT_ANSWERED')
  huntGoesOn(transaction, call, context)
}

/** The call has waited for the group as long as it may (a timer): it overflows, or ends NOT_ANSWERED. */
export function huntQueueTimeout(
  transaction: Transaction,
  callRef: string,
  context: EngineContext,
): void {
  const call = transaction.call(callRef)
  const number = call?.hunt?.group
  if (call === undefined || number === undefined) return
  const group = groupAt(transaction, number)
  if (group === undefined) return
  if (offered(call).length > 0) {
    for (const connection of offered(call)) stopRinging(transaction, call, connection)
    transaction.commit('NOT_ANSWERED')
  }
  if (group.overflow !== undefined) overflow(transaction, call, group, context)
  else endUnserved(transaction, call, 'NOT_ANSWERED')
}

/** Whether a call waits in a group's queue (the engine then offers them after the command). */
export function hasWaitingCalls(groups: HuntingGroups | undefined): boolean {
  if (groups === undefined) return false
  for (const number in groups) if ((groups[number]?.queue.length ?? 0) > 0) return true
  return false
}

/**
 * After every command, while calls wait in a queue: each waiting call, oldest first, is offered to the
 * members who have become free (a call ended, a member logged on or joined), until a group has none left.
 */
export function dispatchQueues(transaction: Transaction, context: EngineContext): void {
  const groups = transaction.state.huntingGroups
  if (groups === undefined) return
  for (const number of Object.keys(groups).sort()) {
    let group = groupAt(transaction, number)
    if (group === undefined || group.queue.length === 0) continue
    const queue = waiting(transaction, group)
    let served = 0
    for (const callRef of queue) {
      const call = transaction.call(callRef)
      if (call?.hunt === undefined) continue
      const { queuedAt } = call.hunt
      delete call.hunt.queuedAt
      if (!offer(transaction, call, group, context)) {
        if (queuedAt !== undefined) call.hunt.queuedAt = queuedAt
        break
      }
      served += 1
    }
    group = groupAt(transaction, number)
    if (group !== undefined && (served > 0 || queue.length !== group.queue.length))
      changeGroup(transaction, group, { queue: queue.slice(served) })
  }
  transaction.commit()
}

/**
 * A member is answering the call the group offered it (before the answer itself: ringing.ts
 * `answerRinging`): the other members it rang stop ringing (their step's cause DISTRIBUTED), then the group
 * leaves the call, the member becomes a party everyone sees, and the group remembers whom it served (CIRCULAR).
 */
export function huntAnswered(transaction: Transaction, call: CallRecord, member: Connection): void {
  const number = call.hunt?.group
  if (number === undefined || !isOffered(member)) return
  const others = offered(call).filter((connection) => connection !== member)
  if (others.length > 0) {
    for (const connection of others) stopRinging(transaction, call, connection)
    transaction.commit('DISTRIBUTED')
  }
  delete member.endpoint.offeredBy
  endHunt(transaction, call)
  call.distributedBy = number
  // Only CIRCULAR needs whom the group served last; a group that becomes CIRCULAR starts from its first member.
  const group = groupAt(transaction, number)
  if (group?.policy === 'CIRCULAR' && member.endpoint.loginName !== undefined)
    changeGroup(transaction, group, { lastServed: member.endpoint.loginName })
}

/**
 * When each member of a LONGEST_IDLE group who has just become FREE went idle, after a command's user-state
 * events (the other policies need no idle times: a group that becomes LONGEST_IDLE starts with none).
 */
export function noteIdleMembers(transaction: Transaction): void {
  const groups = transaction.state.huntingGroups
  if (groups === undefined) return
  let longestIdle = false
  for (const number in groups) if (groups[number]?.policy === 'LONGEST_IDLE') longestIdle = true
  if (!longestIdle) return
  for (const event of transaction.events) {
    if (event.eventName !== 'OnUserStateModified' || event['state'] !== 'FREE') continue
    const loginName = event['loginName'] as string
    const group = groupOfMember(transaction.state.huntingGroups, loginName)
    if (group?.policy === 'LONGEST_IDLE')
      changeGroup(transaction, group, {
        idleSince: { ...group.idleSince, [loginName]: transaction.now },
      })
  }
}

/**
 * NOT_EXPECTED while a hunting group or a pilot of the contact center distributes the call: what `what` needs is
 * not there yet.
 */
export function requireNotHunting(call: CallRecord, what: string): void {
  if (call.hunt !== undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `Hunting group ${call.hunt.group} is distributing call ${call.callRef}: ${what} once a member answers`,
    )
  if (call.acd !== undefined && call.acd.answeredAt === undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `Pilot ${call.acd.pilot} is distributing call ${call.callRef}: ${what} once an agent answers`,
    )
}

/** True when the connection rings for a hunting group (offered, not answered). */
export function isOffered(connection: Connection): boolean {
  return connection.endpoint.offeredBy !== undefined
}
