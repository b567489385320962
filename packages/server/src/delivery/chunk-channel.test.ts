import { once } from 'node:events'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { SlowResponse } from '../../test/support/slow-response.js'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import { MemoryEventQueue } from '../storage/memory/memory-event-queue.js'
import { ChunkChannel } from './chunk-channel.js'
import { ChunkFraming } from './chunk-framing.js'
import { SerializedEvent } from './event-router.js'

const CHUNK_STARTED_LINE = '{"eventName":"OnChannelInformation","text":"Chunk started"}'

function setup(capacity = 3) {
  const response = new SlowResponse()
  const queue = new MemoryEventQueue({ capacity })
  let activity = 0
  const channel = new ChunkChannel(
    response as unknown as ServerResponse,
    queue,
    new ChunkFraming('CHUNK'),
    new VirtualClock(),
    0,
    { onActivity: () => activity++, onClosed: () => {} },
  )
  const deliver = (event: string) => {
    queue.push(event)
    channel.flush()
  }
  return { response, queue, channel, deliver, activity: () => activity }
}

describe('ChunkChannel backpressure', () => {
  it('stops writing while the socket is full and resumes on drain, from the bounded queue', () => {
    const { response, queue, channel, deliver } = setup(3)
    channel.open()
    expect(response.written).toEqual([
      '{"eventName":"OnChannelInformation","text":"Chunk started"}\n',
    ])
    response.accepting = false
    deliver('{"n":1}')
    expect(response.written).toHaveLength(2)
    for (let n = 2; n <= 7; n++) deliver(`{"n":${n}}`)
    expect(response.written).toHaveLength(2)
    expect(queue.size).toBe(3)
    response.accepting = true
    response.emit('drain')
    expect(response.written[1]).toBe('{"n":1,"sequence":1}\n')
    expect(response.written.slice(2)).toEqual([
      '{"eventName":"OnChannelInformation","text":"3 events lost: the queue was full; resynchronize","firstSequence":2,"lastSequence":4}\n' +
        '{"n":5,"sequence":5}\n{"n":6,"sequence":6}\n{"n":7,"sequence":7}\n',
    ])
    expect(queue.size).toBe(0)
  })

  it('tells onDrain once the socket took what waited, after writing the queue, and says when it is paused', () => {
    const response = new SlowResponse()
    const queue = new MemoryEventQueue({ capacity: 10 })
    const drains: number[] = []
    const channel = new ChunkChannel(
      response as unknown as ServerResponse,
      queue,
      new ChunkFraming('CHUNK'),
      new VirtualClock(),
      0,
      { onActivity: () => {}, onClosed: () => {}, onDrain: () => drains.push(queue.size) },
    )
    channel.open()
    response.accepting = false
    queue.push('{"n":1}')
    channel.flush()
    expect(channel.isPaused).toBe(true)
    queue.push('{"n":2}')
    channel.flush()
    response.accepting = true
    response.emit('drain')
    expect(channel.isPaused).toBe(false)
    expect(drains).toEqual([0])
    expect(response.written.slice(1)).toEqual(['{"n":1,"sequence":1}\n', '{"n":2,"sequence":2}\n'])
  })

  it('ends the response when closed by the server, once', () => {
    const { response, channel } = setup()
    channel.open()
    channel.end()
    channel.end()
    expect(response.ended).toBe(true)
    expect(channel.isOpen).toBe(false)
  })

  it('stops when the client goes away', () => {
    const { response, channel, deliver } = setup()
    channel.open()
    response.emit('close')
    deliver('{"n":1}')
    expect(response.written).toHaveLength(1)
    expect(response.ended).toBe(false)
  })
})

/** A channel on a real node:http response, read by a raw socket that keeps every byte it receives. */
async function realChannel(capacity = 3) {
  const queue = new MemoryEventQueue({ capacity })
  let responseWrites = 0
  let open: (channel: ChunkChannel) => void = () => {}
  const opened = new Promise<ChunkChannel>((resolve) => {
    open = resolve
  })
  const listening = createServer((request, response) => {
    request.resume()
    const channel = new ChunkChannel(
      response,
      queue,
      new ChunkFraming('CHUNK'),
      new VirtualClock(),
      0,
      { onActivity: () => {}, onClosed: () => {} },
    )
    channel.open()
    const write = response.write.bind(response) as (chunk: string | Buffer) => boolean
    response.write = ((chunk: string | Buffer) => {
      responseWrites++
      return write(chunk)
    }) as typeof response.write
    open(channel)
  })
  server = listening
  listening.listen(0, '127.0.0.1')
  await once(listening, 'listening')
  const { port } = listening.address() as { port: number }
  const client = connect(port, '127.0.0.1')
  client.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
  const received: Buffer[] = []
  client.on('data', (bytes: Buffer) => received.push(bytes))
  const channel = await opened
  /** What the Outlet does with an event: offer it, else queue it and flush. */
  const deliver = (json: string) => {
    if (channel.offer(new SerializedEvent(json))) return
    queue.push(json)
    channel.flush()
  }
  const body = () => {
    const all = Buffer.concat(received).toString('utf8')
    return all.slice(all.indexOf('\r\n\r\n') + 4)
  }
  return { channel, client, queue, deliver, body, responseWrites: () => responseWrites }
}

/** `line` and its newline as the HTTP/1.1 chunk node:http writes for it. */
const chunk = (line: string) => `${(Buffer.byteLength(line) + 1).toString(16)}\r\n${line}\n\r\n`

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

describe('ChunkChannel on a socket', () => {
  it('writes each event to the socket as the HTTP chunk node:http would, and ends the response', async () => {
    const { channel, client, deliver, body, responseWrites } = await realChannel()
    const events = ['{"n":1}', '{"n":2,"text":"été"}']
    for (const event of events) deliver(event)
    channel.end()
    await once(client, 'end')
    // Each numbered (its size in bytes, with the two-byte é), written straight to the socket.
    const numbered = ['{"n":1,"sequence":1}', '{"n":2,"text":"été","sequence":2}']
    expect(body()).toBe(`${[CHUNK_STARTED_LINE, ...numbered].map(chunk).join('')}0\r\n\r\n`)
    expect(responseWrites()).toBe(0)
  })

  it('stops writing while the socket is full and resumes on drain, from the bounded queue', async () => {
    const { channel, client, queue, deliver, body } = await realChannel(3)
    client.pause()
    const padding = 'x'.repeat(64 * 1024)
    let n = 0
    while (queue.size === 0 && n < 2_000) deliver(`{"n":${++n},"padding":"${padding}"}`)
    expect(queue.size).toBe(1)
    for (let more = 0; more < 4; more++) deliver(`{"n":${++n}}`)
    expect(queue.size).toBe(3)
    client.resume()
    await until(() => queue.size === 0)
    channel.end()
    await once(client, 'end')
    const lines = body()
      .split('\r\n')
      .filter((_, index) => index % 2 === 1)
      .join('')
      .split('\n')
    expect(lines.slice(-5)).toEqual([
      `{"eventName":"OnChannelInformation","text":"2 events lost: the queue was full; resynchronize","firstSequence":${n - 4},"lastSequence":${n - 3}}`,
      `{"n":${n - 2},"sequence":${n - 2}}`,
      `{"n":${n - 1},"sequence":${n - 1}}`,
      `{"n":${n},"sequence":${n}}`,
      '',
    ])
  })
})
