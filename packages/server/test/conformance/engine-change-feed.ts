/**
 * The EngineChangeFeed conformance suite (docs/cluster-engine.md, "The replica"): batches read after a number, in
 * order and whole; a bounded feed telling a reader that fell behind it; a gap; a late batch of an older owner
 * dropped and a new history started; followers handed new batches without polling, and closed.
 */
import { expect, it } from 'vitest'
import type {
  EngineBatch,
  EngineBatchPage,
  EngineChangeFeed,
} from '../../src/platform/telephony/engine-change-feed.js'

/** A feed to test: `other` is another node's view of the same feed (the same one where there is no other). */
export interface EngineChangeFeedHandle {
  feed: EngineChangeFeed
  other(): Promise<EngineChangeFeed>
}

/** Opens an empty feed holding at most `capacity` batches (the default when not given). */
export type OpenEngineChangeFeed = (capacity?: number) => Promise<EngineChangeFeedHandle>

/** How long a follower may take to be handed a batch: far below the Redis follower's 30 s block. */
const WAKE_BOUND_MS = 1_000

function batch(number: number, epoch = 1): EngineBatch {
  return {
    batch: number,
    epoch,
    calls: [[`c${number}`, JSON.stringify({ callRef: `c${number}`, note: 'a "quoted" text' })]],
    removedCalls: number > 1 ? [`c${number - 1}`] : [],
    replaceDevices: number === 1,
    devices: [['1001', '{"deviceId":"1001"}']],
    removedDevices: [],
    ...(number % 2 === 1 && { rest: `{"sequence":${number}}` }),
  }
}

async function publish(feed: EngineChangeFeed, from: number, to: number, epoch = 1): Promise<void> {
  for (let number = from; number <= to; number++) await feed.publish(batch(number, epoch))
}

const numbers = (page: EngineBatchPage): number[] => page.batches.map((entry) => entry.batch)

/** Pages handed to a follower, awaited one by one. */
class RecordingFollower {
  readonly pages: EngineBatchPage[] = []
  #waiting: (() => void) | undefined

  readonly onPage = async (page: EngineBatchPage): Promise<number> => {
    this.pages.push(page)
    this.#waiting?.()
    return page.batches.at(-1)?.batch ?? 0
  }

  /** Resolves once `count` pages were handed; fails after the bound. */
  async pagesBy(count: number): Promise<EngineBatchPage[]> {
    const deadline = Date.now() + WAKE_BOUND_MS
    while (this.pages.length < count) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`${this.pages.length} pages handed, ${count} awaited`)
      await new Promise<void>((resolve) => {
        this.#waiting = resolve
        setTimeout(resolve, left)
      })
    }
    return this.pages
  }
}

export function engineChangeFeedConformance(open: OpenEngineChangeFeed): void {
  it('reads the batches after a number, oldest first, whole', async () => {
    const { feed, other } = await open()
    await publish(feed, 1, 5)
    const page = await (await other()).read(2, 10)
    expect(page).toEqual({ batches: [batch(3), batch(4), batch(5)], missing: false })
    expect(numbers(await feed.read(0, 2))).toEqual([1, 2])
    expect(await feed.read(5, 10)).toEqual({ batches: [], missing: false })
  })

  it('tells a reader that fell behind the bound that the batches after its number are missing', async () => {
    const { feed } = await open(3)
    await publish(feed, 1, 6)
    const page = await feed.read(1, 10)
    expect(numbers(page)).toEqual([4, 5, 6])
    expect(page.missing).toBe(true)
    expect((await feed.read(3, 10)).missing).toBe(false)
  })

  it('tells a reader of a batch never published as missing', async () => {
    const { feed } = await open()
    await publish(feed, 1, 2)
    await feed.publish(batch(4))
    expect(await feed.read(2, 10)).toEqual({ batches: [batch(4)], missing: true })
  })

  it('calls onQueued before the batch is held, and what the node sends after it finds the batch there', async () => {
    const { feed } = await open()
    await publish(feed, 1, 1)
    let readAfter: Promise<EngineBatchPage> | undefined
    let heldFirst = false
    const held = feed
      .publish(batch(2), () => {
        // Sent once queued, before the publication resolved: the feed runs it after the entry.
        readAfter = feed.read(1, 10)
      })
      .then(() => {
        heldFirst = readAfter === undefined
      })
    await held
    expect(heldFirst).toBe(false)
    expect(numbers(await (readAfter as Promise<EngineBatchPage>))).toEqual([2])
  })

  it('drops a late batch of an older owner, and starts a new history under the same or a newer epoch', async () => {
    const { feed } = await open()
    await publish(feed, 1, 3, 2)
    await feed.publish(batch(3, 1))
    expect(numbers(await feed.read(0, 10))).toEqual([1, 2, 3])
    expect((await feed.read(0, 10)).batches.at(-1)?.epoch).toBe(2)
    await feed.publish(batch(2, 3))
    expect(await feed.read(0, 10)).toEqual({ batches: [batch(2, 3)], missing: true })
  })

  it('hands a follower the batches held at once, then each new one as it is published', async () => {
    const { feed, other } = await open()
    await publish(feed, 1, 2)
    const recording = new RecordingFollower()
    const follower = await (await other()).follow(0, recording.onPage)
    try {
      expect((await recording.pagesBy(1)).map(numbers)).toEqual([[1, 2]])
      await publish(feed, 3, 3)
      expect((await recording.pagesBy(2)).map(numbers)).toEqual([[1, 2], [3]])
      await publish(feed, 4, 4)
      expect((await recording.pagesBy(3)).map(numbers)).toEqual([[1, 2], [3], [4]])
      expect(recording.pages.every((page) => !page.missing)).toBe(true)
    } finally {
      await follower.close()
    }
  })

  it('goes on after the number the follower answers, and hands nothing once closed', async () => {
    const { feed } = await open()
    await publish(feed, 1, 1)
    const pages: number[][] = []
    let woken: () => void = () => {}
    const follower = await feed.follow(0, async (page) => {
      pages.push(numbers(page))
      woken()
      // As a replica that loaded the state of batch 3 from the database on its first page.
      return Math.max(3, page.batches.at(-1)?.batch ?? 0)
    })
    await new Promise<void>((resolve) => {
      woken = resolve
      if (pages.length > 0) resolve()
    })
    await publish(feed, 2, 4)
    await new Promise<void>((resolve) => {
      woken = resolve
      setTimeout(resolve, WAKE_BOUND_MS)
    })
    expect(pages).toEqual([[1], [4]])
    await follower.close()
    await publish(feed, 5, 5)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(pages).toEqual([[1], [4]])
  })
}
