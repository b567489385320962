/**
 * The state machine of a connection: one party's side of a call, in the MediaState that party sees its own
 * side in (a leg for the user whose device it is, a participant for everybody else in the call). The
 * specification leaves call, leg and participant transitions "not shown"; this is the table we chose, with
 * CSTA call-model semantics, recorded in docs/call-model.md (a test keeps the two equal).
 *
 * ```
 *   (new) --make call, autoAnswer------------> RINGING_OUTGOING --callee answers--+
 *   (new) --alerted (callee, or caller of a                                      |
 *            make call without autoAnswer)---> RINGING_INCOMING --answer---------+--> ACTIVE <--hold/retrieve--> HELD
 *                                               |  caller of a make call without |
 *                                               |  autoAnswer answers: the callee|
 *                                               +--is called-> RINGING_OUTGOING  |
 *   any state --last party left / released--> RELEASING --> (gone)
 *   any state --dropped, timed out, left-----> (gone)
 * ```
 *
 * UNKNOWN, OFF_HOOK, IDLE and DIALING are wire values no operation produces today (a connection exists
 * from the moment it rings): they have no transitions.
 *
 * The table is also the door: operations create a connection only with `newConnection` and change its state
 * only with `moveConnection`, which refuse what the table does not allow (style guide section 4, one door).
 */
import type { MediaState } from '@openness/wire'
import type { CallRecord, Connection, Endpoint } from './telephony-state.js'

/**
 * The states a connection may be created in: ringing (called, or calling), and for a party that joins a call
 * already connected or held (pickup with autoAnswer, unpark, a leg moved to another device, a party that joins
 * by transfer or merge, the park slot).
 */
export const CONNECTION_INITIAL_STATES = [
  'RINGING_INCOMING',
  'RINGING_OUTGOING',
  'ACTIVE',
  'HELD',
] as const satisfies readonly MediaState[]

/** The allowed moves of a connection's state; a connection may also leave its call from any state. */
export const CONNECTION_TRANSITIONS = {
  UNKNOWN: [],
  OFF_HOOK: [],
  IDLE: [],
  DIALING: [],
  RINGING_INCOMING: ['RINGING_OUTGOING', 'ACTIVE', 'RELEASING'],
  RINGING_OUTGOING: ['ACTIVE', 'HELD', 'RELEASING'],
  ACTIVE: ['HELD', 'RELEASING'],
  HELD: ['ACTIVE', 'RELEASING'],
  RELEASING: [],
} as const satisfies Record<MediaState, readonly MediaState[]>

/** True when a connection may go from `from` to `to` (staying in a state is always allowed). */
export function canTransition(from: MediaState, to: MediaState): boolean {
  return from === to || (CONNECTION_TRANSITIONS[from] as readonly MediaState[]).includes(to)
}

/**
 * A connection created or moved against the table: a bug in an operation, never a refusal (an operation checks
 * the states it needs first and refuses with PlatformError), so it reaches a client as SERVER_PROBLEM.
 */
export class IllegalConnectionMoveError extends Error {
  override readonly name = 'IllegalConnectionMoveError'
}

/** The party of a connection, for an error message: its device and user, service or outside number. */
function partyOf(endpoint: Endpoint): string {
  if (endpoint.service !== undefined) return `${endpoint.service} ${endpoint.number}`
  if (endpoint.deviceId !== undefined)
    return `device ${endpoint.deviceId} of '${endpoint.loginName}'`
  return `outside number ${endpoint.number}`
}

/**
 * A new connection of `endpoint` in `state`, which must be one of CONNECTION_INITIAL_STATES (the rows `(new)`
 * of docs/call-model.md); the caller adds it to its call.
 */
export function newConnection(endpoint: Endpoint, state: MediaState): Connection {
  const initial: readonly MediaState[] = CONNECTION_INITIAL_STATES
  if (!initial.includes(state))
    throw new IllegalConnectionMoveError(
      `${partyOf(endpoint)} cannot join a call ${state}: a connection starts ${initial.join(' or ')}`,
    )
  return { endpoint, state }
}

/**
 * Moves `connection`, a connection of `call`, to `to` when the table allows it; staying in its state changes
 * nothing. Leaving the call (from any state) is not a move: the operation takes the connection out.
 */
export function moveConnection(call: CallRecord, connection: Connection, to: MediaState): void {
  const from = connection.state
  if (from === to) return
  if (!canTransition(from, to))
    throw new IllegalConnectionMoveError(
      `Call ${call.callRef}: ${partyOf(connection.endpoint)} cannot move ${from} -> ${to}`,
    )
  // The one write of a connection's state: everywhere else its type makes it read-only.
  const moved: { state: MediaState } = connection
  moved.state = to
}
