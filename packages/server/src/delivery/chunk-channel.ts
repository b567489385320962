/**
 * One open chunk channel: a streamed HTTP response that starts with `Chunk started`, then carries the
 * subscription's queued events as they come, and keepalive messages when asked. A slow reader never
 * grows memory: while the socket is full nothing more is written, and the bounded queue absorbs (and
 * counts) what arrives meanwhile.
 */
import type { ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { Clock, Timer } from '../platform/events.js'
import type { EventQueue } from '../platform/subscriptions/event-queue.js'
import {
  CHUNK_STARTED,
  type ChunkFraming,
  httpChunk,
  KEEPALIVE,
  lostNotice,
  STOPPING,
  sequenced,
} from './chunk-framing.js'
import { DeliveryCounts } from './delivery-counts.js'
import type { SerializedEvent } from './event-router.js'

/** What a channel needs of its subscription's queue: an EventQueue, or a page of the shared event log. */
export type ChannelQueue = Pick<EventQueue, 'push' | 'drain' | 'size'>

/** The sequence numbers of the first and the last event a channel wrote. */
export interface WrittenRange {
  first: number
  last: number
}

/** What a channel reports to its subscription. */
export interface ChannelEvents {
  /** Something was written: the subscription is active. */
  onActivity(): void
  /** The channel ended (client gone, replaced, or closed by the server). */
  onClosed(channel: ChunkChannel): void
  /**
   * The socket took what was waiting after it was full ('drain'), and the queue was flushed: a reader of the
   * shared event log, which acknowledges only what its channel wrote, goes on from here.
   */
  onDrain?(): void
}

/**
 * The socket of a chunked HTTP/1.1 `response` whose headers are on it: the channel then writes its
 * events there as HTTP chunks, each numbered from the event's shared text (SerializedEvent.sequencedChunk). node:http's
 * `response.write` corks the socket, formats the chunk size and uncorks it on the next tick, for every
 * write on every channel: most of the JavaScript time of a fan-out to 10,000 channels. Ending still goes
 * through the response, which writes the last chunk. Anything else (HTTP/1.0, an injected request, a
 * response not yet on its socket) keeps `response.write`.
 */
function ownSocket(response: ServerResponse): Socket | undefined {
  const { socket } = response
  if (!response.chunkedEncoding || !response.headersSent || !(socket instanceof Socket)) return
  return socket
}

export class ChunkChannel {
  private paused = false
  private closed = false
  /** True once the client went before the server ended the channel. */
  private cut = false
  private written: WrittenRange | undefined
  private keepaliveTimer: Timer | undefined
  /** Where the body goes once open, when the channel frames its HTTP chunks itself (`ownSocket`). */
  private socket: Socket | undefined

  constructor(
    private readonly response: ServerResponse,
    private readonly queue: ChannelQueue,
    private readonly framing: ChunkFraming,
    private readonly clock: Clock,
    private readonly keepaliveMs: number,
    private readonly events: ChannelEvents,
    /** Where the events written and announced lost are counted (the node's; one of its own otherwise). */
    private readonly counts: DeliveryCounts = new DeliveryCounts(),
  ) {}

  /**
   * Sends the headers and `Chunk started`, then the `notices` (a resumed channel's loss, or the previous
   * channel's abrupt end), then what the queue holds.
   */
  open(notices: readonly string[] = []): void {
    this.response.on('close', () => {
      if (!this.closed) this.cut = true
      this.end(false)
    })
    this.response.writeHead(200, {
      'content-type': this.framing.contentType,
      'cache-control': 'no-cache, no-store',
      'x-accel-buffering': 'no',
    })
    this.write(this.framing.frame(CHUNK_STARTED))
    for (const notice of notices) this.write(this.framing.frame(notice))
    this.socket = ownSocket(this.response)
    this.flush()
    this.armKeepalive()
  }

  /**
   * Writes `event` at once when nothing waits before it (the channel is open, its socket not full, its
   * queue empty), numbered by the queue as taken; false when the caller must queue it instead.
   */
  offer(event: SerializedEvent): boolean {
    if (this.closed || this.paused || this.queue.size > 0) return false
    const sequence = this.queue.push(event.json, true)
    if (this.framing.mode !== 'CHUNK')
      this.write(this.framing.frame(sequenced(event.json, sequence)))
    else if (this.socket === undefined) this.write(`${sequenced(event.json, sequence)}\n`)
    else this.afterWrite(this.socket.write(event.sequencedChunk(sequence)))
    this.wrote(sequence, sequence)
    this.counts.channelDelivered += 1
    this.events.onActivity()
    return true
  }

  /** Writes what the queue holds, unless the socket is full (then the 'drain' event resumes). */
  flush(): void {
    if (this.closed || this.paused || this.queue.size === 0) return
    const { events, lost, reason } = this.queue.drain()
    const first = events[0]?.sequence
    const notice =
      lost > 0
        ? this.framing.frame(lostNotice(lost, reason, first === undefined ? first : first - lost))
        : ''
    this.write(notice + this.framing.frameAll(events))
    if (first !== undefined) this.wrote(first, events.at(-1)?.sequence ?? first)
    this.counts.channelDelivered += events.length
    this.counts.channelLost += lost
    this.events.onActivity()
  }

  /** The first and last events written, once one was. */
  get writtenRange(): WrittenRange | undefined {
    return this.written
  }

  /** True when the client went (its connection closed) before the server ended the channel. */
  get wasCut(): boolean {
    return this.cut
  }

  /** Writes an OnChannelInformation `notice` (serialized) while open, whatever waits in the queue. */
  inform(notice: string): void {
    if (this.closed) return
    this.write(this.framing.frame(notice))
  }

  /** Ends the channel because the server stops: its last line says so (STOPPING), then the closing frame. */
  stop(): void {
    if (this.closed) return
    this.write(this.framing.frame(STOPPING))
    this.end()
  }

  /** Ends the channel; `byServer` ends the HTTP response too. */
  end(byServer = true): void {
    if (this.closed) return
    this.closed = true
    this.keepaliveTimer?.cancel()
    if (byServer) this.response.end(this.framing.closing())
    this.events.onClosed(this)
  }

  get isOpen(): boolean {
    return !this.closed
  }

  /** True while the socket is full: nothing is written until it drains. */
  get isPaused(): boolean {
    return this.paused
  }

  private wrote(first: number, last: number): void {
    if (this.written === undefined) this.written = { first, last }
    else this.written.last = last
  }

  private write(chunk: string | Buffer): void {
    if (chunk.length === 0) return
    this.afterWrite(
      this.socket === undefined ? this.response.write(chunk) : this.socket.write(httpChunk(chunk)),
    )
  }

  /** Pauses the channel until 'drain' when the write just made was not `accepted` (socket full). */
  private afterWrite(accepted: boolean): void {
    if (accepted || this.paused) return
    this.paused = true
    const full = this.socket ?? this.response
    full.once('drain', () => {
      this.paused = false
      this.flush()
      this.events.onDrain?.()
    })
  }

  private armKeepalive(): void {
    if (this.keepaliveMs <= 0) return
    this.keepaliveTimer = this.clock.setTimer(this.keepaliveMs, () => {
      if (this.closed) return
      if (!this.paused) {
        this.write(this.framing.frame(KEEPALIVE))
        this.events.onActivity()
      }
      this.armKeepalive()
    })
  }
}
