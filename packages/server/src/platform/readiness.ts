/**
 * Whether the public API serves (docs/control-plane.md, "Faults"): the control plane makes the service NOT_READY
 * for a while (specification, "Errors": NOT_READY, "server not yet available"), on its own or as part of a
 * switch-over, and the gateway's readiness plugin answers every API request 503 meanwhile. The fault ends by
 * itself when the clock reaches its end, or when cleared.
 */
import type { Clock } from './events.js'

/** Why the service is not ready: told so by the operator, or a simulated switch-over of the platform. */
export type UnreadinessCause = 'NOT_READY' | 'SWITCH_OVER'

/** A period during which the service is not ready. */
export interface Unreadiness {
  cause: UnreadinessCause
  /** When it started and when it ends (milliseconds since the epoch, on the service's clock). */
  since: number
  until: number
}

export class Readiness {
  #fault: Unreadiness | undefined
  /** When the last switch-over ended (or ends): the platform's restart as clients see it. */
  #switchOverEnd: number | undefined

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** The fault in force, undefined when the service is ready: then one field read, as every request asks. */
  get fault(): Unreadiness | undefined {
    const fault = this.#fault
    if (fault === undefined || this.clock.now() < fault.until) return fault
    this.#fault = undefined
    return undefined
  }

  /** Whole seconds until the fault ends, at least 1: what `Retry-After` says. */
  secondsLeft(fault: Unreadiness): number {
    return Math.max(1, Math.ceil((fault.until - this.clock.now()) / 1000))
  }

  /** Makes the service not ready for `durationMs` from now; replaces the fault in force, if any. */
  notReadyFor(durationMs: number, cause: UnreadinessCause): Unreadiness {
    const since = this.clock.now()
    this.#fault = { cause, since, until: since + durationMs }
    if (cause === 'SWITCH_OVER') this.#switchOverEnd = this.#fault.until
    return this.#fault
  }

  /** Ends the fault in force now; false when there was none. */
  clear(): boolean {
    const fault = this.fault
    if (fault?.cause === 'SWITCH_OVER') this.#switchOverEnd = this.clock.now()
    this.#fault = undefined
    return fault !== undefined
  }

  /**
   * When the last switch-over ended, if one did: the platform served again from then on, the system
   * status's start date (docs/system-status.md). Undefined while none has ended.
   */
  get lastSwitchOverEnd(): number | undefined {
    const end = this.#switchOverEnd
    return end !== undefined && end <= this.clock.now() ? end : undefined
  }
}
