/**
 * Automatic call distribution (docs/contact-center.md, "Distribution"): a call to a pilot joins it as a SERVICE
 * party and, by the pilot's mode and rule, is dissuaded, forwarded, overflows or waits in the rule's queue; a
 * waiting call is offered to the READY agent of the queue's processing group who has been ready longest among
 * those whose skills match, whose set rings (seen only by the agent until it answers). An agent who lets it ring
 * out goes to PAUSE and the call goes back to the head of its queue. Every call that reached a pilot leaves a
 * ticket (acd-support.ts `ticketOf`).
 */
import type { CallCause } from '@openness/wire'
import {
  type AcdCall,
  type AcdDefinitions,
  type AcdState,
  type PilotRuntime,
  ruleSkills,
} from '../../acd/acd-state.js'
import type { AcdTicket } from '../../acd/acd-ticket.js'
import type { AgentRuntime } from '../../acd/agent-state.js'
import { afterAcdCall } from '../../acd/agent-state.js'
import type { PilotDefinition, SkillNeed } from '../../acd/contact-center.js'
import { ownEntry } from '../../own-entry.js'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext } from '../engine-operation.js'
import { newConnection } from '../media-state-machine.js'
import type { CallRecord, Connection, Endpoint } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { settleSupervisors } from './acd-supervision.js'
import {
  agentAt,
  callerOf,
  changeAcd,
  closeTicket,
  moveAgent,
  requireAcd,
  tellPilot,
  tellRemoved,
  ticketOf,
} from './acd-support.js'
import { forgetIfNoUser } from './feature-support.js'
import { releaseCall } from './guards.js'
import { groupReached, reachGroup } from './hunting.js'
import { ring, stopRinging } from './ringing.js'
import { MAX_DIVERSIONS, reachParty } from './routing.js'

/** A pilot as a party of the calls it holds. */
export function pilotEndpoint(number: string): Endpoint {
  return { number, service: 'ACD_PILOT' }
}

/** What `dialed` reaches when it is a pilot's number; undefined otherwise. */
export function pilotReached(acd: AcdState | undefined, dialed: string): Endpoint | undefined {
  return ownEntry(acd?.definition.pilots, dialed) === undefined ? undefined : pilotEndpoint(dialed)
}

/** The pilot's state and detailed status as acdmanagement and transferInfo show them. */
export interface PilotCondition {
  state: 'Opened' | 'Closed' | 'Blocked'
  status: 'OPEN' | 'BLOCKED' | 'BLOCKED_ON_RULE' | 'GENERAL_FORWARDING'
  /** The queue of the rule in force. */
  queue?: string
}

/**
 * The pilot's condition now: Closed in mode closed (or forward with nowhere to forward to); forwarding in mode
 * forward; Blocked when the queue of the rule in force has no agent logged on in its group; else Opened.
 */
export function pilotCondition(
  acd: AcdState,
  pilot: PilotDefinition,
  runtime: PilotRuntime,
): PilotCondition {
  if (runtime.mode === 'closed' || (runtime.mode === 'forward' && pilot.forwardTo === undefined))
    return { state: 'Closed', status: 'BLOCKED' }
  if (runtime.mode === 'forward') return { state: 'Opened', status: 'GENERAL_FORWARDING' }
  const queue = pilot.rules.find((rule) => rule.ruleNumber === runtime.ruleNumber)?.queue
  const group = queue === undefined ? undefined : acd.definition.queues[queue]?.processingGroup
  if (queue === undefined || group === undefined)
    return { state: 'Blocked', status: 'BLOCKED_ON_RULE' }
  for (const agent of acd.agents.values()) {
    if (agent.pg === group && agent.place !== 'LOG_OFF')
      return { state: 'Opened', status: 'OPEN', queue }
  }
  return { state: 'Blocked', status: 'BLOCKED_ON_RULE', queue }
}

/** The tickets each command closed itself: the pass after it (`settleAcd`) leaves their calls alone. */
const closedHere = new WeakMap<Transaction, Set<string>>()

function markClosed(transaction: Transaction, ticketId: string): void {
  let closed = closedHere.get(transaction)
  if (closed === undefined) {
    closed = new Set()
    closedHere.set(transaction, closed)
  }
  closed.add(ticketId)
}

/**
 * A call reaches the pilot: the pilot joins it (the caller hears it ring), those who monitor it are told, and
 * the pilot's mode and rule decide: closed, dissuaded; forward, forwarded; blocked or saturated, the overflow or
 * dissuasion; else the call waits in the rule's queue (the pass after the command offers it to an agent).
 */
export function reachPilot(
  transaction: Transaction,
  call: CallRecord,
  number: string,
  context: EngineContext,
  options: { skills?: SkillNeed[]; supervisedTransfer?: boolean } = {},
): void {
  const acd = transaction.state.acd
  const pilot = acd?.definition.pilots[number]
  const runtime = acd?.pilots[number]
  if (acd === undefined || pilot === undefined || runtime === undefined) return
  const previous = call.acd
  if (previous !== undefined) {
    // Sent to a pilot again (a transfer): while a pilot distributes it, it may not be; answered, the agent's
    // part in it ends here and its ticket with it.
    if (previous.answeredAt === undefined)
      throw new PlatformError(
        'NOT_EXPECTED',
        `Pilot ${previous.pilot} is distributing call ${call.callRef}: send it on once an agent answers`,
      )
    agentPartEnded(transaction, call, previous)
    markClosed(transaction, previous.ticketId)
  }
  const skills = options.skills ?? ruleSkills(pilot, runtime.ruleNumber)
  const acdCall: AcdCall = {
    ticketId: `${call.callUUID}-${transaction.nextId()}`,
    pilot: number,
    ruleNumber: runtime.ruleNumber,
    ...(skills !== undefined && skills.length > 0 && { skills: structuredClone(skills) }),
    arrivedAt: transaction.now,
    queueWaitMs: 0,
    offers: 0,
    refusals: 0,
    ...(options.supervisedTransfer === true && { supervisedTransfer: true }),
  }
  call.acd = acdCall
  call.connections.push(newConnection(pilotEndpoint(number), 'RINGING_INCOMING'))
  const caller = callerOf(call)
  tellPilot(transaction, number, 'OnPilotCallCreated', {
    caller: caller?.number ?? '',
    callRef: call.callRef,
    cause: 'ACD_ENTER_DISTRIBUTION',
    callData: {
      initialCalled: number,
      anonymous: false,
      ...(call.associatedData !== undefined && { associatedData: call.associatedData }),
      ...(call.hexaBinaryAssociatedData !== undefined && {
        hexaBinaryAssociatedData: call.hexaBinaryAssociatedData,
      }),
      networkRerouted: false,
    },
  })
  const condition = pilotCondition(acd, pilot, runtime)
  if (runtime.mode === 'forward' && pilot.forwardTo !== undefined) {
    divert(transaction, call, pilot.forwardTo, 'FORWARDED', context)
    return
  }
  if (condition.state === 'Closed') {
    dissuade(transaction, call, 'DESTINATION_NOT_OBTAINABLE')
    return
  }
  const queue = condition.queue === undefined ? undefined : acd.definition.queues[condition.queue]
  if (condition.state === 'Blocked' || queue === undefined) {
    overflowOrDissuade(transaction, call, pilot, 'NO_AVAILABLE_AGENT', context)
    return
  }
  acdCall.queue = queue.number
  if ((acd.queues[queue.number]?.length ?? 0) >= queue.size) {
    overflowOrDissuade(transaction, call, pilot, 'BUSY', context)
    return
  }
  enqueue(transaction, call, acdCall, 'back')
  if (pilot.overflowTo !== undefined && pilot.overflowAfterMs !== undefined)
    transaction.schedule(pilot.overflowAfterMs, { type: 'acdOverflow', callRef: call.callRef })
}

/** Puts the call in its queue, at its back (arrival) or its head (an agent let it ring out). */
function enqueue(
  transaction: Transaction,
  call: CallRecord,
  acdCall: AcdCall,
  where: 'back' | 'head',
): void {
  const queueNumber = acdCall.queue
  const acd = transaction.state.acd
  if (queueNumber === undefined || acd === undefined) return
  const waiting = acd.queues[queueNumber] ?? []
  const queue = where === 'back' ? [...waiting, call.callRef] : [call.callRef, ...waiting]
  changeAcd(transaction, { queues: { ...acd.queues, [queueNumber]: queue } })
  acdCall.queuedAt = transaction.now
  acdCall.firstQueuedAt ??= transaction.now
  if (where === 'back') {
    const definition = acd.definition.queues[queueNumber]
    acdCall.expectedWaitMs = expectedWait(acd, queueNumber, queue.length)
    acdCall.saturated = definition !== undefined && queue.length >= definition.size
  }
  if (where === 'back')
    tellPilot(transaction, acdCall.pilot, 'OnPilotCallQueued', {
      caller: callerOf(call)?.number ?? '',
      queue: queueNumber,
      callRef: call.callRef,
      cause: 'ACD_ENTER_DISTRIBUTION',
      numberOfQueued: queue.length,
    })
}

/**
 * The waiting time a call at `position` (1 for the head) of the queue can expect: the calls up to it times the
 * queue's mean handling time, shared by the agents of its group logged on (0 before any call was served).
 */
export function expectedWait(acd: AcdState, queueNumber: string, position: number): number {
  const handling = acd.handlingMs[queueNumber] ?? 0
  if (handling === 0) return 0
  const group = acd.definition.queues[queueNumber]?.processingGroup
  let agents = 0
  for (const agent of acd.agents.values()) {
    if (agent.pg === group && agent.place !== 'LOG_OFF') agents += 1
  }
  return Math.round((position * handling) / Math.max(1, agents))
}

/** How much a served call moves its queue's mean handling time (an exponential moving average). */
const HANDLING_WEIGHT = 0.2

/** Takes the call out of its queue (its wait so far counted). */
function dequeue(transaction: Transaction, acdCall: AcdCall, callRef: string): void {
  if (acdCall.queuedAt !== undefined) {
    acdCall.queueWaitMs += transaction.now - acdCall.queuedAt
    delete acdCall.queuedAt
  }
  const acd = transaction.state.acd
  const queueNumber = acdCall.queue
  if (acd === undefined || queueNumber === undefined) return
  const waiting = acd.queues[queueNumber]
  if (waiting === undefined || !waiting.includes(callRef)) return
  changeAcd(transaction, {
    queues: { ...acd.queues, [queueNumber]: waiting.filter((other) => other !== callRef) },
  })
}

/** The connection of the agent the call rings, if it rings one. */
function offeredConnection(call: CallRecord): Connection | undefined {
  return call.connections.find(
    (connection) =>
      connection.endpoint.offeredBy !== undefined && connection.endpoint.service === undefined,
  )
}

/**
 * The call leaves the pilot without an agent: out of its queue, its timers and any agent's ringing stopped (that
 * agent back to READY, through no fault of its own), the pilot's party gone, its ticket closed with `outcome`.
 */
function leavePilot(
  transaction: Transaction,
  call: CallRecord,
  outcome: 'DISSUADED' | 'OVERFLOWED',
  overflowTo?: string,
): void {
  const acdCall = call.acd
  if (acdCall === undefined) return
  dequeue(transaction, acdCall, call.callRef)
  const ringing = offeredConnection(call)
  if (ringing !== undefined) stopRinging(transaction, call, ringing)
  releaseOffer(transaction, acdCall, 'READY')
  transaction.cancelTimers(
    (command) =>
      (command.type === 'acdOverflow' || command.type === 'acdNoAnswer') &&
      command.callRef === call.callRef,
  )
  call.connections = call.connections.filter((c) => c.endpoint.service !== 'ACD_PILOT')
  markClosed(transaction, acdCall.ticketId)
  closeTicket(
    transaction,
    ticketOf(
      call,
      acdCall,
      outcome,
      transaction.now,
      overflowTo === undefined ? {} : { overflowTo },
    ),
  )
  delete call.acd
}

/** The agent the call rang is free of it again: back to `place` (READY when the call left, PAUSE when it rang out). */
function releaseOffer(transaction: Transaction, acdCall: AcdCall, place: 'READY' | 'PAUSE'): void {
  const loginName = acdCall.offeredTo
  if (loginName === undefined) return
  delete acdCall.offeredTo
  const agent = agentAt(transaction, loginName)
  if (agent.acdCall === undefined || agent.place !== 'BUSY') return
  moveAgent(transaction, agent, place === 'PAUSE' ? 'noAnswer' : 'offerCancelled', {
    acdCall: undefined,
  })
}

/** The call is dissuaded: the caller sees the pilot, then the call is released with `cause`. */
function dissuade(transaction: Transaction, call: CallRecord, cause: CallCause): void {
  transaction.commit()
  tellRemoved(transaction, call, cause, {})
  leavePilot(transaction, call, 'DISSUADED')
  releaseCall(transaction, call, cause)
}

/** The pilot's overflow takes the call when it has one; else it is dissuaded with `cause`. */
function overflowOrDissuade(
  transaction: Transaction,
  call: CallRecord,
  pilot: PilotDefinition,
  cause: CallCause,
  context: EngineContext,
): void {
  if (pilot.overflowTo !== undefined)
    divert(transaction, call, pilot.overflowTo, 'OVERFLOWN', context)
  else dissuade(transaction, call, cause)
}

/**
 * The call leaves the pilot for `number` (its overflow or forward): a user, an outside number, a hunting group or
 * another pilot, with `lastRedirecting` the pilot; its ticket OVERFLOWED. What reaches nothing, or one diversion
 * too many (pilots overflowing to each other), ends the call NOT_ANSWERED.
 */
function divert(
  transaction: Transaction,
  call: CallRecord,
  number: string,
  cause: 'OVERFLOWN' | 'FORWARDED',
  context: EngineContext,
): void {
  const pilot = call.acd?.pilot ?? ''
  const destination =
    pilotReached(transaction.state.acd, number) ??
    groupReached(transaction.state.huntingGroups, number) ??
    context.directory.resolve(number)
  transaction.commit()
  tellRemoved(transaction, call, cause, { newDestination: number })
  leavePilot(transaction, call, 'OVERFLOWED', number)
  if (destination === undefined || (call.diversions ?? 0) >= MAX_DIVERSIONS) {
    releaseCall(transaction, call, 'NOT_ANSWERED')
    return
  }
  call.diversions = (call.diversions ?? 0) + 1
  call.lastRedirecting = pilotEndpoint(pilot)
  if (destination.service === 'ACD_PILOT' || destination.service === 'HUNTING_GROUP') {
    transaction.commit(cause)
    if (destination.service === 'ACD_PILOT')
      reachPilot(transaction, call, destination.number, context)
    else reachGroup(transaction, call, destination.number, context)
    return
  }
  reachParty(transaction, call, destination, context, { cause, from: pilotEndpoint(pilot) })
  forgetIfNoUser(transaction, call)
}

/** The call has waited as long as its pilot lets it (a timer): it overflows, unless an agent answered meanwhile. */
export function acdOverflow(
  transaction: Transaction,
  callRef: string,
  context: EngineContext,
): void {
  const call = transaction.call(callRef)
  const acdCall = call?.acd
  if (call === undefined || acdCall === undefined || acdCall.answeredAt !== undefined) return
  const overflowTo = transaction.state.acd?.definition.pilots[acdCall.pilot]?.overflowTo
  if (overflowTo === undefined) return
  divert(transaction, call, overflowTo, 'OVERFLOWN', context)
}

/** Whether the agent has every skill the call needs, active and at its level at least. */
export function hasSkills(agent: AgentRuntime, needs: readonly SkillNeed[] | undefined): boolean {
  if (needs === undefined) return true
  return needs.every((need) =>
    agent.skills.some(
      (skill) => skill.number === need.number && skill.active && skill.level >= need.level,
    ),
  )
}

/**
 * The agents who may be offered a call now, the one ready longest first (then by login name): READY in a
 * processing group, their set in service and in no call.
 */
function readyAgents(transaction: Transaction, acd: AcdState): AgentRuntime[] {
  const lookup = transaction.lookup()
  const ready: AgentRuntime[] = []
  for (const [loginName, agent] of acd.agents) {
    if (agent.place !== 'READY' || agent.pg === undefined || agent.acdCall !== undefined) continue
    const device = agent.proAcdDeviceNumber
    if (device === undefined || transaction.state.devices[device]?.state !== 'IN_SERVICE') continue
    if (lookup.ofUser(loginName).length > 0) continue
    ready.push(agent)
  }
  return ready.sort(
    (a, b) => (a.readySince ?? 0) - (b.readySince ?? 0) || (a.loginName < b.loginName ? -1 : 1),
  )
}

/** Offers the call to the agent: its set rings for the group's no-answer time, the agent is BUSY. */
function offer(
  transaction: Transaction,
  call: CallRecord,
  acdCall: AcdCall,
  agent: AgentRuntime,
  context: EngineContext,
): void {
  const device = agent.proAcdDeviceNumber as string
  const group =
    agent.pg === undefined
      ? undefined
      : transaction.state.acd?.definition.processingGroups[agent.pg]
  dequeue(transaction, acdCall, call.callRef)
  acdCall.offeredTo = agent.loginName
  acdCall.offers += 1
  moveAgent(transaction, agent, 'offered', { acdCall: call.callRef })
  ring(
    transaction,
    call,
    { number: device, deviceId: device, loginName: agent.loginName, offeredBy: acdCall.pilot },
    context,
    { ringingTimeout: false },
  )
  transaction.schedule(group?.noAnswerMs ?? 15_000, {
    type: 'acdNoAnswer',
    callRef: call.callRef,
    number: device,
  })
  transaction.causeFor(agent.loginName, 'DISTRIBUTED')
}

/** Whether a call waits in a queue. */
export function hasWaitingAcdCalls(acd: AcdState | undefined): boolean {
  if (acd === undefined) return false
  for (const number in acd.queues) if ((acd.queues[number]?.length ?? 0) > 0) return true
  return false
}

/**
 * After every command, while calls wait: the waiting calls, oldest first across queues and in order within each,
 * are offered to the ready agents of their queue's group whose skills match, the one ready longest first; a call
 * no free agent matches waits and the next one may be served.
 */
export function dispatchAcd(transaction: Transaction, context: EngineContext): void {
  let acd = transaction.state.acd
  if (acd === undefined || !hasWaitingAcdCalls(acd)) return
  const free = readyAgents(transaction, acd)
  if (free.length === 0) return
  // The waiting calls in the order they are served: each queue's in its order, merged by when they first waited.
  const heads = Object.keys(acd.queues)
    .sort()
    .map((queue) => ({ queue, calls: [...(acd?.queues[queue] ?? [])], at: 0 }))
  const firstWaited = (callRef: string | undefined) =>
    callRef === undefined
      ? Number.POSITIVE_INFINITY
      : (transaction.state.calls.get(callRef)?.acd?.firstQueuedAt ?? 0)
  for (;;) {
    let next: (typeof heads)[number] | undefined
    for (const head of heads)
      if (
        head.at < head.calls.length &&
        (next === undefined || firstWaited(head.calls[head.at]) < firstWaited(next.calls[next.at]))
      )
        next = head
    if (next === undefined || free.length === 0) break
    const callRef = next.calls[next.at] as string
    next.at += 1
    acd = transaction.state.acd as AcdState
    const group = acd.definition.queues[next.queue]?.processingGroup
    const needs = transaction.state.calls.get(callRef)?.acd?.skills
    const index = free.findIndex((agent) => agent.pg === group && hasSkills(agent, needs))
    if (index < 0) continue
    const call = transaction.call(callRef)
    const agent = free[index] as AgentRuntime
    free.splice(index, 1)
    if (call?.acd !== undefined) offer(transaction, call, call.acd, agent, context)
  }
  transaction.commit()
}

/**
 * The agent's set rang as long as its group lets it (a timer): the agent goes to PAUSE (a real ACD takes an
 * absent agent out of distribution: docs/contact-center.md), the call back to the head of its queue.
 */
export function acdNoAnswer(transaction: Transaction, callRef: string, number: string): void {
  const call = transaction.call(callRef)
  const acdCall = call?.acd
  if (call === undefined || acdCall === undefined || acdCall.answeredAt !== undefined) return
  const ringing = call.connections.find(
    (connection) =>
      connection.endpoint.offeredBy !== undefined &&
      connection.endpoint.number === number &&
      connection.state === 'RINGING_INCOMING',
  )
  if (ringing === undefined) return
  stopRinging(transaction, call, ringing)
  transaction.commit('NOT_ANSWERED')
  refused(transaction, call, acdCall)
}

/**
 * The agent the call rings logs off: its set stops ringing and the call, not taken, waits again at the head of its
 * queue (the pass after the command offers it to another agent). A logged-off agent is offered no call.
 */
export function withdrawOffer(transaction: Transaction, loginName: string): void {
  const callRef = transaction.state.acd?.agents.get(loginName)?.acdCall
  const call = callRef === undefined ? undefined : transaction.call(callRef)
  const acdCall = call?.acd
  if (call === undefined || acdCall === undefined || acdCall.offeredTo !== loginName) return
  const ringing = offeredConnection(call)
  if (ringing !== undefined) stopRinging(transaction, call, ringing)
  transaction.commit('NOT_ANSWERED')
  acdCall.refusals += 1
  delete acdCall.offeredTo
  enqueue(transaction, call, acdCall, 'head')
}

/** The offered agent did not take the call (rang out, or declined): PAUSE, and the call waits again at the head. */
function refused(transaction: Transaction, call: CallRecord, acdCall: AcdCall): void {
  acdCall.refusals += 1
  releaseOffer(transaction, acdCall, 'PAUSE')
  enqueue(transaction, call, acdCall, 'head')
}

/**
 * The agent answers the call the pilot offered it (before the answer itself: basic.ts): the pilot leaves the
 * call, the agent becomes a party everyone sees, those who monitor the pilot are told DISTRIBUTED.
 */
export function acdAnswered(
  transaction: Transaction,
  call: CallRecord,
  agentSide: Connection,
): void {
  const acdCall = call.acd
  const loginName = agentSide.endpoint.loginName
  if (
    acdCall === undefined ||
    agentSide.endpoint.offeredBy === undefined ||
    loginName === undefined
  )
    return
  if (acdCall.offeredTo !== loginName) return
  delete agentSide.endpoint.offeredBy
  delete acdCall.offeredTo
  transaction.cancelTimers(
    (command) =>
      (command.type === 'acdOverflow' || command.type === 'acdNoAnswer') &&
      command.callRef === call.callRef,
  )
  call.connections = call.connections.filter((c) => c.endpoint.service !== 'ACD_PILOT')
  acdCall.answeredAt = transaction.now
  acdCall.agent = loginName
  const agent = agentAt(transaction, loginName)
  if (agent.pg !== undefined) acdCall.pg = agent.pg
  tellRemoved(transaction, call, 'DISTRIBUTED', { newDestination: agentSide.endpoint.number })
}

/**
 * The pass after every command, before the waiting calls are offered: what the command did to ACD calls and to
 * agents' calls, whatever it was (a hang-up, a transfer, a clear): a call that left while waiting is ABANDONED;
 * an agent whose answered ACD call it left goes to its wrap-up (or transaction code, or READY); an agent who
 * declined an offer goes to PAUSE; a READY agent who takes or makes another call is BUSY until it ends.
 */
export function settleAcd(transaction: Transaction, context: EngineContext): void {
  const acd = transaction.state.acd
  if (acd === undefined) return
  const closed = closedHere.get(transaction)
  const users = new Set<string>()
  for (const callRef of [...transaction.touchedCallRefs()]) {
    let before = transaction.callBefore(callRef)
    let now = transaction.state.calls.get(callRef)
    for (const call of [before, now])
      for (const { endpoint } of call?.connections ?? [])
        if (endpoint.loginName !== undefined && acd.agents.get(endpoint.loginName) !== undefined)
          users.add(endpoint.loginName)
    if (now !== undefined && hasSupervision(acd, now)) {
      // A supervisor left alone with the caller leaves, and the call may end with it.
      settleSupervisors(transaction, now, context)
      before = now
      now = transaction.state.calls.get(callRef)
    }
    const acdCall = now === undefined ? before?.acd : now.acd
    if (acdCall === undefined || closed?.has(acdCall.ticketId)) continue
    if (now === undefined) {
      if (before !== undefined) callGone(transaction, before, acdCall)
      continue
    }
    const agentLeft =
      acdCall.agent !== undefined &&
      !now.connections.some((connection) => connection.endpoint.loginName === acdCall.agent)
    if (agentLeft) {
      const call = transaction.call(callRef) as CallRecord
      agentPartEnded(transaction, call, call.acd as AcdCall)
      delete call.acd
      continue
    }
    if (acdCall.offeredTo !== undefined && offeredConnection(now) === undefined) {
      const call = transaction.call(callRef) as CallRecord
      refused(transaction, call, call.acd as AcdCall)
    }
  }
  for (const loginName of [...users].sort()) privateCalls(transaction, loginName)
}

/** Whether a supervisor is in the call, or one listens to an agent in it. */
function hasSupervision(acd: AcdState, call: CallRecord): boolean {
  for (const { endpoint } of call.connections) {
    if (endpoint.supervising !== undefined) return true
    if (
      endpoint.loginName !== undefined &&
      acd.agents.get(endpoint.loginName)?.listenedBy !== undefined
    )
      return true
  }
  return false
}

/** The call ended: while at the pilot, ABANDONED (the caller hung up); answered, the agent's part ended with it. */
function callGone(transaction: Transaction, call: CallRecord, acdCall: AcdCall): void {
  if (acdCall.answeredAt !== undefined) {
    agentPartEnded(transaction, call, acdCall)
    return
  }
  const copy = structuredClone(acdCall)
  dequeue(transaction, copy, call.callRef)
  releaseOffer(transaction, copy, 'READY')
  const caller = callerOf(call)
  tellPilot(transaction, copy.pilot, 'OnPilotCallRemoved', {
    callRef: call.callRef,
    cause: 'ABANDONED',
    ...(caller !== undefined && { releasingDevice: caller.number }),
  })
  closeTicket(transaction, ticketOf(call, copy, 'ABANDONED', transaction.now))
}

/**
 * The agent's part in its ACD call ended: the ticket's handling time ends; the agent goes to TRANSACTION_CODE_INPUT,
 * WRAPUP or READY as its group says, and the ticket closes when that is over (now, for READY).
 */
function agentPartEnded(transaction: Transaction, call: CallRecord, acdCall: AcdCall): void {
  const loginName = acdCall.agent
  if (loginName === undefined) return
  const ticket = ticketOf(call, acdCall, 'SERVED', transaction.now, {
    ...(acdCall.transactionCode !== undefined && { transactionCode: acdCall.transactionCode }),
  })
  const acd = transaction.state.acd as AcdState
  const agent = acd.agents.get(loginName)
  if (agent === undefined || agent.acdCall !== call.callRef || agent.place !== 'BUSY') {
    closeTicket(transaction, ticket)
    return
  }
  if (acdCall.queue !== undefined) {
    const mean = acd.handlingMs[acdCall.queue]
    const handled = ticket.handlingMs
    changeAcd(transaction, {
      handlingMs: {
        ...acd.handlingMs,
        [acdCall.queue]:
          mean === undefined ? handled : Math.round(mean + HANDLING_WEIGHT * (handled - mean)),
      },
    })
  }
  const group = acdCall.pg === undefined ? undefined : acd.definition.processingGroups[acdCall.pg]
  const wrapUpMs = group?.wrapUpMs ?? 0
  const place = afterAcdCall({
    transactionCode: group?.transactionCode ?? false,
    codeGiven: ticket.transactionCode !== undefined,
    wrapUpMs,
    wrapUpAsked: agent.wrapUpAfterCall === true,
  })
  if (place === 'READY') {
    closeTicket(transaction, ticket)
    moveAgent(transaction, agent, 'acdCallEnded', { acdCall: undefined }, 'READY')
    return
  }
  changeAcd(transaction, { wrapping: { ...acd.wrapping, [loginName]: ticket } })
  moveAgent(
    transaction,
    agent,
    'acdCallEnded',
    { acdCall: undefined, wrapUpAfterCall: undefined },
    place,
  )
  if (place === 'WRAPUP' && wrapUpMs > 0)
    transaction.schedule(wrapUpMs, { type: 'acdWrapUpEnd', loginName })
}

/** A logged-on agent's other calls: READY to BUSY when it is in one, BUSY back to READY (or its wrap-up) when not. */
function privateCalls(transaction: Transaction, loginName: string): void {
  const agent = transaction.state.acd?.agents.get(loginName)
  if (agent === undefined || agent.acdCall !== undefined) return
  const inCall = transaction.lookup().ofUser(loginName).length > 0
  if (agent.place === 'READY' && inCall) moveAgent(transaction, agent, 'privateCallStarted')
  else if (agent.place === 'BUSY' && !inCall) {
    if (agent.wrapUpAfterCall === true) {
      moveAgent(transaction, agent, 'privateCallEnded', { wrapUpAfterCall: undefined }, 'WRAPUP')
      const group =
        agent.pg === undefined
          ? undefined
          : transaction.state.acd?.definition.processingGroups[agent.pg]
      if ((group?.wrapUpMs ?? 0) > 0)
        transaction.schedule(group?.wrapUpMs ?? 0, { type: 'acdWrapUpEnd', loginName })
    } else moveAgent(transaction, agent, 'privateCallEnded')
  }
}

/**
 * A new definition drops pilots or queues (acd-pilots.ts): the calls still waiting at a pilot it drops, or in a
 * queue it drops, are dissuaded (DESTINATION_NOT_OBTAINABLE) with their tickets, rather than left stranded.
 */
export function dissuadeStranded(transaction: Transaction, definition: AcdDefinitions): void {
  for (const [callRef, stored] of [...transaction.state.calls]) {
    const acdCall = stored.acd
    if (acdCall === undefined || acdCall.answeredAt !== undefined) continue
    const pilotGone = definition.pilots[acdCall.pilot] === undefined
    const queueGone = acdCall.queue !== undefined && definition.queues[acdCall.queue] === undefined
    if (pilotGone || queueGone)
      dissuade(transaction, transaction.call(callRef) as CallRecord, 'DESTINATION_NOT_OBTAINABLE')
  }
}

/**
 * The contact center goes (provisioned with an empty definition, acd-pilots.ts), with every call it holds: a call
 * still at one of its pilots is dissuaded (DESTINATION_NOT_OBTAINABLE), an answered one goes on as a plain call
 * and its ticket closes SERVED now, and every agent's wrap-up ends now with its ticket. The tickets go to the
 * outbox, as any closed ticket.
 */
export function endContactCenterCalls(transaction: Transaction): void {
  const acd = transaction.state.acd
  if (acd === undefined) return
  for (const [callRef, stored] of [...transaction.state.calls]) {
    if (stored.acd === undefined) continue
    const call = transaction.call(callRef) as CallRecord
    const acdCall = call.acd as AcdCall
    if (acdCall.answeredAt === undefined) {
      dissuade(transaction, call, 'DESTINATION_NOT_OBTAINABLE')
      continue
    }
    markClosed(transaction, acdCall.ticketId)
    closeTicket(
      transaction,
      ticketOf(call, acdCall, 'SERVED', transaction.now, {
        ...(acdCall.transactionCode !== undefined && { transactionCode: acdCall.transactionCode }),
      }),
    )
    delete call.acd
  }
  const { wrapping } = requireAcd(transaction)
  changeAcd(transaction, { wrapping: {} })
  for (const loginName of Object.keys(wrapping).sort()) {
    const ticket = wrapping[loginName] as AcdTicket
    closeTicket(transaction, {
      ...ticket,
      wrapUpMs: transaction.now - ticket.endedAt,
      closedAt: transaction.now,
    })
  }
}
