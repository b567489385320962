import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TrackedChangeNotices } from '../../test/support/tracked-change-notices.js'
import type { ClockOffsetStore } from '../platform/clock-offset-store.js'
import { MemoryChangeNotices, MemoryNoticeHub } from '../storage/memory/memory-change-notices.js'
import { AdjustableClock } from './adjustable-clock.js'
import { keptClock } from './kept-clock.js'

const START = Date.UTC(2026, 0, 1)

/** A store in memory that records the offset each advance stored; `set` moves it as another writer would. */
function memoryStore(
  offsetMs = 0,
): ClockOffsetStore & { saves: number[]; set(value: number): void } {
  const saves: number[] = []
  return {
    saves,
    load: async () => offsetMs,
    advance: async (ms) => {
      offsetMs += ms
      saves.push(offsetMs)
      return offsetMs
    },
    set: (value) => {
      offsetMs = value
    },
  }
}

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['Date', 'setTimeout', 'clearTimeout'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('keptClock', () => {
  it('goes on from the offset kept before, firing what fell due on the way', async () => {
    const clock = new AdjustableClock()
    const fired: string[] = []
    // A timer the call engine re-armed at start, due 90 s ahead on the clock it was set on.
    clock.setTimer(90_000, () => fired.push('due within the offset'))
    clock.setTimer(150_000, () => fired.push('due after it'))

    const kept = await keptClock(clock, memoryStore(120_000))

    expect(kept.offsetMs).toBe(120_000)
    expect(kept.now()).toBe(START + 120_000)
    expect(fired).toEqual(['due within the offset'])
    vi.advanceTimersByTime(30_000)
    expect(fired).toEqual(['due within the offset', 'due after it'])
  })

  it('starts from the system time when no offset was kept', async () => {
    const kept = await keptClock(new AdjustableClock(), memoryStore())
    expect(kept.offsetMs).toBe(0)
    expect(kept.now()).toBe(START)
  })

  it('stores each advance before answering it', async () => {
    const store = memoryStore()
    const kept = await keptClock(new AdjustableClock(), store)
    await kept.advance(60_000)
    expect(store.saves).toEqual([60_000])
    await kept.advance(1_500)
    expect(store.saves).toEqual([60_000, 61_500])
    expect(await store.load()).toBe(61_500)
  })

  it('adds up advances that overlap, however long each store takes, the clock at the sum', async () => {
    // A store whose first advance ends after the ones that follow it, were they run at once.
    let value = 0
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let calls = 0
    const store: ClockOffsetStore = {
      load: async () => value,
      advance: async (ms) => {
        const first = calls++ === 0
        value += ms
        const stored = value
        if (first) await held
        return stored
      },
    }
    const kept = await keptClock(new AdjustableClock(), store)
    const advances = [kept.advance(1_000), kept.advance(2_000), kept.advance(3_000)]
    release()
    await Promise.all(advances)
    expect(value).toBe(6_000)
    expect(kept.offsetMs).toBe(6_000)
  })

  it('adds an advance to what another node stored meanwhile, the clock going to the sum', async () => {
    const store = memoryStore()
    const kept = await keptClock(new AdjustableClock(), store)
    // Another node advanced the stored clock by a minute; this node has not heard of it yet.
    store.set(60_000)
    await kept.advance(1_000)
    expect(await store.load()).toBe(61_000)
    expect(kept.offsetMs).toBe(61_000)
  })

  it('answers an advance the store refused with the failure, the clock not moved, and stores the next one', async () => {
    const store = memoryStore()
    const kept = await keptClock(new AdjustableClock(), store)
    const failure = new Error('disk full')
    vi.spyOn(store, 'advance').mockRejectedValueOnce(failure)
    await expect(kept.advance(1_000)).rejects.toBe(failure)
    expect(kept.offsetMs).toBe(0)
    await kept.advance(1_000)
    expect(await store.load()).toBe(1_000)
    expect(kept.offsetMs).toBe(1_000)
  })

  it("brings another node's clock to the offset one node stored, firing what fell due there", async () => {
    const store = memoryStore()
    const hub = new MemoryNoticeHub()
    const clockA = new AdjustableClock()
    const clockB = new AdjustableClock()
    const fired: string[] = []
    clockB.setTimer(90_000, () => fired.push('due on B within the advance'))
    const a = await keptClock(clockA, store, { notices: new MemoryChangeNotices(hub) })
    const notices = new TrackedChangeNotices(new MemoryChangeNotices(hub))
    const b = await keptClock(clockB, store, { notices })

    const reloaded = notices.next('clock', 'offset')
    await a.advance(120_000)
    await reloaded

    expect(b.offsetMs).toBe(120_000)
    expect(b.now()).toBe(a.now())
    expect(fired).toEqual(['due on B within the advance'])
  })

  it('never sets a clock back on a notice, and tells the reporter of a reload that failed', async () => {
    const store = memoryStore()
    const hub = new MemoryNoticeHub()
    const failures: unknown[] = []
    const notices = new TrackedChangeNotices(new MemoryChangeNotices(hub))
    const b = await keptClock(new AdjustableClock(), store, {
      notices,
      onReloadFailure: (error) => failures.push(error),
    })
    const other = new MemoryChangeNotices(hub)
    await b.advance(60_000)
    store.set(30_000)

    let reloaded = notices.next('clock', 'offset')
    await other.announce('clock', 'offset')
    await reloaded
    expect(b.offsetMs).toBe(60_000)

    const failure = new Error('database gone')
    vi.spyOn(store, 'load').mockRejectedValueOnce(failure)
    reloaded = notices.next('clock', 'offset')
    await other.announce('clock', 'offset')
    await reloaded
    expect(failures).toEqual([failure])
    expect(b.offsetMs).toBe(60_000)
  })
})
