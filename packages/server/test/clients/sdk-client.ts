/**
 * A client that speaks HTTP the way one of the vendor's SDKs does (wire facts 1 to 4; census 3), for the
 * client conformance suites: it bootstraps from the root, authenticates with pre-emptive Basic
 * credentials, replays whatever cookie the server set (the SDKs never name it), opens a session, resolves
 * service URLs from SessionInfo with the SDKs' rule, and sends each request with that SDK's habits
 * (User-Agent, Content-Type on body-less POSTs, redirects followed or not, cookie on the channel or not).
 * Everything here is written from the census and the wire facts; nothing is taken from the SDKs' code.
 */
import { expect } from 'vitest'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import type { TestService } from '../support/test-service.js'

/** How one SDK speaks HTTP. */
export interface ClientProfile {
  /** The SDK, as the census tags it: N, J, C#, JS. */
  tag: 'N' | 'J' | 'C#' | 'JS'
  /** The User-Agent it sends; empty for none (Node's fetch would add its own to a request without one). */
  userAgent: string
  /** Whether a POST without a body still carries `Content-Type: application/json` (N does). */
  jsonOnEmptyPost: boolean
  /** Whether 3xx answers are followed (J's HttpClient never follows). */
  followsRedirects: boolean
}

export const NODE_SDK: ClientProfile = {
  tag: 'N',
  userAgent: 'undici',
  jsonOnEmptyPost: true,
  followsRedirects: true,
}
export const JAVA_SDK: ClientProfile = {
  tag: 'J',
  userAgent: 'Java-http-client/17.0.12',
  jsonOnEmptyPost: false,
  followsRedirects: false,
}
export const CSHARP_SDK: ClientProfile = {
  tag: 'C#',
  // The C# SDK's HttpClient sends no User-Agent: the server reads an empty one alike.
  userAgent: '',
  jsonOnEmptyPost: false,
  followsRedirects: true,
}
export const BROWSER_SDK: ClientProfile = {
  tag: 'JS',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Conformance',
  jsonOnEmptyPost: true,
  followsRedirects: true,
}

/** An answer, its body kept as text and parsed when it is JSON. */
export interface Answer {
  status: number
  headers: Headers
  text: string
  /** The parsed body; undefined when empty or not JSON. */
  body: unknown
  /** The URL finally answered (after redirects, when followed). */
  url: string
  /** The body's bytes (a WAV file's). */
  bytes: Uint8Array
}

/** The service on a loopback listener, shared by the clients of one suite. */
export class ClientWorld {
  private constructor(private readonly loopback: LoopbackService) {}

  static async start(): Promise<ClientWorld> {
    return new ClientWorld(await LoopbackService.start())
  }

  get service(): TestService {
    return this.loopback.service
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return this.loopback.origin
  }

  /** Opens a polling URL as the SDKs do (POST, empty body, no session cookie) and reads `Chunk started`. */
  async openChannel(pollingUrl: string): Promise<ChannelClient> {
    const channel = this.loopback.track(await openChannel(pollingUrl))
    expect(channel.status).toBe(200)
    expect(await channel.next()).toEqual({
      eventName: 'OnChannelInformation',
      text: 'Chunk started',
    })
    return channel
  }

  close(): Promise<void> {
    return this.loopback.close()
  }
}

/** SessionInfo as the SDKs read it (wire facts 2.3). */
interface SessionInfoRead {
  timeToLive: number
  privateBaseUrl: string
  services: { serviceName: string; relativeUrl: string }[]
}

/** One SDK logged in: its cookie jar, its session URL and its service map. */
export class SdkClient {
  private readonly cookies = new Map<string, string>()
  /** Service base URLs by lower-cased service name, as the SDKs build them. */
  readonly services = new Map<string, string>()
  sessionsUrl = ''
  sessionInfo: SessionInfoRead | undefined

  constructor(
    readonly world: ClientWorld,
    readonly profile: ClientProfile,
  ) {}

  /**
   * The SDK's login (wire facts 11, steps 1 to 3): the root, the version's authenticate URL with Basic
   * credentials, then POST to the sessions URL the authentication answered.
   */
  static async login(
    world: ClientWorld,
    profile: ClientProfile,
    loginName: string,
    sessionRequest: Record<string, unknown> = { applicationName: 'ConformanceApp' },
  ): Promise<SdkClient> {
    const client = new SdkClient(world, profile)
    const root = await client.send('GET', `${world.origin}/api/rest`)
    expect(root.status).toBe(200)
    const versions = (root.body as { versions: { id: string; internalUrl: string }[] }).versions
    const version = versions.find((candidate) => candidate.id === '1.0')
    expect(version, 'the root lists version 1.0').toBeDefined()
    const credentials = Buffer.from(`${loginName}:demo-${loginName}`).toString('base64')
    const authentication = await client.send('GET', String(version?.internalUrl), undefined, {
      authorization: `Basic ${credentials}`,
    })
    expect(authentication.status, authentication.text).toBe(200)
    client.sessionsUrl = (authentication.body as { internalUrl: string }).internalUrl
    const opened = await client.send('POST', client.sessionsUrl, sessionRequest)
    expect(opened.status, opened.text).toBe(200)
    client.sessionInfo = opened.body as SessionInfoRead
    client.resolveServices(client.sessionInfo)
    return client
  }

  /**
   * The SDKs' service lookup (wire facts 2.3): lower-cased `serviceName`; every relativeUrl under
   * `/telephony` is the one telephony base; the others are `privateBaseUrl + relativeUrl`.
   */
  private resolveServices(info: SessionInfoRead): void {
    expect(typeof info.timeToLive).toBe('number')
    for (const { serviceName, relativeUrl } of info.services) {
      const name = relativeUrl.startsWith('/telephony') ? 'telephony' : serviceName.toLowerCase()
      const url = `${info.privateBaseUrl}${relativeUrl.startsWith('/telephony') ? '/telephony' : relativeUrl}`
      if (!this.services.has(name)) this.services.set(name, url)
    }
  }

  /** The base URL of a service the SDK looks up; fails the test when SessionInfo lacks it. */
  service(name: string): string {
    const url = this.services.get(name.toLowerCase())
    expect(url, `SessionInfo lists the service '${name}'`).toBeDefined()
    return String(url)
  }

  /** Sends a request with this SDK's habits; `url` is absolute. */
  async send(
    method: string,
    url: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...extraHeaders }
    headers['user-agent'] = this.profile.userAgent
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    if (cookie !== '') headers['cookie'] = cookie
    if (body !== undefined || (method === 'POST' && this.profile.jsonOnEmptyPost))
      headers['content-type'] = 'application/json'
    const response = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    this.store(response.headers.getSetCookie())
    const location = response.headers.get('location')
    if (
      this.profile.followsRedirects &&
      response.status >= 300 &&
      response.status < 400 &&
      location
    )
      return this.send('GET', new URL(location, url).toString())
    const bytes = new Uint8Array(await response.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    let parsed: unknown
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, text, body: parsed, url, bytes }
  }

  /** A request to `service` + `path`, with `query` appended as the SDKs encode it (URLSearchParams). */
  request(
    method: string,
    service: string,
    path = '',
    options: {
      body?: unknown
      query?: Record<string, string>
      /** A query as the SDK writes it, when URLSearchParams would not (`?withUserPwd`). */
      rawQuery?: string
      headers?: Record<string, string>
    } = {},
  ): Promise<Answer> {
    const query = options.query
      ? `?${new URLSearchParams(options.query).toString()}`
      : (options.rawQuery ?? '')
    return this.send(
      method,
      `${this.service(service)}${path}${query}`,
      options.body,
      options.headers,
    )
  }

  /** Subscribes with the SDK's exact body and opens the channel past `Chunk started`. */
  async subscribe(body: unknown): Promise<ChannelClient> {
    const answer = await this.request('POST', 'subscriptions', '', { body })
    expect(answer.status, answer.text).toBe(200)
    const subscription = answer.body as { status: string; privatePollingUrl: string }
    expect(subscription.status).toBe('ACCEPTED')
    return this.world.openChannel(subscription.privatePollingUrl)
  }

  /** The cookie jar: keeps every cookie the server sets, whatever its name. */
  private store(setCookie: string[]): void {
    for (const line of setCookie) {
      const pair = line.split(';')[0] ?? ''
      const separator = pair.indexOf('=')
      if (separator > 0)
        this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1))
    }
  }
}

/** Asserts a 2xx, the only thing the SDKs check before reading a body (wire facts, general rule). */
export function expectSuccess(answer: Answer): void {
  expect(answer.status, `${answer.url}: ${answer.text}`).toBeGreaterThanOrEqual(200)
  expect(answer.status, `${answer.url}: ${answer.text}`).toBeLessThan(300)
}

/** Reads channel lines until an event of that name (and matching `where`) comes, failing after `limit` lines. */
export async function nextEvent(
  channel: ChannelClient,
  eventName: string,
  where: (event: Record<string, unknown>) => boolean = () => true,
  limit = 30,
): Promise<Record<string, unknown>> {
  for (let read = 0; read < limit; read++) {
    const event = await channel.next()
    if (event['eventName'] === eventName && where(event)) return event
  }
  throw new Error(`no such ${eventName} within ${limit} events`)
}
