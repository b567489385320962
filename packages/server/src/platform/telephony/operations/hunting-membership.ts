/**
 * The commands that change hunting groups (docs/groups.md): a member logs on and off, a user joins and leaves
 * a group that allows it, the control plane sets and deletes groups, the directory file provisions them. Each
 * member who is logged on, or no longer is, gets OnDynamicStateChanged (the SDKs' hunting-group state); each
 * user who a group's view changes for gets OnGroupCreated, OnGroupModified or OnGroupRemoved (package
 * `groups`), and a log-on the platform cannot honour OnGroupLoggedFailed.
 */
import { PlatformError } from '../../platform-error.js'
import { allCalls } from '../call-index.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import {
  groupOfMember,
  type HuntingGroup,
  type HuntingGroupDefinition,
  type HuntingGroups,
  huntingGroupId,
  huntingGroupView,
  isLoggedOn,
  MAX_GROUPS,
  newHuntingGroup,
} from '../hunting-groups.js'
import { sameJson } from '../same-json.js'
import type { EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { releaseCall } from './guards.js'
import {
  changeGroup,
  groupAt,
  huntGoesOn,
  huntNoAnswer,
  huntQueueTimeout,
  isOffered,
  putGroup,
} from './hunting.js'
import { stopRinging } from './ringing.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** Tells the user its hunting-group state when it changed (the event the SDKs parse as OnDynamicStateChanged). */
function tellLogOn(transaction: Transaction, loginName: string, was: boolean, is: boolean): void {
  if (was !== is)
    transaction.events.push({
      eventName: 'OnDynamicStateChanged',
      loginName,
      huntingGroupState: { logon: is },
    })
}

/**
 * The groups' events of a change from the groups `before` to the transaction's: a user a group's view now has
 * and did not gets OnGroupCreated, one it had and has not OnGroupRemoved, and one in both OnGroupModified when
 * the view changed (members, their log-on, name, number, policy; not the calls waiting nor whom it served).
 */
function tellGroupChanges(transaction: Transaction, before: HuntingGroups | undefined): void {
  const after = transaction.state.huntingGroups
  if (before === after) return
  const numbers = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  for (const number of [...numbers].sort()) {
    const was = before?.[number]
    const is = after?.[number]
    if (was === is) continue
    const wasView = was && huntingGroupView(was)
    const isView = is && huntingGroupView(is)
    const wasMembers = new Set(was?.members)
    for (const loginName of is?.members ?? [])
      if (!wasMembers.has(loginName))
        transaction.events.push({ eventName: 'OnGroupCreated', loginName, group: isView })
      else if (!sameJson(wasView, isView))
        transaction.events.push({ eventName: 'OnGroupModified', loginName, group: isView })
    const isMembers = new Set(is?.members)
    for (const loginName of was?.members ?? [])
      if (!isMembers.has(loginName))
        transaction.events.push({
          eventName: 'OnGroupRemoved',
          loginName,
          groupId: huntingGroupId(number),
        })
  }
}

/** The operation, followed by the groups' events of what it changed in them. */
function withGroupEvents<C extends EngineCommand>(operation: Operation<C>): Operation<C> {
  return (transaction, command, context) => {
    const before = transaction.state.huntingGroups
    const answer = operation(transaction, command, context)
    tellGroupChanges(transaction, before)
    return answer
  }
}

/** The group the user is a member of; NOT_EXPECTED when none. */
function requireMembership(transaction: Transaction, loginName: string): HuntingGroup {
  const group = groupOfMember(transaction.state.huntingGroups, loginName)
  if (group === undefined)
    throw new PlatformError('NOT_EXPECTED', `'${loginName}' is a member of no hunting group`)
  return group
}

/**
 * Why the member cannot be logged on now, if it cannot: it has no device the group could ring
 * (`NO_DEVICE`), or that device is out of service (`DEVICE_OUT_OF_SERVICE`).
 */
function logOnFailure(
  transaction: Transaction,
  context: EngineContext,
  loginName: string,
): 'NO_DEVICE' | 'DEVICE_OUT_OF_SERVICE' | undefined {
  const deviceId = context.directory.resolve(loginName)?.deviceId
  if (deviceId === undefined) return 'NO_DEVICE'
  return transaction.state.devices[deviceId]?.state === 'OUT_OF_SERVICE'
    ? 'DEVICE_OUT_OF_SERVICE'
    : undefined
}

/** The group with this number; NOT_FOUND when there is none. */
function requireGroup(transaction: Transaction, number: string): HuntingGroup {
  const group = groupAt(transaction, number)
  if (group === undefined) throw new PlatformError('NOT_FOUND', `No hunting group '${number}'`)
  return group
}

/**
 * The calls the group offers the member stop ringing there (the member logged off or left), and their hunt
 * goes on with the others.
 */
function withdrawOffers(
  transaction: Transaction,
  loginName: string,
  context: EngineContext,
  number?: string,
): void {
  for (const { callRef } of transaction.lookup().ofUser(loginName)) {
    const call = transaction.call(callRef)
    if (call?.hunt === undefined || (number !== undefined && call.hunt.group !== number)) continue
    const ringing = call.connections.filter(
      (connection) => connection.endpoint.loginName === loginName && isOffered(connection),
    )
    if (ringing.length === 0) continue
    for (const connection of ringing) stopRinging(transaction, call, connection)
    transaction.commit()
    huntGoesOn(transaction, call, context)
  }
}

/** The member logs on (is offered the group's calls again) or off; already so: nothing changes. */
const huntingGroupLogOn: Operation<Command<'huntingGroupLogOn'>> = (
  transaction,
  command,
  context,
) => {
  const { loginName, logOn } = command
  const group = requireMembership(transaction, loginName)
  const was = isLoggedOn(group, loginName)
  if (was === logOn) return undefined
  const reason = logOn ? logOnFailure(transaction, context, loginName) : undefined
  if (reason !== undefined) {
    // The request is well formed, and the platform cannot honour it now: the member stays logged off.
    transaction.events.push({
      eventName: 'OnGroupLoggedFailed',
      loginName,
      groupId: huntingGroupId(group.number),
      reason,
    })
    return undefined
  }
  changeGroup(transaction, group, {
    loggedOff: logOn
      ? group.loggedOff.filter((member) => member !== loginName)
      : [...group.loggedOff, loginName],
  })
  if (!logOn) withdrawOffers(transaction, loginName, context, group.number)
  tellLogOn(transaction, loginName, was, logOn)
  return undefined
}

/**
 * The user joins the group (at the end of its hunt order, logged on) or leaves it, where the group lets its
 * members do so themselves; already a member, or not: nothing changes. A user is in one group at most.
 */
const huntingGroupMember: Operation<Command<'huntingGroupMember'>> = (
  transaction,
  command,
  context,
) => {
  const { loginName, join } = command
  const group = requireGroup(transaction, command.group)
  const member = group.members.includes(loginName)
  if (member === join) return undefined
  if (!group.selfJoin)
    throw new PlatformError(
      'NOT_ALLOWED',
      `Hunting group ${group.number} does not let users ${join ? 'join' : 'leave'} it themselves`,
    )
  if (join) {
    const other = groupOfMember(transaction.state.huntingGroups, loginName)
    if (other !== undefined)
      throw new PlatformError(
        'NOT_EXPECTED',
        `'${loginName}' is a member of hunting group ${other.number}: leave it first`,
      )
    if (context.directory.resolve(loginName)?.deviceId === undefined)
      throw new PlatformError('NOT_EXPECTED', `'${loginName}' has no device the group could ring`)
  }
  setMembers(
    transaction,
    group,
    join ? [...group.members, loginName] : group.members.filter((m) => m !== loginName),
    context,
  )
  return undefined
}

/**
 * Gives the group these members: those who leave stop ringing for it and are told they are logged off,
 * those who join are logged on and told so.
 */
function setMembers(
  transaction: Transaction,
  group: HuntingGroup,
  members: string[],
  context: EngineContext,
): HuntingGroup {
  const leaving = group.members.filter((member) => !members.includes(member))
  const joining = members.filter((member) => !group.members.includes(member))
  const idleSince = { ...group.idleSince }
  for (const member of leaving) delete idleSince[member]
  const changed = changeGroup(transaction, group, {
    members,
    loggedOff: group.loggedOff.filter((member) => members.includes(member)),
    idleSince,
    ...(group.lastServed !== undefined &&
      !members.includes(group.lastServed) && { lastServed: undefined }),
  })
  for (const member of leaving) {
    withdrawOffers(transaction, member, context, group.number)
    tellLogOn(transaction, member, isLoggedOn(group, member), false)
  }
  for (const member of joining) tellLogOn(transaction, member, false, true)
  return changed
}

/**
 * BAD_PARAMETER unless the definition can run: a number no device has, members with a device and in no other
 * group, an overflow that reaches somewhere else than the group.
 */
function checkDefinition(
  transaction: Transaction,
  context: EngineContext,
  definition: HuntingGroupDefinition,
): void {
  const { number } = definition
  if (context.directory.resolve(number) !== undefined)
    throw new PlatformError(
      'BAD_PARAMETER',
      `number: ${number} already reaches a party of the plan`,
    )
  if (context.directory.isDeskSharingSet?.(number) === true)
    throw new PlatformError('BAD_PARAMETER', `number: ${number} is a desk-sharing set`)
  for (const member of definition.members) {
    const other = groupOfMember(transaction.state.huntingGroups, member)
    if (other !== undefined && other.number !== number)
      throw new PlatformError(
        'BAD_PARAMETER',
        `members: '${member}' is a member of hunting group ${other.number}`,
      )
    if (context.directory.resolve(member)?.loginName !== member)
      throw new PlatformError('BAD_PARAMETER', `members: no user '${member}' with a device`)
  }
  const { overflow } = definition
  if (definition.whenBusy === 'OVERFLOW' && overflow === undefined)
    throw new PlatformError('BAD_PARAMETER', 'whenBusy: OVERFLOW needs an overflow')
  if (overflow !== undefined && 'voicemailOf' in overflow) {
    if (context.directory.featuresOf?.(overflow.voicemailOf)?.voicemail === undefined)
      throw new PlatformError(
        'BAD_PARAMETER',
        `overflow.voicemailOf: no user '${overflow.voicemailOf}' with a voice mail`,
      )
  } else if (overflow !== undefined && overflow.number === number)
    throw new PlatformError('BAD_PARAMETER', 'overflow.number: is the group itself')
}

/**
 * Creates the group, or changes it: its settings at once (calls it offers keep ringing where they ring), its
 * members as joining and leaving do.
 */
const setHuntingGroup: Operation<Command<'setHuntingGroup'>> = (transaction, command, context) => {
  const definition = command.group
  checkDefinition(transaction, context, definition)
  const existing = groupAt(transaction, definition.number)
  if (existing === undefined) {
    if (Object.keys(transaction.state.huntingGroups ?? {}).length >= MAX_GROUPS)
      throw new PlatformError(
        'BAD_PARAMETER',
        `The platform has ${MAX_GROUPS} hunting groups already`,
      )
    putGroup(transaction, definition.number, newHuntingGroup({ ...definition, members: [] }))
  }
  const group = requireGroup(transaction, definition.number)
  const { members, ...settings } = definition
  const updated = changeGroup(transaction, group, structuredClone(settings))
  setMembers(transaction, updated, [...members], context)
  return undefined
}

/**
 * Deletes the group: its members are told they are logged off, and the calls it distributes end
 * (DESTINATION_NOT_OBTAINABLE: the number reaches nobody any more).
 */
const deleteHuntingGroup: Operation<Command<'deleteHuntingGroup'>> = (
  transaction,
  command,
  context,
) => {
  removeGroup(transaction, requireGroup(transaction, command.number), context)
  return undefined
}

function removeGroup(transaction: Transaction, group: HuntingGroup, context: EngineContext): void {
  setMembers(transaction, group, [], context)
  for (const call of allCalls(transaction.state)) {
    if (call.hunt?.group !== group.number) continue
    const copy = transaction.call(call.callRef)
    if (copy === undefined) continue
    delete copy.hunt
    releaseCall(transaction, copy, 'DESTINATION_NOT_OBTAINABLE')
  }
  putGroup(transaction, group.number, undefined)
}

/**
 * The directory file's groups (when the file changed: engine-groups.ts): each one set as `setHuntingGroup`
 * sets it, the groups the file no longer has deleted; log-on states and the rest stay for the groups that
 * stay. The file was checked when read; what no longer holds now (a number a device took since, a member gone)
 * is left out rather than refused, so that the rest of the file is taken.
 */
const provisionHuntingGroups: Operation<Command<'provisionHuntingGroups'>> = (
  transaction,
  command,
  context,
) => {
  const numbers = new Set(command.groups.map((group) => group.number))
  for (const group of Object.values(transaction.state.huntingGroups ?? {}))
    if (!numbers.has(group.number)) removeGroup(transaction, group, context)
  // Members first leave the groups they no longer belong to, so that moving between groups is allowed.
  for (const definition of command.groups) {
    const group = groupAt(transaction, definition.number)
    if (group !== undefined)
      setMembers(
        transaction,
        group,
        group.members.filter((member) => definition.members.includes(member)),
        context,
      )
  }
  const claimed = new Set<string>()
  for (const definition of command.groups) {
    if (context.directory.resolve(definition.number) !== undefined) continue
    const members = definition.members.filter(
      (member) => !claimed.has(member) && context.directory.resolve(member)?.loginName === member,
    )
    for (const member of members) claimed.add(member)
    setHuntingGroup(
      transaction,
      { type: 'setHuntingGroup', group: { ...definition, members } },
      context,
    )
  }
  if (command.digest === undefined) delete transaction.state.huntingProvision
  else transaction.state.huntingProvision = command.digest
  return undefined
}

/** The user leaves its hunting group, if any, whatever the group allows (the user is gone from the directory). */
export function forgetMember(
  transaction: Transaction,
  loginName: string,
  context: EngineContext,
): void {
  const before = transaction.state.huntingGroups
  const group = groupOfMember(before, loginName)
  if (group === undefined) return
  setMembers(
    transaction,
    group,
    group.members.filter((member) => member !== loginName),
    context,
  )
  tellGroupChanges(transaction, before)
}

export const huntingOperations = {
  huntNoAnswer: ((transaction, command, context) => {
    huntNoAnswer(transaction, command.callRef, command.number, context)
    return undefined
  }) satisfies Operation<Command<'huntNoAnswer'>>,
  huntQueueTimeout: ((transaction, command, context) => {
    huntQueueTimeout(transaction, command.callRef, context)
    return undefined
  }) satisfies Operation<Command<'huntQueueTimeout'>>,
  huntingGroupLogOn: withGroupEvents(huntingGroupLogOn),
  huntingGroupMember: withGroupEvents(huntingGroupMember),
  setHuntingGroup: withGroupEvents(setHuntingGroup),
  deleteHuntingGroup: withGroupEvents(deleteHuntingGroup),
  provisionHuntingGroups: withGroupEvents(provisionHuntingGroups),
}
