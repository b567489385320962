/** The in-memory EventQueue: order, bounded capacity dropping the oldest, the lost count, clear. */
import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../../../test/support/virtual-clock.js'
import type { QueuedEvents } from '../../platform/subscriptions/event-queue.js'
import {
  DEFAULT_QUEUE_CAPACITY,
  DEFAULT_REPLAY_MS,
  DEFAULT_REPLAYABLE_EVENTS,
  MemoryEventQueue,
  QueuedEventsBudget,
} from './memory-event-queue.js'

const events = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, index) => `e${from + index}`)

/** What a drain or a take handed over, the events' texts only (their numbers have tests of their own). */
const texts = ({ events, lost }: QueuedEvents) => ({
  events: events.map(({ event }) => event),
  lost,
})

function filled(queue: MemoryEventQueue, from: number, to: number): MemoryEventQueue {
  for (const event of events(from, to)) queue.push(event)
  return queue
}

describe('MemoryEventQueue', () => {
  it('is empty at first', () => {
    const queue = new MemoryEventQueue()
    expect(queue.size).toBe(0)
    expect(texts(queue.drain())).toEqual({ events: [], lost: 0 })
  })

  it('hands events over oldest first and empties on drain', () => {
    const queue = filled(new MemoryEventQueue(), 1, 3)
    expect(queue.size).toBe(3)
    expect(texts(queue.drain())).toEqual({ events: ['e1', 'e2', 'e3'], lost: 0 })
    expect(queue.size).toBe(0)
    expect(texts(queue.drain())).toEqual({ events: [], lost: 0 })
  })

  it('keeps order across drains', () => {
    const queue = filled(new MemoryEventQueue(), 1, 2)
    expect(texts(queue.drain()).events).toEqual(['e1', 'e2'])
    filled(queue, 3, 4)
    expect(texts(queue.drain()).events).toEqual(['e3', 'e4'])
  })

  it('holds DEFAULT_QUEUE_CAPACITY events by default', () => {
    const queue = filled(new MemoryEventQueue(), 1, DEFAULT_QUEUE_CAPACITY + 1)
    expect(queue.size).toBe(DEFAULT_QUEUE_CAPACITY)
    const drained = queue.drain()
    expect(drained.lost).toBe(1)
    expect(drained.events[0]?.event).toBe('e2')
  })

  it('when full, drops the oldest and counts them', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 3 }), 1, 5)
    expect(queue.size).toBe(3)
    expect(texts(queue.drain())).toEqual({ events: ['e3', 'e4', 'e5'], lost: 2 })
  })

  it('stays correct through its compaction (many more events than its capacity)', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 3 }), 1, 20)
    expect(queue.size).toBe(3)
    expect(texts(queue.drain())).toEqual({ events: ['e18', 'e19', 'e20'], lost: 17 })
  })

  it('resets the lost count on drain', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 2 }), 1, 4)
    expect(queue.drain().lost).toBe(2)
    filled(queue, 5, 6)
    expect(texts(queue.drain())).toEqual({ events: ['e5', 'e6'], lost: 0 })
    filled(queue, 7, 9)
    expect(texts(queue.drain())).toEqual({ events: ['e8', 'e9'], lost: 1 })
  })

  it('hands over an array the queue no longer uses', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 3 }), 1, 2)
    const drained = queue.drain()
    filled(queue, 3, 3)
    expect(texts(drained).events).toEqual(['e1', 'e2'])
  })

  it('clear drops the events and the lost count', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 2 }), 1, 5)
    queue.clear()
    expect(queue.size).toBe(0)
    expect(texts(queue.drain())).toEqual({ events: [], lost: 0 })
    filled(queue, 6, 7)
    expect(texts(queue.drain())).toEqual({ events: ['e6', 'e7'], lost: 0 })
  })

  it('take hands over the oldest events one batch at a time, the lost count with the first', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 3 }), 1, 5)
    expect(texts(queue.take(1))).toEqual({ events: ['e3'], lost: 2 })
    expect(queue.size).toBe(2)
    filled(queue, 6, 6)
    expect(texts(queue.take(2))).toEqual({ events: ['e4', 'e5'], lost: 0 })
    expect(texts(queue.take(5))).toEqual({ events: ['e6'], lost: 0 })
    expect(texts(queue.take(1))).toEqual({ events: [], lost: 0 })
  })

  it('keeps order, capacity and the lost count when taken one at a time and never empty', () => {
    const queue = new MemoryEventQueue({ capacity: 3 })
    const seen: number[] = []
    let lost = 0
    const take = (taken: QueuedEvents) => {
      seen.push(...taken.events.map(({ event }) => Number(event.slice(1))))
      lost += taken.lost
    }
    for (let index = 1; index <= 50; index += 1) {
      queue.push(`e${index}`)
      if (index % 2 === 0) take(queue.take(1))
    }
    expect(queue.size).toBe(2)
    take(queue.drain())
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(seen.at(-1)).toBe(50)
    expect(seen.length + lost).toBe(50)
  })

  it('numbers events 1, 2, 3... and hands the numbers over with them', () => {
    const queue = new MemoryEventQueue()
    expect(queue.lastSequence).toBe(0)
    expect(queue.push('e1')).toBe(1)
    expect(queue.push('e2')).toBe(2)
    expect(queue.drain().events).toEqual([
      { sequence: 1, event: 'e1' },
      { sequence: 2, event: 'e2' },
    ])
    expect(queue.push('e3', true)).toBe(3)
    expect(queue.size).toBe(0)
    expect(queue.lastSequence).toBe(3)
  })

  it('keeps the last taken events for a replay, at most DEFAULT_REPLAYABLE_EVENTS by default', () => {
    const queue = new MemoryEventQueue()
    expect(queue.oldestTaken).toBeUndefined()
    filled(queue, 1, DEFAULT_REPLAYABLE_EVENTS + 5)
    expect(queue.oldestTaken).toBeUndefined()
    queue.drain()
    expect(queue.oldestTaken).toBe(6)
    queue.push('taken at once', true)
    expect(queue.oldestTaken).toBe(7)
  })

  it('pushes an event as taken only when nothing waits before it', () => {
    const queue = filled(new MemoryEventQueue(), 1, 1)
    queue.push('e2', true)
    expect(queue.size).toBe(2)
    expect(queue.oldestTaken).toBeUndefined()
  })

  it('rewinds to the events after the last one a client received: they wait again, none missing', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 10, replayable: 5 }), 1, 6)
    queue.drain()
    filled(queue, 7, 8)
    expect(queue.rewind(4)).toEqual({ missing: 0, missingFrom: 5 })
    expect(texts(queue.drain())).toEqual({ events: ['e5', 'e6', 'e7', 'e8'], lost: 0 })
  })

  it('rewinds past what it still holds: the events no longer held are counted missing, from the first', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 10, replayable: 3 }), 1, 6)
    queue.drain()
    expect(queue.oldestTaken).toBe(4)
    expect(queue.rewind(1)).toEqual({ missing: 2, missingFrom: 2 })
    expect(texts(queue.drain()).events).toEqual(['e4', 'e5', 'e6'])
  })

  it('changes nothing when rewound at or after the last taken event, nor from a number it never gave', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 10, replayable: 5 }), 1, 4)
    queue.take(2)
    expect(queue.rewind(2)).toEqual({ missing: 0, missingFrom: 3 })
    expect(queue.rewind(3)).toEqual({ missing: 0, missingFrom: 4 })
    expect(queue.rewind(99)).toEqual({ missing: 0, missingFrom: 100 })
    expect(texts(queue.drain()).events).toEqual(['e3', 'e4'])
  })

  it('drops taken events before waiting ones when full: a loss only once none is left', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 4, replayable: 4 }), 1, 4)
    queue.drain()
    filled(queue, 5, 7)
    expect(queue.oldestTaken).toBe(4)
    expect(queue.size).toBe(3)
    filled(queue, 8, 9)
    expect(queue.oldestTaken).toBeUndefined()
    expect(texts(queue.drain())).toEqual({ events: ['e6', 'e7', 'e8', 'e9'], lost: 1 })
  })

  it('tells a rewind the waiting events it dropped as missing, and no longer as lost', () => {
    const queue = filled(new MemoryEventQueue({ capacity: 3, replayable: 3 }), 1, 2)
    queue.drain()
    filled(queue, 3, 7)
    expect(queue.rewind(2)).toEqual({ missing: 2, missingFrom: 3 })
    expect(texts(queue.drain())).toEqual({ events: ['e5', 'e6', 'e7'], lost: 0 })
  })

  it('keeps a taken event replayable for DEFAULT_REPLAY_MS only', () => {
    const clock = new VirtualClock()
    const queue = new MemoryEventQueue({ clock })
    filled(queue, 1, 2)
    queue.drain()
    clock.advance(DEFAULT_REPLAY_MS / 2)
    queue.push('e3', true)
    expect(queue.oldestTaken).toBe(1)
    clock.advance(DEFAULT_REPLAY_MS / 2)
    expect(queue.oldestTaken).toBe(3)
    expect(queue.rewind(0)).toEqual({ missing: 2, missingFrom: 1 })
    expect(texts(queue.drain()).events).toEqual(['e3'])
    clock.advance(DEFAULT_REPLAY_MS)
    expect(queue.oldestTaken).toBeUndefined()
    expect(queue.lastSequence).toBe(3)
  })

  it('keeps numbering after clear', () => {
    const queue = filled(new MemoryEventQueue(), 1, 2)
    queue.clear()
    expect(queue.push('e3')).toBe(3)
    expect(queue.drain().events).toEqual([{ sequence: 3, event: 'e3' }])
  })

  it('keeps a node’s queues within their shared budget: the queue that would pass it drops its own oldest', () => {
    const budget = new QueuedEventsBudget(3)
    const first = filled(new MemoryEventQueue({ budget }), 1, 2)
    const second = filled(new MemoryEventQueue({ budget }), 1, 1)
    expect(budget.held).toBe(3)
    second.push('e2')
    expect(budget.held).toBe(3)
    expect(second.drain()).toEqual({
      events: [{ sequence: 2, event: 'e2' }],
      lost: 1,
      reason: 'this node holds the most queued events it may (MAX_QUEUED_EVENTS=3)',
    })
    // Drained, the second keeps its event for a replay: its own next push drops that one first, silently.
    second.push('e3')
    expect(budget.held).toBe(3)
    expect(second.oldestTaken).toBeUndefined()
    expect(texts(second.drain())).toEqual({ events: ['e3'], lost: 0 })
    expect(texts(first.drain())).toEqual({ events: ['e1', 'e2'], lost: 0 })
    first.clear()
    second.clear()
    expect(budget.held).toBe(0)
  })
})
