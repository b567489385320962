import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TrackedChangeNotices } from '../test/support/tracked-change-notices.js'
import { AdjustableClock } from './adjustable-clock.js'
import { keptClock } from './kept-clock.js'
import type { ClockOffsetStore } from './platform/ports.js'
import { MemoryChangeNotices, MemoryNoticeHub } from './storage/memory/memory-change-notices.js'

const START = Date.UTC(2026, 0, 1)

/** A store in memory that records every save. */
function memoryStore(offsetMs = 0): ClockOffsetStore & { saves: number[] } {
  const saves: number[] = []
  return {
    saves,
    load: async () => offsetMs,
    save: async (value) => {
      saves.push(value)
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

  it('stores the latest offset last when advances overlap, however long each save takes', async () => {
    // A store whose first save ends after the ones that follow it, were they run at once.
    let value = 0
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let calls = 0
    const store: ClockOffsetStore = {
      load: async () => value,
      save: async (offsetMs) => {
        if (calls++ === 0) await held
        value = offsetMs
      },
    }
    const kept = await keptClock(new AdjustableClock(), store)
    const advances = [kept.advance(1_000), kept.advance(2_000), kept.advance(3_000)]
    release()
    await Promise.all(advances)
    expect(value).toBe(6_000)
  })

  it('answers an advance whose save failed with the failure, and stores the next one', async () => {
    const store = memoryStore()
    const kept = await keptClock(new AdjustableClock(), store)
    const failure = new Error('disk full')
    vi.spyOn(store, 'save').mockRejectedValueOnce(failure)
    await expect(kept.advance(1_000)).rejects.toBe(failure)
    await kept.advance(1_000)
    expect(await store.load()).toBe(2_000)
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
    await store.save(30_000)

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
