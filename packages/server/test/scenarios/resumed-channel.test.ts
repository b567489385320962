/**
 * Resuming a chunk channel (issue 15, finding 9; docs/subscriptions.md, "Resuming a channel"), over real
 * sockets: every event carries its subscription's sequence number; a channel opened with `Last-Event-ID` (or
 * `lastEventId`) starts after that number; one opened without, after an abrupt end of the previous one, starts
 * by naming what may not have reached the client. Under load, with channels cut at random, no event goes
 * missing without a notice naming it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import { openSession } from '../support/test-service.js'

let loopback: LoopbackService

beforeEach(async () => {
  loopback = await LoopbackService.start()
})
afterEach(() => loopback.close())

/** A user subscription of alice's, with its polling URL. */
async function subscribe(): Promise<string> {
  const cookie = await openSession(loopback.service.app, 'alice')
  const response = await fetch(`${loopback.origin}/api/rest/1.0/subscriptions`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ filter: { selectors: [{ names: ['user'] }] }, version: '1.0' }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { privatePollingUrl: string }).privatePollingUrl
}

async function channel(url: string, headers: Record<string, string> = {}): Promise<ChannelClient> {
  const client = loopback.track(await openChannel(url, 'POST', headers))
  expect(client.status).toBe(200)
  expect(await client.next()).toEqual({ eventName: 'OnChannelInformation', text: 'Chunk started' })
  return client
}

/** Publishes alice's `n`th event, as the platform does: through the router, once for every subscription. */
const publish = (n: number) =>
  loopback.service.running.events.publish({
    eventName: 'OnUserInfoChanged',
    loginName: 'alice',
    n,
  } as unknown as PlatformEvent)

const settle = () => new Promise((resolve) => setTimeout(resolve, 30))

describe('numbered events', () => {
  it('carry their subscription’s own sequence number, 1, 2, 3...', async () => {
    const first = await channel(await subscribe())
    const second = await channel(await subscribe())
    publish(1)
    expect(await first.nextNumbered()).toEqual({
      eventName: 'OnUserInfoChanged',
      loginName: 'alice',
      n: 1,
      sequence: 1,
    })
    publish(2)
    expect(await first.nextNumbered()).toMatchObject({ n: 2, sequence: 2 })
    expect(await second.nextNumbered()).toMatchObject({ n: 1, sequence: 1 })
    expect(await second.nextNumbered()).toMatchObject({ n: 2, sequence: 2 })
  })
})

describe('a channel opened from a sequence number', () => {
  it('with Last-Event-ID, starts with the events after it, then goes on', async () => {
    const url = await subscribe()
    const first = await channel(url)
    for (let n = 1; n <= 4; n++) publish(n)
    for (let n = 1; n <= 4; n++) expect(await first.nextNumbered()).toMatchObject({ sequence: n })
    first.close()
    await first.ended
    await settle()
    const resumed = await channel(url, { 'last-event-id': '2' })
    expect(await resumed.nextNumbered()).toMatchObject({ n: 3, sequence: 3 })
    expect(await resumed.nextNumbered()).toMatchObject({ n: 4, sequence: 4 })
    publish(5)
    expect(await resumed.nextNumbered()).toMatchObject({ n: 5, sequence: 5 })
  })

  it('with the lastEventId query parameter, which wins over the header', async () => {
    const url = await subscribe()
    const first = await channel(url)
    for (let n = 1; n <= 3; n++) publish(n)
    for (let n = 1; n <= 3; n++) await first.nextNumbered()
    const resumed = await channel(`${url}?lastEventId=1`, { 'last-event-id': '3' })
    expect(await resumed.nextNumbered()).toMatchObject({ sequence: 2 })
    expect(await resumed.nextNumbered()).toMatchObject({ sequence: 3 })
  })

  it('refuses a value that is not a sequence number with a RestErrorInfo 400, and changes nothing', async () => {
    const url = await subscribe()
    publish(1)
    for (const [query, headers] of [
      ['?lastEventId=abc', {}],
      ['?lastEventId=-1', {}],
      ['', { 'last-event-id': '1.5' }],
      ['', { 'last-event-id': '9'.repeat(20) }],
    ] as const) {
      const response = await fetch(`${url}${query}`, { method: 'POST', headers })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({
        httpStatus: 'BAD_REQUEST',
        type: 'BAD_PARAMETER',
        helpMessage: expect.stringMatching(/^(lastEventId|Last-Event-ID): the sequence number/),
      })
    }
    const opened = await channel(url)
    expect(await opened.nextNumbered()).toMatchObject({ n: 1, sequence: 1 })
  })
})

describe('a channel opened after an abrupt end of the previous one', () => {
  it('starts by naming the events the previous one wrote, then what waited', async () => {
    const url = await subscribe()
    const first = await channel(url)
    publish(1)
    publish(2)
    await first.nextNumbered()
    await first.nextNumbered()
    first.close()
    await first.ended
    await settle()
    publish(3)
    const second = await channel(url)
    expect(await second.nextNumbered()).toEqual({
      eventName: 'OnChannelInformation',
      text: 'Events 1 to 2 may not have reached the previous channel, which ended abruptly: open the channel with Last-Event-ID: 0 to receive them again, or resynchronize',
      firstSequence: 1,
      lastSequence: 2,
    })
    expect(await second.nextNumbered()).toMatchObject({ n: 3, sequence: 3 })
  })
})

/** What a client that reads a channel and cuts it at random times saw of the events. */
class CuttingReader {
  readonly received = new Set<number>()
  /** The ranges notices said may be lost or may not have arrived. */
  readonly noticed: [number, number][] = []
  duplicates = 0
  last = 0

  take(line: Record<string, unknown>): void {
    if (line['eventName'] === 'OnChannelInformation') {
      const { firstSequence, lastSequence } = line
      if (typeof firstSequence === 'number' && typeof lastSequence === 'number')
        this.noticed.push([firstSequence, lastSequence])
      return
    }
    const sequence = line['sequence'] as number
    if (this.received.has(sequence)) this.duplicates += 1
    this.received.add(sequence)
    this.last = Math.max(this.last, sequence)
  }

  /** The numbers up to `through` neither received nor named by a notice. */
  missingWithoutNotice(through: number): number[] {
    const missing: number[] = []
    for (let sequence = 1; sequence <= through; sequence++) {
      if (this.received.has(sequence)) continue
      if (this.noticed.some(([first, last]) => sequence >= first && sequence <= last)) continue
      missing.push(sequence)
    }
    return missing
  }
}

/**
 * Publishes `total` events in bursts while a reader cuts its channel after a random count of lines (the socket
 * destroyed with whatever was in flight) and opens it again at once, `resume` saying from where.
 */
async function cutUnderLoad(total: number, cuts: number, resume: boolean): Promise<CuttingReader> {
  const url = await subscribe()
  const reader = new CuttingReader()
  let published = 0
  const producing = (async () => {
    while (published < total) {
      for (let burst = 0; burst < 20 && published < total; burst++) publish(++published)
      await new Promise((resolve) => setImmediate(resolve))
    }
  })()
  for (let cut = 0; cut <= cuts; cut++) {
    const headers: Record<string, string> = resume ? { 'last-event-id': String(reader.last) } : {}
    const client = await channel(url, headers)
    const reads = cut === cuts ? Number.POSITIVE_INFINITY : 1 + Math.floor(Math.random() * 150)
    for (let read = 0; read < reads; read++) {
      if (cut === cuts && published === total && reader.last === total) break
      reader.take(await client.nextNumbered(5_000))
    }
    client.close()
  }
  await producing
  return reader
}

describe('channels cut under load', () => {
  it('without Last-Event-ID: no event missing without a notice naming it', async () => {
    const reader = await cutUnderLoad(6_000, 30, false)
    expect(reader.missingWithoutNotice(6_000)).toEqual([])
    expect(reader.received.size).toBeGreaterThan(0)
  })

  it('with Last-Event-ID: every event received once, none missing', async () => {
    const reader = await cutUnderLoad(6_000, 30, true)
    expect(reader.missingWithoutNotice(6_000)).toEqual([])
    expect(reader.noticed).toEqual([])
    expect(reader.duplicates).toBe(0)
    expect(reader.received.size).toBe(6_000)
  })
})
