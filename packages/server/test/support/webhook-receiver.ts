/** A loopback HTTP server that records the webhook requests it gets and answers what the test says. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the receiver got. */
export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The exact body bytes. */
  body: Buffer
  /** The body parsed as JSON, as an SDK receiver does. */
  json: Record<string, unknown>
}

export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = []
  /** The status answered to each request, in order. */
  readonly answered: number[] = []
  /** The status of the next answers; the test changes it. */
  status = 200
  private waiters: (() => void)[] = []

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts a receiver on 127.0.0.1 at `path`. */
  static async start(path = '/o2g/events'): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined
    const server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = Buffer.concat(chunks)
        let json: Record<string, unknown> = {}
        try {
          json = JSON.parse(body.toString('utf8')) as Record<string, unknown>
        } catch {}
        receiver?.record({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body,
          json,
        })
        const status = receiver?.status ?? 500
        receiver?.answered.push(status)
        response.writeHead(status).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`)
    return receiver
  }

  /** Resolves once `count` requests arrived in all; fails after `timeoutMs` of real time. */
  async received(count: number, timeoutMs = 3000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs
    while (this.requests.length < count) {
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`expected ${count} webhook requests, got ${this.requests.length}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    return this.requests.slice(0, count)
  }

  /** The parsed bodies received so far. */
  get events(): Record<string, unknown>[] {
    return this.requests.map((request) => request.json)
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private record(request: ReceivedRequest): void {
    this.requests.push(request)
    for (const wake of this.waiters.splice(0)) wake()
  }
}
