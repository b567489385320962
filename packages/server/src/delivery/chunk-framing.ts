/**
 * How events travel on a chunk channel (wire facts 3): in CHUNK mode one JSON object per line, each
 * ending with `\n`, never a blank line; in CHUNK_MULTIPART mode one multipart/mixed part per event.
 */
import { randomBytes } from 'node:crypto'
import type { NotificationMode } from '@openness/wire'
import type { LoggedEvent } from '../platform/subscriptions/event-queue.js'

/** The line every (re)opened channel starts with; clients wait for it (wire facts 3). */
export const CHUNK_STARTED = JSON.stringify({
  eventName: 'OnChannelInformation',
  text: 'Chunk started',
})
/**
 * The last line of a channel the server ends because it stops (issue 15, "Operations"): the client opens the
 * channel again, on another node behind a balancer, and resumes where its subscription's queue stands.
 */
export const STOPPING = JSON.stringify({
  eventName: 'OnChannelInformation',
  text: 'Server stopping: open the channel again',
})
/** The keepalive message (wire facts 3, channel keepalive). */
export const KEEPALIVE = JSON.stringify({ eventName: 'OnChannelInformation', text: 'keepalive' })

/**
 * The notice that starts a delivery after events were dropped: from a full queue, or (`reason`) given up by a
 * webhook that did not take them, or no longer held for a channel that resumes. With `from`, the first of them,
 * it names their sequence numbers (`firstSequence`, `lastSequence`: extra fields clients ignore).
 */
export function lostNotice(lost: number, reason = 'the queue was full', from?: number): string {
  return JSON.stringify({
    eventName: 'OnChannelInformation',
    text: `${lost} event${lost === 1 ? '' : 's'} lost: ${reason}; resynchronize`,
    ...(from !== undefined && { firstSequence: from, lastSequence: from + lost - 1 }),
  })
}

/** Why events went missing before a channel that resumes from a sequence number (Last-Event-ID). */
export const NO_LONGER_HELD = 'no longer held for a channel that resumes'

/**
 * The notice a channel opens with when the previous one ended abruptly (the client went, or opened the channel
 * again while it was still open) and the client did not say from where to resume: the events written last on
 * the previous channel, still held, may not have reached the client (docs/subscriptions.md, "Resuming a channel").
 */
export function cutNotice(first: number, last: number): string {
  const events = first === last ? `Event ${first}` : `Events ${first} to ${last}`
  return JSON.stringify({
    eventName: 'OnChannelInformation',
    text:
      `${events} may not have reached the previous channel, which ended abruptly: open the channel with ` +
      `Last-Event-ID: ${first - 1} to receive them again, or resynchronize`,
    firstSequence: first,
    lastSequence: last,
  })
}

/**
 * An event as one channel carries it: its JSON object with the subscription's `sequence` number of it as a last
 * member (an extra field clients ignore; wire facts 3 and 6 parse events by name and ignore unknown members).
 */
export function sequenced(json: string, sequence: number): string {
  return `${json.slice(0, -1)},"sequence":${sequence}}`
}

const CRLF = Buffer.from('\r\n', 'latin1')

/**
 * `payload` as one HTTP/1.1 chunk (RFC 9112 §7.1: its size in hex, CRLF, the bytes, CRLF), the bytes
 * node:http writes for `response.write(payload)` on a chunked response, here as one buffer.
 */
export function httpChunk(payload: string | Buffer): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'), bytes, CRLF])
}

/** Frames serialized events for one channel's mode. */
export class ChunkFraming {
  readonly contentType: string
  private readonly boundary: string | undefined

  constructor(readonly mode: NotificationMode) {
    if (mode === 'CHUNK_MULTIPART') {
      this.boundary = `openness-${randomBytes(12).toString('hex')}`
      this.contentType = `multipart/mixed; boundary=${this.boundary}`
    } else {
      this.contentType = 'application/json; charset=utf-8'
    }
  }

  /** One event as it goes on the wire. */
  frame(serialized: string): string {
    if (this.boundary === undefined) return `${serialized}\n`
    return `--${this.boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${serialized}\r\n`
  }

  /** Several numbered events, in order, as one write. */
  frameAll(events: readonly LoggedEvent[]): string {
    let out = ''
    for (const { event, sequence } of events) out += this.frame(sequenced(event, sequence))
    return out
  }

  /** What ends the stream cleanly. */
  closing(): string {
    return this.boundary === undefined ? '' : `--${this.boundary}--\r\n`
  }
}
