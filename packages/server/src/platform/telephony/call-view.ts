/**
 * A call as one user sees it (design section 4: each user sees a call from its own side): its legs are the
 * connections on the user's devices, its participants the other parties.
 */
import type {
  AcdData,
  Call,
  CallCapabilities,
  CallData,
  Leg,
  LegCapabilities,
  Participant,
  PartyInfo,
} from '@openness/wire'
import type { AcdCall } from '../acd/acd-state.js'
import { vcardPathOf } from '../directory/vcard-path.js'
import { shownAssociatedData } from './associated-data.js'
import { CallLookup } from './call-index.js'
import { featureCapabilities } from './feature-capabilities.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type { CallRecord, Connection, Endpoint } from './telephony-state.js'

/** The most vcardPaths kept (`vcardPathFor`): beyond, the next one empties the memo (a directory's users). */
const VCARD_PATHS_KEPT = 65_536
const vcardPaths = new Map<string, string>()

/**
 * The vcardPath of a user, remembered: every view of a call names its users' parties, several times a command,
 * and encoding the login name each time was 2 % of a call cycle, with its garbage.
 */
function vcardPathFor(loginName: string): string {
  let path = vcardPaths.get(loginName)
  if (path === undefined) {
    if (vcardPaths.size >= VCARD_PATHS_KEPT) vcardPaths.clear()
    path = vcardPathOf(loginName)
    vcardPaths.set(loginName, path)
  }
  return path
}

/** The PartyInfo of an endpoint. */
export function partyInfo(endpoint: Endpoint, directory: TelephonyDirectory): PartyInfo {
  if (endpoint.service !== undefined)
    return { id: { phoneNumber: endpoint.number }, type: { main: 'SERVICE' } }
  if (endpoint.deviceId !== undefined) {
    const person = directory.ownerOfDevice(endpoint.deviceId)
    if (person !== undefined) {
      const info: PartyInfo = { id: { loginName: person.loginName, phoneNumber: endpoint.number } }
      if (person.firstName !== undefined) info.firstName = person.firstName
      if (person.lastName !== undefined) info.lastName = person.lastName
      info.type = { main: 'USER' }
      info.vcardPath = vcardPathFor(person.loginName)
      return info
    }
  }
  return { id: { phoneNumber: endpoint.number }, type: { main: 'EXTERNAL' } }
}

/** The capabilities of a leg in a state (wire facts 6 shows answer when ringing, drop and hold when active). */
export function legCapabilities(connection: Connection): LegCapabilities {
  switch (connection.state) {
    case 'RINGING_INCOMING':
      return { answer: true }
    case 'ACTIVE':
      return { drop: true, hold: true }
    case 'HELD':
      return { drop: true, retrieve: true }
    case 'RINGING_OUTGOING':
    case 'DIALING':
    case 'RELEASING':
      return { drop: true }
    default:
      return {}
  }
}

/** The call capabilities of the user's side, from the state of its main leg. */
export function callCapabilities(leg: Connection): CallCapabilities {
  switch (leg.state) {
    case 'RINGING_INCOMING':
      return { redirect: true, pickedUp: true, terminate: true }
    case 'ACTIVE':
    case 'HELD':
    case 'RINGING_OUTGOING':
    case 'DIALING':
      return { terminate: true }
    default:
      return {}
  }
}

/**
 * Capabilities of consultation and conference (docs/call-model.md, "Consultation, transfer and conference"):
 * transfer, merge and blindTransfer when the user has this call and another one on the same device, one
 * ACTIVE and the other HELD; addParticipant (MULTIMEDIA users, ACTIVE) and dropParticipant (ACTIVE or HELD)
 * in a conference (three parties or more). A plain answered call shows none of them, as the captured real
 * server did (wire facts 6).
 */
export function consultationCapabilities(
  call: CallRecord,
  main: Connection,
  loginName: string,
  directory: TelephonyDirectory,
  /** The engine's calls (a lookup of them, or all of them). */
  calls: CallLookup | readonly CallRecord[] | undefined,
  /** The capabilities to add to (returned): a new object when not given. */
  capabilities: CallCapabilities = {},
): CallCapabilities {
  const deviceId = main.endpoint.deviceId
  if (
    calls !== undefined &&
    deviceId !== undefined &&
    (main.state === 'ACTIVE' || main.state === 'HELD')
  ) {
    const wanted = main.state === 'ACTIVE' ? 'HELD' : 'ACTIVE'
    const others = calls instanceof CallLookup ? calls.onDevice(deviceId) : calls
    const paired = others.some(
      (other) =>
        other.callRef !== call.callRef &&
        other.connections.some(
          (connection) =>
            connection.endpoint.deviceId === deviceId &&
            connection.endpoint.loginName === loginName &&
            connection.state === wanted,
        ),
    )
    if (paired) {
      capabilities.transfer = true
      capabilities.merge = true
      if (main.state === 'ACTIVE') capabilities.blindTransfer = true
    }
  }
  if (call.connections.length >= 3) {
    if (
      main.state === 'ACTIVE' &&
      deviceId !== undefined &&
      directory.ownerOfDevice(deviceId)?.multimedia
    )
      capabilities.addParticipant = true
    if (main.state === 'ACTIVE' || main.state === 'HELD') capabilities.dropParticipant = true
  }
  return capabilities
}

/** True when the connection is on one of the user's devices. */
export function isUsers(connection: Connection, loginName: string): boolean {
  return connection.endpoint.loginName === loginName
}

/** The call as `loginName` sees it; undefined when the user is not in it. */
/**
 * The ACD context of a call that reached a pilot (AcdData; docs/contact-center.md, "The call's ACD data"): from
 * the call's record only, as every part of a view, so that it changes when the call does, never with time alone.
 */
function acdCallData(acd: AcdCall): AcdData {
  const seconds = (ms: number) => Math.round(ms / 1000)
  return {
    callInfo: {
      queueWaitingTime: seconds(acd.queueWaitMs),
      globalWaitingTime: acd.answeredAt === undefined ? 0 : seconds(acd.answeredAt - acd.arrivedAt),
      ...(acd.pg !== undefined && { agentGroup: acd.pg }),
      local: true,
    },
    queueData: {
      waitingTime: seconds(acd.expectedWaitMs ?? 0),
      saturated: acd.saturated === true,
    },
    pilotNumber: acd.pilot,
    supervisedTransfer: acd.supervisedTransfer === true,
  }
}

/** Whether `loginName` sees the connection as a party: a supervisor's only as its mode shows it. */
function seenBy(connection: Connection, loginName: string): boolean {
  const supervising = connection.endpoint.supervising
  if (supervising === undefined || supervising.mode === 'NORMAL') return true
  return supervising.mode === 'RESTRICTED' && supervising.agent === loginName
}

export function callView(
  call: CallRecord,
  loginName: string,
  directory: TelephonyDirectory,
  /**
   * The calls of the engine (a lookup of them: call-index.ts, or all of them): capabilities that depend on
   * the user's other calls (transfer, merge) need them.
   */
  calls?: CallLookup | readonly CallRecord[],
): Call | undefined {
  // A supervisor the user does not see is not in the call for it: neither a party nor a count in its capabilities.
  if (call.connections.some((connection) => connection.endpoint.supervising !== undefined))
    call = {
      ...call,
      connections: call.connections.filter(
        (connection) => isUsers(connection, loginName) || seenBy(connection, loginName),
      ),
    }
  const own = call.connections.filter((connection) => isUsers(connection, loginName))
  const main = own[0]
  if (main === undefined) return undefined
  const legs: Leg[] = own.map((connection) => ({
    deviceId: connection.endpoint.deviceId ?? connection.endpoint.number,
    state: connection.state,
    capabilities: legCapabilities(connection),
  }))
  // A member a hunting group offers the call to is the member's alone to see until it answers; a supervisor
  // listening or intruding discretely is the supervisor's alone to see, restricted the agent's too.
  const participants: Participant[] = call.connections
    .filter(
      (connection) =>
        !isUsers(connection, loginName) &&
        connection.endpoint.offeredBy === undefined &&
        seenBy(connection, loginName),
    )
    .map((connection) => ({
      participantId: connection.endpoint.number,
      identity: partyInfo(connection.endpoint, directory),
    }))
  const callData: CallData = {
    // As the real server shows it (wire facts 6): the number only.
    initialCalled: { id: { phoneNumber: call.initialCalled.number } },
    state: main.state,
    tags: [],
    // One object the three parts fill in turn, not three spread into a fourth: V8 copies spread objects
    // property by property through its runtime, about 1.7 µs a view where filling takes 20 ns.
    capabilities: featureCapabilities(
      call,
      main,
      loginName,
      directory,
      calls,
      consultationCapabilities(call, main, loginName, directory, calls, callCapabilities(main)),
    ),
  }
  if (call.lastRedirecting) callData.lastRedirecting = partyInfo(call.lastRedirecting, directory)
  if (call.recordState) callData.recordState = call.recordState
  Object.assign(callData, shownAssociatedData(call))
  if (call.accountInfo !== undefined) callData.accountInfo = call.accountInfo
  if (call.acd !== undefined) callData.acdCallData = acdCallData(call.acd)
  return { callRef: call.callRef, callData, legs, participants }
}
