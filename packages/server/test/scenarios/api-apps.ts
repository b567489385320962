/**
 * Applications over real sockets for the scenarios of the feature services: the service on a loopback
 * listener, and users each with a session, a subscription to the packages a scenario names, and its open
 * event channel past `Chunk started`.
 */
import { expect } from 'vitest'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import { openSession, type TestService } from '../support/test-service.js'

const V1 = '/api/rest/1.0'
export const LINE_TIMEOUT_MS = 1_000

/** A user's application: its session, its channel, and its requests under `/api/rest/1.0`. */
export interface App {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>
  channel: ChannelClient
  /** The next event of that name on the channel, skipping others. */
  next(eventName: string): Promise<Record<string, unknown>>
}

/** The service with its listener, and the applications logged in on it. */
export class ApiWorld {
  private constructor(private readonly loopback: LoopbackService) {}

  static async start(): Promise<ApiWorld> {
    return new ApiWorld(await LoopbackService.start())
  }

  get service(): TestService {
    return this.loopback.service
  }

  /** `http://127.0.0.1:<port>`. */
  get base(): string {
    return this.loopback.origin
  }

  /** `loginName` logged in, subscribed to `packages` (one selector each), its channel open. */
  async app(loginName: string, packages: readonly string[]): Promise<App> {
    const cookie = await openSession(this.service.app, loginName)
    const call: App['call'] = async (method, path, body) => {
      const response = await fetch(`${this.base}${V1}${path}`, {
        method,
        headers: { cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
    }
    const subscribed = await call('POST', '/subscriptions', {
      filter: { selectors: packages.map((name) => ({ names: [name] })) },
      version: '1.0',
    })
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
    const channel = this.loopback.track(
      await openChannel((subscribed.body as { privatePollingUrl: string }).privatePollingUrl),
    )
    expect(await channel.next(LINE_TIMEOUT_MS)).toMatchObject({
      eventName: 'OnChannelInformation',
    })
    const next = async (eventName: string) => {
      for (;;) {
        const event = await channel.next(LINE_TIMEOUT_MS)
        if (event['eventName'] === eventName) return event
      }
    }
    return { call, channel, next }
  }

  close(): Promise<void> {
    return this.loopback.close()
  }
}
