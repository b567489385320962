/**
 * The events a run follows for each user it observes: what the user's application would receive with a
 * subscription to every package about the user (docs/scenarios.md, "Expectations"), taken from the platform's
 * event router as subscriptions take them, with the time of the run each arrived at.
 */
import { EVENT_PACKAGES, type EventPackage, PRODUCT_ONLY_PACKAGES } from '@openness/wire'
import type { EventTarget, SerializedEvent } from '../../delivery/event-router.js'
import type { ScenarioDependencies } from './scenario-dependencies.js'
import type { DeliveredEvent } from './scenario-result.js'

/** Every event a user's application may receive: all packages but the platform's own and the product's. */
const USER_EVENT_NAMES: readonly string[] = (
  Object.entries(EVENT_PACKAGES) as [EventPackage, readonly string[]][]
)
  .filter(([name]) => name !== 'system' && !PRODUCT_ONLY_PACKAGES.has(name))
  .flatMap(([, names]) => names)

export class ScenarioObservers {
  readonly #events = new Map<string, DeliveredEvent[]>()
  readonly #targets: EventTarget[] = []

  /**
   * Follows the events of `users`; `arrived` is told of each with the time it came at (milliseconds of the run),
   * in the order they came.
   */
  constructor(
    private readonly router: ScenarioDependencies['events'],
    users: Iterable<string>,
    private readonly elapsed: () => number,
    private readonly arrived: (user: string, at: number, event: Record<string, unknown>) => void,
  ) {
    for (const user of new Set(users)) {
      const delivered: DeliveredEvent[] = []
      this.#events.set(user, delivered)
      const target: EventTarget = {
        deliver: (serialized: SerializedEvent) => {
          const at = this.elapsed()
          const event = JSON.parse(serialized.json) as Record<string, unknown>
          delivered.push({ at: at / 1000, event })
          this.arrived(user, at, event)
        },
      }
      this.#targets.push(target)
      router.route(target, [{ eventNames: USER_EVENT_NAMES, loginNames: [user] }])
    }
  }

  /** The events `user` received, in order; empty for a user not observed. */
  of(user: string): readonly DeliveredEvent[] {
    return this.#events.get(user) ?? []
  }

  /** Every observed user's events. */
  all(): Record<string, DeliveredEvent[]> {
    return Object.fromEntries(this.#events)
  }

  /** Stops following. */
  close(): void {
    for (const target of this.#targets.splice(0)) this.router.unroute(target)
  }
}
