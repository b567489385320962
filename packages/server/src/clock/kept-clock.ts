/**
 * The service's clock as the control plane sets it, kept across restarts (docs/control-plane.md, "The
 * clock"): it goes on from the offset the store kept, and each advance is stored before it is answered, so
 * that the timers the call engine stored, due on that clock, are neither late nor early after a restart. In a
 * cluster, an advance adds to the offset stored (two nodes' advances at once add up: docs/cluster.md, "No lost
 * update"), each stored advance is announced, and the other nodes bring their clock to the offset stored
 * (docs/cluster.md, "What each node keeps in memory"): every node reads the same time.
 */

import type { ChangeNotices } from '../platform/change-notices.js'
import type { ClockOffsetStore } from '../platform/clock-offset-store.js'
import type { AdjustableClock } from './adjustable-clock.js'
import type { AdjustableTime } from './adjustable-time.js'

/** What keeping the clock in step with other nodes needs. */
export interface KeptClockOptions {
  /** The other nodes of a cluster: told of each advance stored here, telling of theirs. None: a node alone. */
  notices?: ChangeNotices
  /** Told of a reload of the offset that failed: the clock stays where it is until the next notice. */
  onReloadFailure?: (error: unknown) => void
}

/** The only key of the clock's notices: its offset. */
const OFFSET = 'offset'

/** Brings `clock` to the offset `store` kept, and answers the clock the control plane advances. */
export async function keptClock(
  clock: AdjustableClock,
  store: ClockOffsetStore,
  options: KeptClockOptions = {},
): Promise<AdjustableTime> {
  const { notices } = options
  clock.restore(await store.load())
  // Reloads run one after the other; the clock only moves forward, so an older offset read changes nothing.
  let reloaded: Promise<void> = Promise.resolve()
  notices?.follow('clock', () => {
    reloaded = reloaded
      .then(async () => clock.restore(await store.load()))
      .catch((error: unknown) => options.onReloadFailure?.(error))
    return reloaded
  })
  return {
    now: () => clock.now(),
    get offsetMs() {
      return clock.offsetMs
    },
    nextDueAt: () => clock.nextDueAt(),
    hold: () => clock.hold(),
    // Stored first, as an addition to what the store holds (another node's advance at the same moment adds up
    // with this one); then the clock goes to the offset stored, which only moves it forward.
    advance: async (ms) => {
      const offsetMs = await store.advance(ms)
      clock.restore(offsetMs)
      await notices?.announce('clock', OFFSET)
    },
  }
}
