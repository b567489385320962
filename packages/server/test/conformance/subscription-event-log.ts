/**
 * The SubscriptionEventLog conformance suite (style guide 6; docs/cluster-events.md, "One stream per
 * subscription"): numbering, order, the bounded capacity and its exact loss count, reads after a position
 * (resumption), acknowledgement, drop, time to live, fan-out, engine events taken once per origin, and watchers
 * woken without polling.
 */
import { expect, it } from 'vitest'
import type {
  EventLogWatcher,
  SubscriptionEventLog,
} from '../../src/platform/subscriptions/subscription-event-log.js'
import { DEFAULT_QUEUE_CAPACITY } from '../../src/storage/memory/memory-event-queue.js'

/** A log to test, and what the suite needs around it. */
export interface SubscriptionEventLogHandle {
  log: SubscriptionEventLog
  /** Another log over the same events: another node's, where the adapter has one (else the same). */
  other(): Promise<SubscriptionEventLog>
  /** Lets `ms` milliseconds pass for the time to live (a virtual clock, or real time). */
  pass(ms: number): Promise<void>
  /** The keys the adapter holds, where it has keys (to check that drop leaves none). */
  keys?: () => Promise<string[]>
  /** How many watcher connections are open, where watchers have connections. */
  watcherConnections?: () => Promise<number>
  close(): Promise<void>
}

/**
 * Opens a log holding at most `capacity` events a subscription, of which at most `replayable` acknowledged ones
 * (the defaults when not given).
 */
export type OpenEventLog = (
  capacity?: number,
  replayable?: number,
) => Promise<SubscriptionEventLogHandle>

const TTL_MS = 60_000
/** How long a watcher may take to be woken: far below the Redis watcher's 30 s block, so no timeout helps. */
const WAKE_BOUND_MS = 1_000

const sequences = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

async function appendEvents(
  log: SubscriptionEventLog,
  subscriptionId: string,
  from: number,
  to: number,
): Promise<number[]> {
  const numbers: number[] = []
  for (const n of sequences(from, to))
    numbers.push(await log.append(subscriptionId, `e${n}`, TTL_MS))
  return numbers
}

/** The node of the watchers of the cases, and a reader of that node (which makes its logs wake that node). */
const WATCHING_NODE = 'node-w'
const READER = `${WATCHING_NODE}/channel/r1`

/** Claims each subscription's log for a reader of the watching node, as a channel opening there does. */
async function claimed(log: SubscriptionEventLog, ...subscriptionIds: string[]): Promise<void> {
  for (const id of subscriptionIds) await log.claim(id, READER, TTL_MS)
}

/** A watcher whose wake-ups the test awaits one by one. */
class RecordingWatcher {
  readonly wakes: string[][] = []
  private waiting: (() => void) | undefined
  watcher!: EventLogWatcher

  /** A watcher of node `nodeId` (WATCHING_NODE by default). */
  static async open(log: SubscriptionEventLog, nodeId = WATCHING_NODE): Promise<RecordingWatcher> {
    const recording = new RecordingWatcher()
    recording.watcher = await log.openWatcher((ids) => {
      recording.wakes.push([...ids].sort())
      recording.waiting?.()
    }, nodeId)
    return recording
  }

  /** The wake-ups once `count` subscriptions were named in all, failing after WAKE_BOUND_MS. */
  async named(count: number): Promise<string[][]> {
    const deadline = Date.now() + WAKE_BOUND_MS
    while (this.wakes.flat().length < count) {
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`${this.wakes.flat().length} named, not ${count}, in ${WAKE_BOUND_MS} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiting = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
    return this.wakes
  }

  /** The wake-ups after a while, for those that must not come. */
  async quiet(ms = 200): Promise<string[][]> {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return this.wakes
  }
}

/** Declares the cases, each on a fresh, empty log from `open`. */
export function subscriptionEventLogConformance(open: OpenEventLog): void {
  async function withLog(
    capacity: number | undefined,
    ...rest:
      | [test: (handle: SubscriptionEventLogHandle) => Promise<void>]
      | [replayable: number, test: (handle: SubscriptionEventLogHandle) => Promise<void>]
  ): Promise<void> {
    const [replayable, test] = rest.length === 1 ? [undefined, rest[0]] : rest
    const handle = await open(capacity, replayable)
    try {
      await test(handle)
    } finally {
      await handle.close()
    }
  }

  it('numbers each subscription’s events 1, 2, 3... apart from other subscriptions’', () =>
    withLog(undefined, async ({ log }) => {
      expect(await log.append('s1', 'a', TTL_MS)).toBe(1)
      expect(await log.append('s2', 'x', TTL_MS)).toBe(1)
      expect(await log.append('s1', 'b', TTL_MS)).toBe(2)
      expect(await log.append('s1', 'c', TTL_MS)).toBe(3)
      expect(await log.read('s1', 0, 10)).toEqual({
        events: [
          { sequence: 1, event: 'a' },
          { sequence: 2, event: 'b' },
          { sequence: 3, event: 'c' },
        ],
        lost: 0,
        after: 0,
        lastSequence: 3,
      })
      expect((await log.read('s2', 0, 10)).events).toEqual([{ sequence: 1, event: 'x' }])
    }))

  it('reads at most max events after a position, oldest first, taking nothing', () =>
    withLog(undefined, async ({ log }) => {
      await appendEvents(log, 's', 1, 6)
      const page = await log.read('s', 2, 3)
      expect(page.events.map((e) => e.event)).toEqual(['e3', 'e4', 'e5'])
      expect(page).toMatchObject({ lost: 0, after: 2, lastSequence: 6 })
      expect((await log.read('s', 5, 10)).events.map((e) => e.sequence)).toEqual([6])
      expect(await log.read('s', 6, 10)).toEqual({ events: [], lost: 0, after: 6, lastSequence: 6 })
      expect((await log.read('s', 0, 10)).events).toHaveLength(6)
    }))

  it('reads nothing, and loses nothing, from a subscription never appended to', () =>
    withLog(undefined, async ({ log }) => {
      expect(await log.read('nobody', 0, 10)).toEqual({
        events: [],
        lost: 0,
        after: 0,
        lastSequence: 0,
      })
      expect((await log.read('nobody', 'acknowledged', 10)).after).toBe(0)
    }))

  it('drops the oldest events when full and counts exactly those lost before the first read', () =>
    withLog(5, async ({ log }) => {
      await appendEvents(log, 's', 1, 8)
      const page = await log.read('s', 0, 10)
      expect(page.events.map((e) => e.sequence)).toEqual([4, 5, 6, 7, 8])
      expect(page.lost).toBe(3)
      expect((await log.read('s', 2, 1)).lost).toBe(1)
      expect(await log.read('s', 5, 10)).toMatchObject({
        lost: 0,
        events: [{ sequence: 6 }, {}, {}],
      })
    }))

  it(`holds DEFAULT_QUEUE_CAPACITY (${DEFAULT_QUEUE_CAPACITY}) events by default`, () =>
    withLog(undefined, async ({ log }) => {
      const appended = await Promise.all(
        sequences(1, DEFAULT_QUEUE_CAPACITY + 3).map((n) => log.append('s', `e${n}`, TTL_MS)),
      )
      expect(appended).toEqual(sequences(1, DEFAULT_QUEUE_CAPACITY + 3))
      const page = await log.read('s', 0, DEFAULT_QUEUE_CAPACITY + 10)
      expect(page.lost).toBe(3)
      expect(page.events).toHaveLength(DEFAULT_QUEUE_CAPACITY)
      expect(page.events[0]).toEqual({ sequence: 4, event: 'e4' })
    }))

  it('frees what was acknowledged but the last `replayable`: a reader after the acknowledged position gets the rest, none lost', () =>
    withLog(undefined, 1, async ({ log }) => {
      await appendEvents(log, 's', 1, 5)
      await log.acknowledge('s', 3)
      const rest = await log.read('s', 'acknowledged', 10)
      expect(rest).toMatchObject({ after: 3, lost: 0, lastSequence: 5 })
      expect(rest.events.map((e) => e.sequence)).toEqual([4, 5])
      // A reader from before the acknowledged position gets what is kept, told what it can no longer get.
      expect(await log.read('s', 1, 10)).toMatchObject({
        lost: 1,
        events: [{ sequence: 3 }, { sequence: 4 }, { sequence: 5 }],
      })
    }))

  it('keeps the last acknowledged events for a channel that resumes from an earlier number', () =>
    withLog(undefined, async ({ log }) => {
      await appendEvents(log, 's', 1, 5)
      await log.acknowledge('s', 4)
      expect((await log.read('s', 'acknowledged', 10)).events.map((e) => e.event)).toEqual(['e5'])
      const resumed = await log.read('s', 2, 10)
      expect(resumed).toMatchObject({ after: 2, lost: 0, lastSequence: 5 })
      expect(resumed.events.map((e) => e.event)).toEqual(['e3', 'e4', 'e5'])
    }))

  it('counts the acknowledged events it keeps in its capacity, dropping them first', () =>
    withLog(3, 3, async ({ log }) => {
      await appendEvents(log, 's', 1, 3)
      await log.acknowledge('s', 3)
      await appendEvents(log, 's', 4, 5)
      expect(await log.read('s', 0, 10)).toMatchObject({
        lost: 2,
        events: [{ sequence: 3 }, { sequence: 4 }, { sequence: 5 }],
      })
    }))

  it('never moves the acknowledged position back, nor past the last number given', () =>
    withLog(undefined, async ({ log }) => {
      await appendEvents(log, 's', 1, 4)
      await log.acknowledge('s', 3)
      await log.acknowledge('s', 1)
      expect((await log.read('s', 'acknowledged', 10)).after).toBe(3)
      await log.acknowledge('s', 99)
      expect((await log.read('s', 'acknowledged', 10)).after).toBe(4)
      expect(await log.append('s', 'e5', TTL_MS)).toBe(5)
      expect((await log.read('s', 'acknowledged', 10)).events).toEqual([
        { sequence: 5, event: 'e5' },
      ])
      await log.acknowledge('nobody', 3)
      expect((await log.read('nobody', 'acknowledged', 10)).after).toBe(0)
    }))

  it('counts events dropped after the acknowledged position as lost to the next reader', () =>
    withLog(3, async ({ log }) => {
      await appendEvents(log, 's', 1, 2)
      await log.acknowledge('s', 2)
      await appendEvents(log, 's', 3, 7)
      const page = await log.read('s', 'acknowledged', 10)
      expect(page).toMatchObject({ after: 2, lost: 2, lastSequence: 7 })
      expect(page.events.map((e) => e.event)).toEqual(['e5', 'e6', 'e7'])
    }))

  it('lets a channel resume on another node from the last number delivered: every event once, in order', () =>
    withLog(undefined, async (handle) => {
      const { log } = handle
      await appendEvents(log, 's', 1, 3)
      const first = await log.read('s', 'acknowledged', 2)
      await log.acknowledge('s', first.events.at(-1)?.sequence ?? 0)
      await appendEvents(log, 's', 4, 5)

      const elsewhere = await handle.other()
      const delivered: number[] = []
      let page = await elsewhere.read('s', 'acknowledged', 2)
      while (page.events.length > 0) {
        delivered.push(...page.events.map((e) => e.sequence))
        const last = page.events.at(-1)?.sequence ?? 0
        await elsewhere.acknowledge('s', last)
        page = await elsewhere.read('s', last, 2)
      }
      expect(first.events.map((e) => e.sequence)).toEqual([1, 2])
      expect(delivered).toEqual([3, 4, 5])
    }))

  it('names the reader that claimed a log last, on every node, and ignores a replaced reader’s acknowledgements', () =>
    withLog(undefined, async (handle) => {
      const { log } = handle
      const elsewhere = await handle.other()
      await appendEvents(log, 's', 1, 4)
      expect((await log.read('s', 'acknowledged', 10)).reader).toBeUndefined()
      await log.claim('s', 'channel-b', TTL_MS)
      await log.acknowledge('s', 1, 'channel-b')
      await elsewhere.claim('s', 'channel-c', TTL_MS)
      // The channel replaced on node B still writing: its acknowledgement moves nothing.
      await log.acknowledge('s', 3, 'channel-b')
      const page = await log.read('s', 'acknowledged', 10)
      expect(page).toMatchObject({ after: 1, reader: 'channel-c' })
      expect(page.events.map((e) => e.sequence)).toEqual([2, 3, 4])
      await elsewhere.acknowledge('s', 2, 'channel-c')
      // Without a reader named, an acknowledgement (a webhook's, a test's) counts whoever claimed the log.
      await log.acknowledge('s', 3)
      expect(await elsewhere.read('s', 'acknowledged', 10)).toMatchObject({
        after: 3,
        reader: 'channel-c',
        events: [{ sequence: 4 }],
      })
    }))

  it('keeps a claim of a log not appended to yet, forgets it with the log, and lets it lapse unless renewed', () =>
    withLog(undefined, async ({ log, pass }) => {
      await log.claim('empty', 'channel-a', TTL_MS)
      expect(await log.read('empty', 'acknowledged', 10)).toEqual({
        events: [],
        lost: 0,
        after: 0,
        lastSequence: 0,
        reader: 'channel-a',
      })
      await log.drop('empty')
      expect((await log.read('empty', 0, 10)).reader).toBeUndefined()
      await log.claim('renewed', 'r', 300)
      await log.claim('lapsed', 'l', 300)
      await pass(150)
      await log.renew('renewed', 300)
      await pass(250)
      expect((await log.read('renewed', 0, 10)).reader).toBe('r')
      expect((await log.read('lapsed', 0, 10)).reader).toBeUndefined()
    }))

  it('tells a claim what the previous reader acknowledged and the log holds, unless that reader released it', () =>
    withLog(undefined, 3, async ({ log, other }) => {
      const elsewhere = await other()
      expect(await log.claim('s', 'channel-a', TTL_MS)).toEqual({})
      await appendEvents(log, 's', 1, 6)
      await log.acknowledge('s', 5, 'channel-a')
      // channel-a's client went without a word: of what it acknowledged, 3 to 5 are still held.
      expect(await elsewhere.claim('s', 'channel-b', TTL_MS)).toEqual({
        unconfirmed: { first: 3, last: 5 },
      })
      await elsewhere.acknowledge('s', 6, 'channel-b')
      // Opened again at once: channel-b claimed from 5, so only what it acknowledged is named.
      expect(await log.claim('s', 'channel-c', TTL_MS)).toEqual({
        unconfirmed: { first: 6, last: 6 },
      })
      // A release by a reader replaced changes nothing; the claimant's own ends the claim.
      await log.release('s', 'channel-b')
      expect((await log.read('s', 'acknowledged', 10)).reader).toBe('channel-c')
      await elsewhere.release('s', 'channel-c')
      expect((await log.read('s', 'acknowledged', 10)).reader).toBeUndefined()
      expect(await log.claim('s', 'channel-d', TTL_MS)).toEqual({})
      // A reader that acknowledged nothing leaves nothing to name.
      expect(await log.claim('s', 'channel-e', TTL_MS)).toEqual({})
    }))

  it('appends one event to many subscriptions at once, each numbered in its own log', () =>
    withLog(undefined, async ({ log }) => {
      await appendEvents(log, 'b', 1, 2)
      expect(await log.appendMany(['a', 'b', 'c'], 'shared', TTL_MS)).toEqual([1, 3, 1])
      expect(await log.appendMany([], 'nothing', TTL_MS)).toEqual([])
      for (const [id, sequence] of [
        ['a', 1],
        ['b', 3],
        ['c', 1],
      ] as const)
        expect((await log.read(id, sequence - 1, 10)).events).toEqual([
          { sequence, event: 'shared' },
        ])
    }))

  it('appends a batch of events in order, each to its subscriptions, origins taken once per log', () =>
    withLog(undefined, async ({ log }) => {
      await log.append('b', 'before', TTL_MS)
      expect(await log.appendBatch([], TTL_MS)).toEqual([])
      expect(
        await log.appendBatch(
          [
            { subscriptionIds: ['a', 'b'], event: 'e1', origin: 7 },
            { subscriptionIds: [], event: 'nobody' },
            { subscriptionIds: ['b', 'c'], event: 'e2' },
            { subscriptionIds: ['a', 'c'], event: 'e3', origin: 8 },
          ],
          TTL_MS,
        ),
      ).toEqual([[1, 2], [], [3, 1], [2, 2]])
      const events = async (id: string) =>
        (await log.read(id, 0, 10)).events.map((entry) => entry.event)
      expect(await events('a')).toEqual(['e1', 'e3'])
      expect(await events('b')).toEqual(['before', 'e1', 'e2'])
      expect(await events('c')).toEqual(['e2', 'e3'])
      // Origin 8 again: taken by `b` (whose last origin is 7), not by `a`, which has it.
      expect(
        await log.appendBatch(
          [
            { subscriptionIds: ['a', 'b'], event: 'e3', origin: 8 },
            { subscriptionIds: ['c'], event: 'e4', origin: 9 },
          ],
          TTL_MS,
        ),
      ).toEqual([[0, 4], [3]])
    }))

  it('takes an engine event once per origin: a second publication of the same events adds only those missing', () =>
    withLog(undefined, async ({ log, other }) => {
      // The dying owner's appends reached `a` and `b` up to origin 11, `c` not at all.
      expect(await log.appendMany(['a', 'b'], 'e10', TTL_MS, 10)).toEqual([1, 1])
      expect(await log.appendMany(['a'], 'e11', TTL_MS, 11)).toEqual([2])
      // Events without an origin (not the engine's) are always taken, and change nothing of it.
      expect(await log.appendMany(['a'], 'user', TTL_MS)).toEqual([3])
      // The next owner, on another node, publishes 10, 11 and 12 again.
      const next = await other()
      expect(await next.appendMany(['a', 'b', 'c'], 'e10', TTL_MS, 10)).toEqual([0, 0, 1])
      expect(await next.appendMany(['a', 'b', 'c'], 'e11', TTL_MS, 11)).toEqual([0, 2, 2])
      expect(await next.appendMany(['a', 'b', 'c'], 'e12', TTL_MS, 12)).toEqual([4, 3, 3])
      const events = async (id: string) =>
        (await log.read(id, 0, 10)).events.map((entry) => entry.event)
      expect(await events('a')).toEqual(['e10', 'e11', 'user', 'e12'])
      expect(await events('b')).toEqual(['e10', 'e11', 'e12'])
      expect(await events('c')).toEqual(['e10', 'e11', 'e12'])
      // An older origin is refused too, whatever came between.
      expect(await log.appendMany(['a'], 'late', TTL_MS, 5)).toEqual([0])
      expect(await log.read('a', 4, 10)).toMatchObject({ events: [], lastSequence: 4 })
    }))

  it('forgets the origin of a dropped subscription with the rest of its log', () =>
    withLog(undefined, async ({ log, keys }) => {
      expect(await log.appendMany(['s'], 'e', TTL_MS, 100)).toEqual([1])
      await log.drop('s')
      if (keys !== undefined) expect((await keys()).filter((key) => key.endsWith(':s'))).toEqual([])
      expect(await log.appendMany(['s'], 'e', TTL_MS, 1)).toEqual([1])
    }))

  it('forgets everything of a dropped subscription: numbering starts again at 1', () =>
    withLog(undefined, async ({ log, keys }) => {
      await appendEvents(log, 's', 1, 3)
      await log.acknowledge('s', 1)
      await log.append('kept', 'k', TTL_MS)
      await log.drop('s')
      expect(await log.read('s', 0, 10)).toEqual({ events: [], lost: 0, after: 0, lastSequence: 0 })
      if (keys !== undefined) expect((await keys()).filter((key) => key.endsWith(':s'))).toEqual([])
      expect(await log.append('s', 'again', TTL_MS)).toBe(1)
      expect((await log.read('kept', 0, 10)).events).toHaveLength(1)
    }))

  it('forgets a subscription’s events once its time to live passed without an append or a renewal', () =>
    withLog(undefined, async ({ log, pass }) => {
      await log.append('quiet', 'q', 300)
      await log.append('renewed', 'r', 300)
      await log.append('appended', 'a1', 300)
      await log.acknowledge('renewed', 1)
      await pass(150)
      await log.renew('renewed', 300)
      await log.append('appended', 'a2', 300)
      await pass(250)
      expect(await log.read('quiet', 0, 10)).toMatchObject({ events: [], lastSequence: 0 })
      expect(await log.read('renewed', 'acknowledged', 10)).toMatchObject({
        after: 1,
        lastSequence: 1,
      })
      expect((await log.read('appended', 0, 10)).events.map((e) => e.event)).toEqual(['a1', 'a2'])
    }))

  it('wakes a watcher once, without polling, when a watched subscription gets an event', () =>
    withLog(undefined, async ({ log }) => {
      await claimed(log, 's', 'other')
      const recording = await RecordingWatcher.open(log)
      try {
        recording.watcher.watch('s', 0)
        expect(await recording.quiet()).toEqual([])
        await log.append('other', 'o', TTL_MS)
        await log.append('s', 'e1', TTL_MS)
        expect(await recording.named(1)).toEqual([['s']])
        await log.append('s', 'e2', TTL_MS)
        expect(await recording.quiet()).toEqual([['s']])
      } finally {
        await recording.watcher.close()
      }
    }))

  it('wakes a watcher at once for events already after the position, and not for older ones', () =>
    withLog(undefined, async ({ log }) => {
      await appendEvents(log, 'behind', 1, 3)
      await appendEvents(log, 'caught-up', 1, 3)
      // Claimed after the appends: the watcher learns of those by looking when armed.
      await claimed(log, 'behind', 'caught-up')
      const recording = await RecordingWatcher.open(log)
      try {
        recording.watcher.watch('caught-up', 3)
        recording.watcher.watch('behind', 2)
        expect(await recording.named(1)).toEqual([['behind']])
        await log.append('caught-up', 'e4', TTL_MS)
        expect(await recording.named(2)).toEqual([['behind'], ['caught-up']])
      } finally {
        await recording.watcher.close()
      }
    }))

  it('follows a watched set that changes while it waits: new and re-armed subscriptions, unwatched ones', () =>
    withLog(undefined, async ({ log }) => {
      await claimed(log, 'a', 'b', 'c')
      const recording = await RecordingWatcher.open(log)
      try {
        recording.watcher.watch('a', 0)
        recording.watcher.watch('b', 0)
        await recording.quiet(100)
        recording.watcher.watch('c', 0)
        recording.watcher.unwatch('b')
        await log.append('b', 'b1', TTL_MS)
        await log.append('c', 'c1', TTL_MS)
        expect(await recording.named(1)).toEqual([['c']])
        recording.watcher.watch('c', 1)
        await recording.quiet(100)
        await log.append('c', 'c2', TTL_MS)
        await log.append('a', 'a1', TTL_MS)
        expect((await recording.named(3)).flat().sort()).toEqual(['a', 'c', 'c'])
        expect((await recording.quiet()).flat()).not.toContain('b')
      } finally {
        await recording.watcher.close()
      }
    }))

  it('wakes the watcher of a reader whose log another reader claimed, whatever its position', () =>
    withLog(undefined, async ({ log, other }) => {
      await appendEvents(log, 's', 1, 2)
      await claimed(log, 's')
      const recording = await RecordingWatcher.open(log)
      try {
        recording.watcher.watch('s', 2)
        expect(await recording.quiet(100)).toEqual([])
        // A channel opened for the subscription on another node: this one reads, finds the claim, and ends.
        await (await other()).claim('s', 'node-x/channel/r2', TTL_MS)
        expect(await recording.named(1)).toEqual([['s']])
        // The same reader claiming again wakes nobody.
        recording.watcher.watch('s', 2)
        await log.claim('s', 'node-x/channel/r2', TTL_MS)
        expect(await recording.quiet(100)).toEqual([['s']])
      } finally {
        await recording.watcher.close()
      }
    }))

  it('wakes a reader armed after another reader claimed its log, though the claim told nobody armed', () =>
    withLog(undefined, async ({ log, other }) => {
      await appendEvents(log, 's', 1, 2)
      await claimed(log, 's')
      const recording = await RecordingWatcher.open(log)
      try {
        // Between its last read and its arming, the reader's log is claimed elsewhere; no event follows.
        await (await other()).claim('s', 'node-x/channel/r2', TTL_MS)
        await recording.quiet(100)
        recording.watcher.watch('s', 2, READER)
        expect(await recording.named(1)).toEqual([['s']])
        // Armed as the new reader, or without naming a reader, it waits for an event.
        recording.watcher.watch('s', 2, 'node-x/channel/r2')
        recording.watcher.watch('s', 2)
        expect(await recording.quiet(100)).toEqual([['s']])
      } finally {
        await recording.watcher.close()
      }
    }))

  it('checks logs armed in the turn of their acknowledgement as logs armed alone: events after, a claim elsewhere', () =>
    withLog(undefined, async ({ log, other }) => {
      await appendEvents(log, 'behind', 1, 3)
      await appendEvents(log, 'caught-up', 1, 2)
      await appendEvents(log, 'taken', 1, 2)
      await claimed(log, 'behind', 'caught-up', 'taken')
      await (await other()).claim('taken', 'node-x/channel/r2', TTL_MS)
      const recording = await RecordingWatcher.open(log)
      try {
        // As channels do once their pages are written: each acknowledges its page and arms after it, in one turn.
        const acknowledged = ['behind', 'caught-up', 'taken'].map((id) =>
          log.acknowledge(id, 2, READER),
        )
        for (const id of ['behind', 'caught-up', 'taken']) recording.watcher.watch(id, 2, READER)
        await Promise.all(acknowledged)
        expect((await recording.named(2)).flat().sort()).toEqual(['behind', 'taken'])
        expect((await recording.quiet(100)).flat()).not.toContain('caught-up')
        expect((await log.read('behind', 'acknowledged', 10)).after).toBe(2)
        // The other reader's claim kept its position where it was.
        expect((await log.read('taken', 'acknowledged', 10)).after).toBe(0)
        await log.append('caught-up', 'e3', TTL_MS)
        expect((await recording.named(3)).flat().sort()).toEqual(['behind', 'caught-up', 'taken'])
      } finally {
        await recording.watcher.close()
      }
    }))

  it('does not wake a reader whose claim lapsed with nobody else claiming: it would arm again at once', () =>
    withLog(undefined, async ({ log }) => {
      await appendEvents(log, 's', 1, 2)
      await claimed(log, 's')
      await log.release('s', READER)
      const recording = await RecordingWatcher.open(log)
      try {
        recording.watcher.watch('s', 2, READER)
        expect(await recording.quiet(100)).toEqual([])
        // Claimed again by the same reader, it is woken by the next event.
        await claimed(log, 's')
        await log.append('s', 'e3', TTL_MS)
        expect(await recording.named(1)).toEqual([['s']])
      } finally {
        await recording.watcher.close()
      }
    }))

  it('closing a watcher ends its wake-ups and its connection', () =>
    withLog(undefined, async ({ log, watcherConnections }) => {
      const before = (await watcherConnections?.()) ?? 0
      await claimed(log, 's')
      const recording = await RecordingWatcher.open(log)
      recording.watcher.watch('s', 0)
      if (watcherConnections !== undefined) expect(await watcherConnections()).toBe(before + 1)
      await recording.watcher.close()
      await log.append('s', 'e1', TTL_MS)
      expect(await recording.quiet()).toEqual([])
      if (watcherConnections !== undefined) expect(await watcherConnections()).toBe(before)
    }))
}
