/**
 * The journal's live stream (docs/journal.md, "Following"): `GET /control/v1/journal/stream` over a real
 * listener: NDJSON, entries as they are recorded, filters applied, the held entries after an id first,
 * heartbeats, the end when the client goes away; bad filters and a journal off answered before any line.
 */
import { get as httpGet, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH } from './control-fixture.js'
import { API, type JournalService, startJournalService } from './journal-fixture.js'

let test: JournalService
let base: string
beforeEach(async () => {
  test = await startJournalService({}, ['alice', 'bob'], 50)
  await test.control.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(test.control.server.address() as AddressInfo).port}/control/v1`
})
afterEach(() => test.close())

/** A GET of the stream on a connection of its own (node:http, no agent: nothing left open after it). */
function get(query: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      `${base}/journal/stream${query}`,
      { headers: AUTH, agent: false },
      resolve,
    )
    request.on('error', reject)
  })
}

/** An open stream: its lines as they come, read until `count` entries are there. */
async function open(query = '') {
  const response = await get(query)
  const lines: Record<string, unknown>[] = []
  let buffered = ''
  response.setEncoding('utf8').on('data', (text: string) => {
    buffered += text
    let newline = buffered.indexOf('\n')
    while (newline >= 0) {
      lines.push(JSON.parse(buffered.slice(0, newline)))
      buffered = buffered.slice(newline + 1)
      newline = buffered.indexOf('\n')
    }
  })
  const entries = () => lines.filter((line) => line['kind'] !== 'heartbeat')
  return {
    response,
    lines,
    entries,
    async until(count: number) {
      for (let waited = 0; entries().length < count; waited += 10) {
        if (waited > 5_000) throw new Error(`${entries().length} entries of ${count}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      return entries()
    },
    async close() {
      const closed = new Promise((resolve) => response.socket.once('close', resolve))
      response.destroy()
      await closed
    },
  }
}

describe('GET /journal/stream', () => {
  it('streams NDJSON: each entry once recorded, one a line', async () => {
    const stream = await open()
    expect(stream.response.statusCode).toBe(200)
    expect(stream.response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8')

    await test.api('alice', 'GET', `${API}/sessions`)
    await test.operator('POST', '/clock/advance', { seconds: 1 })
    const entries = await stream.until(2)
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'request', operation: 'getSessionInfo', status: 200 }),
      expect.objectContaining({ kind: 'control', operation: 'postClockAdvance', status: 200 }),
    ])
    await stream.close()
  })

  it('applies its filters: only the events of bob here', async () => {
    const subscription = await test.subscribe('bob')
    const stream = await open('?kind=event&user=bob')
    await test.call()
    await test.api('alice', 'GET', `${API}/sessions`)
    const entries = await stream.until(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const entry of stream.entries())
      expect(entry).toMatchObject({ kind: 'event', user: 'bob', subscription })
    expect(entries[0]).toMatchObject({ event: 'OnCallCreated' })
    await stream.close()
  })

  it('with after: the entries held after that id first, then live ones', async () => {
    await test.api('alice', 'GET', `${API}/sessions`)
    await test.api('bob', 'GET', `${API}/sessions`)
    const [, bobs] = await test.entries('order=oldest&operation=getSessionInfo')
    const earlier = (await test.entries('order=oldest&limit=1000')).filter(
      (entry) => entry.id < (bobs?.id ?? 0),
    )
    const stream = await open(`?after=${earlier.at(-1)?.id}`)
    expect((await stream.until(1))[0]).toMatchObject({ id: bobs?.id, user: 'bob' })
    await test.operator('DELETE', '/faults')
    expect((await stream.until(2))[1]).toMatchObject({ kind: 'control', operation: 'deleteFaults' })
    await stream.close()
  })

  it('writes heartbeats while nothing happens', async () => {
    const stream = await open()
    for (let waited = 0; stream.lines.length < 2 && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
    expect(stream.lines.slice(0, 2)).toEqual([
      { kind: 'heartbeat', at: expect.any(String) },
      { kind: 'heartbeat', at: expect.any(String) },
    ])
    await stream.close()
  })

  it('ends when the client goes away: entries recorded later reach no one', async () => {
    const stream = await open('?kind=request')
    await test.api('alice', 'GET', `${API}/sessions`)
    await stream.until(1)
    await stream.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    await test.api('alice', 'GET', `${API}/sessions`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(stream.entries()).toHaveLength(1)
    const connections = await new Promise<number>((resolve, reject) =>
      test.control.server.getConnections((error, count) =>
        error ? reject(error) : resolve(count),
      ),
    )
    expect(connections).toBe(0)
  })

  it('refuses bad filters before any line: 400 naming the field', async () => {
    const response = await test.operator('GET', '/journal/stream?limit=5')
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({
      type: 'BAD_PARAMETER',
      helpMessage: expect.stringMatching(/^limit: not a known field/),
    })
  })

  it('ends the streams still open when the control plane closes', async () => {
    const stream = await open()
    const ended = new Promise((resolve) => stream.response.once('end', resolve))
    await test.control.close()
    await ended
    expect(stream.response.complete).toBe(true)
  })
})
