/**
 * The service's clock as the control plane sets it, kept across restarts (docs/control-plane.md, "The
 * clock"): it goes on from the offset the store kept, and each advance is stored before it is answered, so
 * that the timers the call engine stored, due on that clock, are neither late nor early after a restart.
 */
import type { AdjustableClock } from './adjustable-clock.js'
import type { AdjustableTime } from './control/routes/clock.js'
import type { ClockOffsetStore } from './platform/ports.js'

/** Brings `clock` to the offset `store` kept, and answers the clock the control plane advances. */
export async function keptClock(
  clock: AdjustableClock,
  store: ClockOffsetStore,
): Promise<AdjustableTime> {
  clock.restore(await store.load())
  // Saves run one after the other, each storing the offset as it is then: the last stored is the latest.
  let saved: Promise<void> = Promise.resolve()
  return {
    now: () => clock.now(),
    get offsetMs() {
      return clock.offsetMs
    },
    advance: (ms) => {
      clock.advance(ms)
      saved = saved.catch(() => undefined).then(() => store.save(clock.offsetMs))
      return saved
    },
  }
}
