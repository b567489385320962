/** A chunk-channel client over a real socket, as real SDKs read it: split on newlines, one JSON per line. */
import { request } from 'node:http'

export interface ChannelClient {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The next line, parsed; rejects after `timeoutMs` of real time without one. */
  next(timeoutMs?: number): Promise<Record<string, unknown>>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  /** Every raw chunk received, for framing checks. */
  raw: string[]
  /** Closes the connection from the client side. */
  close(): void
}

/** Opens the channel at `url` (POST with an empty body by default, as the SDKs do). */
export function openChannel(url: string, method: 'POST' | 'GET' = 'POST'): Promise<ChannelClient> {
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
      { method, headers: { accept: '*/*', 'content-type': 'application/json' } },
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
        res.on('end', () => endResolve())
        res.on('close', () => endResolve())
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          raw,
          ended,
          next: (timeoutMs = 2000) =>
            new Promise((resolveLine, rejectLine) => {
              const take = (line: string) => {
                clearTimeout(timer)
                try {
                  resolveLine(JSON.parse(line) as Record<string, unknown>)
                } catch (error) {
                  rejectLine(
                    new Error(`not one JSON object per line: ${JSON.stringify(line)} (${error})`),
                  )
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
            }),
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
