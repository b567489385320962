/**
 * One open chunk channel: a streamed HTTP response that starts with `Chunk started`, then carries the
 * subscription's queued events as they come, and keepalive messages when asked. A slow reader never
 * grows memory: while the socket is full nothing more is written, and the bounded queue absorbs (and
 * counts) what arrives meanwhile.
 */
import type { ServerResponse } from 'node:http'
import type { Clock, EventQueue, Timer } from '../platform/ports.js'
import { CHUNK_STARTED, type ChunkFraming, KEEPALIVE, lostNotice } from './chunk-framing.js'
import type { SerializedEvent } from './event-router.js'

/** What a channel reports to its subscription. */
export interface ChannelEvents {
  /** Something was written: the subscription is active. */
  onActivity(): void
  /** The channel ended (client gone, replaced, or closed by the server). */
  onClosed(channel: ChunkChannel): void
}

export class ChunkChannel {
  private paused = false
  private closed = false
  private keepaliveTimer: Timer | undefined

  constructor(
    private readonly response: ServerResponse,
    private readonly queue: EventQueue,
    private readonly framing: ChunkFraming,
    private readonly clock: Clock,
    private readonly keepaliveMs: number,
    private readonly events: ChannelEvents,
  ) {}

  /** Sends the headers and `Chunk started`, then what the queue holds. */
  open(): void {
    this.response.on('close', () => this.end(false))
    this.response.writeHead(200, {
      'content-type': this.framing.contentType,
      'cache-control': 'no-cache, no-store',
      'x-accel-buffering': 'no',
    })
    this.write(this.framing.frame(CHUNK_STARTED))
    this.flush()
    this.armKeepalive()
  }

  /**
   * Writes `event` at once when nothing waits before it (the channel is open, its socket not full, its
   * queue empty); false when the caller must queue it instead.
   */
  offer(event: SerializedEvent): boolean {
    if (this.closed || this.paused || this.queue.size > 0) return false
    this.write(this.framing.mode === 'CHUNK' ? event.chunkLine : this.framing.frame(event.json))
    this.events.onActivity()
    return true
  }

  /** Writes what the queue holds, unless the socket is full (then the 'drain' event resumes). */
  flush(): void {
    if (this.closed || this.paused || this.queue.size === 0) return
    const { events, lost } = this.queue.drain()
    const notice = lost > 0 ? this.framing.frame(lostNotice(lost)) : ''
    this.write(notice + this.framing.frameAll(events))
    this.events.onActivity()
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

  private write(chunk: string | Buffer): void {
    if (chunk.length === 0) return
    if (!this.response.write(chunk) && !this.paused) {
      this.paused = true
      this.response.once('drain', () => {
        this.paused = false
        this.flush()
      })
    }
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
