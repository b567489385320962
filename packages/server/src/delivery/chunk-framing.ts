/**
 * How events travel on a chunk channel (wire facts 3): in CHUNK mode one JSON object per line, each
 * ending with `\n`, never a blank line; in CHUNK_MULTIPART mode one multipart/mixed part per event.
 */
import { randomBytes } from 'node:crypto'
import type { NotificationMode } from '@openness/wire'

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
 * The notice that starts a delivery after events were dropped: from a full queue, or (`reason`) given
 * up by a webhook that did not take them.
 */
export function lostNotice(lost: number, reason = 'the queue was full'): string {
  return JSON.stringify({
    eventName: 'OnChannelInformation',
    text: `${lost} event${lost === 1 ? '' : 's'} lost: ${reason}; resynchronize`,
  })
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

  /** Several events, in order, as one write. */
  frameAll(serialized: readonly string[]): string {
    let out = ''
    for (const event of serialized) out += this.frame(event)
    return out
  }

  /** What ends the stream cleanly. */
  closing(): string {
    return this.boundary === undefined ? '' : `--${this.boundary}--\r\n`
  }
}
