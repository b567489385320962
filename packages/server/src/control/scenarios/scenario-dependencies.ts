/**
 * What a scenario run needs of the service (docs/scenarios.md, "The runner"): the control plane and the public
 * API to send the script's requests to, in the process; the call engine's state; the clock it drives; the
 * events it follows for each user; and, when the service has it, a reset.
 */

import type { AdjustableTime } from '../../clock/adjustable-time.js'
import type { EventTarget, Route } from '../../delivery/event-router.js'
import type { ControlTelephony } from '../routes/route-support.js'

/** A request made in the process (Fastify's inject), and its answer. */
export interface InjectedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  body?: unknown
}
export interface InjectedAnswer {
  status: number
  headers: Readonly<Record<string, string | string[] | number | undefined>>
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  body: unknown
}
export type Inject = (request: InjectedRequest) => Promise<InjectedAnswer>

/** The clock a run drives: held still meanwhile when it follows the system's time, stepped from due time to due time. */
export interface ScenarioClock extends AdjustableTime {
  nextDueAt(): number | undefined
}

export interface ScenarioDependencies {
  /** The control plane's routes, with the operator token (paths under /control/v1). */
  control: Inject
  /** The public API (paths under /api/rest/1.0): what users' applications do. */
  api: Inject
  /** A credential of the user, as its login would give: the runner acts for users without their passwords. */
  issueToken(loginName: string): Promise<string>
  /** The name of the session cookie the API reads. */
  cookieName: string
  /** The running call engine: its commands (world rules) and its calls, read to follow them. */
  telephony: ControlTelephony
  clock: ScenarioClock
  /** The platform's events, routed to the run for each user it observes. */
  events: {
    route(target: EventTarget, routes: readonly Route[]): void
    unroute(target: EventTarget): void
  }
  /** Resolves once what the platform started is done: commands, log records, summaries, voice messages. */
  settle(): Promise<void>
  /** The user's event summary, as GET /eventSummary answers it. */
  eventSummary(loginName: string): Promise<unknown>
  /** Deletes every voice message of the user's mailbox, if the platform hosts one (world `clear`). */
  clearMailbox(loginName: string): Promise<void>
  /**
   * Returns the platform to the directory file's state (issue 16's reset), for `reset: true`; a service
   * without it refuses such a run with NOT_SUPPORTED.
   */
  reset?: () => Promise<void>
}
