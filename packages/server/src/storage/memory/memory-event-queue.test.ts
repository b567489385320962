/** The in-memory EventQueue: order, bounded capacity dropping the oldest, the lost count, clear. */
import { describe, expect, it } from 'vitest'
import { DEFAULT_QUEUE_CAPACITY, MemoryEventQueue } from './memory-event-queue.js'

const events = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, index) => `e${from + index}`)

function filled(queue: MemoryEventQueue, from: number, to: number): MemoryEventQueue {
  for (const event of events(from, to)) queue.push(event)
  return queue
}

describe('MemoryEventQueue', () => {
  it('is empty at first', () => {
    const queue = new MemoryEventQueue()
    expect(queue.size).toBe(0)
    expect(queue.drain()).toEqual({ events: [], lost: 0 })
  })

  it('hands events over oldest first and empties on drain', () => {
    const queue = filled(new MemoryEventQueue(), 1, 3)
    expect(queue.size).toBe(3)
    expect(queue.drain()).toEqual({ events: ['e1', 'e2', 'e3'], lost: 0 })
    expect(queue.size).toBe(0)
    expect(queue.drain()).toEqual({ events: [], lost: 0 })
  })

  it('keeps order across drains', () => {
    const queue = filled(new MemoryEventQueue(), 1, 2)
    expect(queue.drain().events).toEqual(['e1', 'e2'])
    filled(queue, 3, 4)
    expect(queue.drain().events).toEqual(['e3', 'e4'])
  })

  it('holds DEFAULT_QUEUE_CAPACITY events by default', () => {
    const queue = filled(new MemoryEventQueue(), 1, DEFAULT_QUEUE_CAPACITY + 1)
    expect(queue.size).toBe(DEFAULT_QUEUE_CAPACITY)
    const drained = queue.drain()
    expect(drained.lost).toBe(1)
    expect(drained.events[0]).toBe('e2')
  })

  it('when full, drops the oldest and counts them', () => {
    const queue = filled(new MemoryEventQueue(3), 1, 5)
    expect(queue.size).toBe(3)
    expect(queue.drain()).toEqual({ events: ['e3', 'e4', 'e5'], lost: 2 })
  })

  it('stays correct through its compaction (many more events than its capacity)', () => {
    const queue = filled(new MemoryEventQueue(3), 1, 20)
    expect(queue.size).toBe(3)
    expect(queue.drain()).toEqual({ events: ['e18', 'e19', 'e20'], lost: 17 })
  })

  it('resets the lost count on drain', () => {
    const queue = filled(new MemoryEventQueue(2), 1, 4)
    expect(queue.drain().lost).toBe(2)
    filled(queue, 5, 6)
    expect(queue.drain()).toEqual({ events: ['e5', 'e6'], lost: 0 })
    filled(queue, 7, 9)
    expect(queue.drain()).toEqual({ events: ['e8', 'e9'], lost: 1 })
  })

  it('hands over an array the queue no longer uses', () => {
    const queue = filled(new MemoryEventQueue(3), 1, 2)
    const drained = queue.drain()
    filled(queue, 3, 3)
    expect(drained.events).toEqual(['e1', 'e2'])
  })

  it('clear drops the events and the lost count', () => {
    const queue = filled(new MemoryEventQueue(2), 1, 5)
    queue.clear()
    expect(queue.size).toBe(0)
    expect(queue.drain()).toEqual({ events: [], lost: 0 })
    filled(queue, 6, 7)
    expect(queue.drain()).toEqual({ events: ['e6', 'e7'], lost: 0 })
  })

  it('take hands over the oldest events one batch at a time, the lost count with the first', () => {
    const queue = filled(new MemoryEventQueue(3), 1, 5)
    expect(queue.take(1)).toEqual({ events: ['e3'], lost: 2 })
    expect(queue.size).toBe(2)
    filled(queue, 6, 6)
    expect(queue.take(2)).toEqual({ events: ['e4', 'e5'], lost: 0 })
    expect(queue.take(5)).toEqual({ events: ['e6'], lost: 0 })
    expect(queue.take(1)).toEqual({ events: [], lost: 0 })
  })

  it('keeps order, capacity and the lost count when taken one at a time and never empty', () => {
    const queue = new MemoryEventQueue(3)
    const seen: number[] = []
    let lost = 0
    const take = (taken: { events: string[]; lost: number }) => {
      seen.push(...taken.events.map((event) => Number(event.slice(1))))
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
})
