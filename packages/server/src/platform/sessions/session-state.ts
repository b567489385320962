/**
 * Session lifecycle (specification, "States and transitions", session lifecycle).
 *
 * ```
 *   (none) --POST /sessions--> OPEN --DELETE /sessions | timer ends | release | switch-over--> CLOSED
 *                               ^  |
 *                               +--+  any use or keepalive restarts the timer
 * ```
 *
 * "none" is the absence of a session for a token; CLOSED is terminal: a token opens one session only.
 */
export type SessionState = 'OPEN' | 'CLOSED'

/** Why a session closed; SWITCH_OVER: every session, in a switch-over the control plane simulated. */
export type SessionCloseCause =
  | 'CLOSED_BY_CLIENT'
  | 'EXPIRED'
  | 'RELEASED'
  | 'SWITCH_OVER'
  /** Its account's password changed through another session, or the control plane (docs/security.md). */
  | 'PASSWORD_CHANGED'

/** The moves the session state machine allows. */
export const SESSION_TRANSITIONS = {
  OPEN: ['OPEN', 'CLOSED'],
  CLOSED: [],
} as const satisfies Record<SessionState, readonly SessionState[]>

/** True when the table allows moving from `from` to `to`. */
export function canTransition(from: SessionState, to: SessionState): boolean {
  return (SESSION_TRANSITIONS[from] as readonly SessionState[]).includes(to)
}
