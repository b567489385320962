/**
 * A chunk-channel client over a real socket, as real SDKs read it: split on newlines, one JSON per line. It also
 * holds every channel of the suites to the numbering of events (docs/subscriptions.md, "Resuming a channel"):
 * each event carries a `sequence`, one more than the event before it on the channel, or than the last one a loss
 * notice named.
 */
import { request } from 'node:http'

export interface ChannelClient {
  status: number
  headers: Record<string, string | string[] | undefined>
  /**
   * The next line, parsed, its `sequence` checked and left out (the suites compare events as the specification
   * shows them); rejects after `timeoutMs` of real time without one.
   */
  next(timeoutMs?: number): Promise<Record<string, unknown>>
  /** The next line, parsed and checked, with its `sequence`. */
  nextNumbered(timeoutMs?: number): Promise<Record<string, unknown>>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  /** Every raw chunk received, for framing checks. */
  raw: string[]
  /** Closes the connection from the client side. */
  close(): void
}

/** Opens the channel at `url` (POST with an empty body by default, as the SDKs do), with `headers` added. */
export function openChannel(
  url: string,
  method: 'POST' | 'GET' = 'POST',
  headers: Record<string, string> = {},
): Promise<ChannelClient> {
  return new Promise((resolve, reject) => {
    const lines: string[] = []
    const waiting: ((line: string) => void)[] = []
    let buffer = ''
    let endResolve: () => void = () => {}
    const ended = new Promise<void>((done) => {
      endResolve = done
    })
    const raw: string[] = []
    const req = request(
      url,
      { method, headers: { accept: '*/*', 'content-type': 'application/json', ...headers } },
      (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          raw.push(chunk)
          buffer += chunk
          let newline = buffer.indexOf('\n')
          while (newline !== -1) {
            const line = buffer.slice(0, newline)
            buffer = buffer.slice(newline + 1)
            const waiter = waiting.shift()
            if (waiter) waiter(line)
            else lines.push(line)
            newline = buffer.indexOf('\n')
          }
        })
        /** The sequence number the next event must carry, once one was read. */
        let expected: number | undefined
        const numbered = (line: Record<string, unknown>): Record<string, unknown> => {
          const { eventName, sequence, lastSequence, text } = line
          if (eventName === 'OnChannelInformation') {
            if (typeof lastSequence === 'number' && String(text).includes(' lost: '))
              expected = lastSequence + 1
            return line
          }
          if (typeof sequence !== 'number' || (expected !== undefined && sequence !== expected))
            throw new Error(
              `event ${JSON.stringify(line)}: sequence ${expected ?? 'a number'} expected on this channel`,
            )
          expected = sequence + 1
          return line
        }
        const nextNumbered = (timeoutMs = 2000) =>
          new Promise<Record<string, unknown>>((resolveLine, rejectLine) => {
            const take = (line: string) => {
              clearTimeout(timer)
              let parsed: Record<string, unknown>
              try {
                parsed = JSON.parse(line) as Record<string, unknown>
              } catch (error) {
                rejectLine(
                  new Error(`not one JSON object per line: ${JSON.stringify(line)} (${error})`),
                )
                return
              }
              try {
                resolveLine(numbered(parsed))
              } catch (error) {
                rejectLine(error)
              }
            }
            const timer = setTimeout(() => {
              const index = waiting.indexOf(take)
              if (index !== -1) waiting.splice(index, 1)
              rejectLine(new Error('no line arrived'))
            }, timeoutMs)
            const line = lines.shift()
            if (line !== undefined) take(line)
            else waiting.push(take)
          })
        res.on('end', () => endResolve())
        res.on('close', () => endResolve())
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          raw,
          ended,
          nextNumbered,
          next: async (timeoutMs?: number) => {
            const { sequence: _, ...line } = await nextNumbered(timeoutMs)
            return line
          },
          close: () => {
            req.destroy()
            res.destroy()
          },
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}
