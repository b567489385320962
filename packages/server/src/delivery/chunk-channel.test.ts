import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import { MemoryEventQueue } from '../storage/memory/memory-event-queue.js'
import { ChunkChannel } from './chunk-channel.js'
import { ChunkFraming } from './chunk-framing.js'

/** A response whose socket accepts writes only while `accepting` is true, like a slow reader's. */
class SlowResponse extends EventEmitter {
  written: string[] = []
  accepting = true
  ended = false
  writeHead(): this {
    return this
  }
  write(chunk: string): boolean {
    this.written.push(chunk)
    return this.accepting
  }
  end(chunk?: string): void {
    if (chunk) this.written.push(chunk)
    this.ended = true
  }
}

function setup(capacity = 3) {
  const response = new SlowResponse()
  const queue = new MemoryEventQueue(capacity)
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
    expect(response.written.slice(2)).toEqual([
      '{"eventName":"OnChannelInformation","text":"3 events lost: the queue was full; resynchronize"}\n{"n":5}\n{"n":6}\n{"n":7}\n',
    ])
    expect(queue.size).toBe(0)
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
