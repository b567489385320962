/**
 * The service the fuzzer sends to: the demo directory through `app.inject()`, with an open session of each kind
 * (alice: a user with TELEPHONY_ADVANCED; dave: TELEPHONY_BASIC only; admin: an administrator; bob: the "other"
 * user whose session, call and subscription the others must not reach), a credential that opened no session, a
 * closed session, and something of everything to name: calls, subscriptions, communication log records, voice
 * messages, a call back request, a directory search. Each input is turned into one request, its live ids
 * resolved against the state of that moment.
 */
import type { PartyInfo } from '@openness/wire'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import type { RunningPlatform } from '../../src/assembly/service.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { startTestService, type TestService } from '../support/test-service.js'
import type { FuzzOperation } from './fuzz-operations.js'
import type { CookieForm, FuzzInput, SessionKind } from './hostile-inputs.js'
import { type LiveKind, LiveValue } from './live-values.js'

/** The account behind each kind of session; bob's is the other user's. */
const ACCOUNTS = { user: 'alice', basicUser: 'dave', admin: 'admin', other: 'bob' } as const
type Holder = keyof typeof ACCOUNTS

/**
 * No throttling delay: the virtual clock never moves during a run, so a delayed login would wait forever. A login
 * is still locked after ten failures, so the locked answer is fuzzed too; an address never is, so that every
 * account can still be tried.
 */
const THROTTLE = {
  login: {
    freeFailures: 10,
    baseDelayMs: 0,
    maxDelayMs: 0,
    lockAfterFailures: 10,
    lockMs: 60_000,
    windowMs: 60_000,
    maxKeys: 1_000,
  },
  address: {
    freeFailures: Number.MAX_SAFE_INTEGER,
    baseDelayMs: 0,
    maxDelayMs: 0,
    lockAfterFailures: Number.MAX_SAFE_INTEGER,
    lockMs: 0,
    windowMs: 60_000,
    maxKeys: 1_000,
  },
}

/** How long a request may take before the fuzzer calls it hung (a wait on the virtual clock never ends). */
const ANSWER_TIMEOUT_MS = 10_000

/** A request as sent, for the report of a failure. */
export interface SentRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** The body's first characters. */
  body: string
}

export class FuzzService {
  readonly running: RunningPlatform
  readonly #service: TestService
  readonly #tokens = new Map<Holder | 'credential' | 'closed', string>()

  private constructor(service: TestService) {
    this.#service = service
    this.running = service.running
  }

  /** A service with its sessions and something of everything to name. */
  static async start(): Promise<FuzzService> {
    const service = await startTestService({ throttlePolicies: THROTTLE })
    await service.running.completeImport()
    const fuzz = new FuzzService(service)
    await fuzz.restoreSessions()
    await fuzz.seed()
    return fuzz
  }

  get app(): FastifyInstance {
    return this.#service.app
  }

  close(): Promise<void> {
    return this.#service.close()
  }

  /**
   * Waits for the work a request left running and puts back the sessions a request closed (a DELETE /sessions, a
   * release, a password change), so that the next input has the sessions it names.
   */
  async settle(): Promise<void> {
    await this.idle()
    await this.restoreSessions()
  }

  /** Waits for the work the last request left running (engine commands, routing saves, voice messages). */
  async idle(): Promise<void> {
    await this.running.telephony.idle()
    await this.running.platform.routing.idle()
    await this.running.voicemailDeposits.idle()
  }

  /** Sends `input` to `operation`; the answer, or a 'hung' marker when none came in time. */
  async exchange(
    operation: FuzzOperation,
    input: FuzzInput,
  ): Promise<{ request: SentRequest; response: LightMyRequestResponse | 'hung' }> {
    const request = await this.request(operation, input)
    const options: InjectOptions = {
      method: request.method as InjectOptions['method'],
      url: request.url,
      headers: request.headers,
      ...(request.payload !== undefined && { payload: request.payload }),
    }
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), ANSWER_TIMEOUT_MS)
    })
    try {
      const response = await Promise.race([this.app.inject(options), hung])
      return { request: { ...request, body: (request.payload ?? '').slice(0, 300) }, response }
    } finally {
      clearTimeout(timer)
    }
  }

  async request(
    operation: FuzzOperation,
    input: FuzzInput,
  ): Promise<Omit<SentRequest, 'body'> & { payload?: string }> {
    const resolve = await this.resolver(operation)
    let path = operation.path
    for (const [name, segment] of Object.entries(input.path)) {
      const text = resolve(segment.value)
      path = path.replace(`{${name}}`, segment.encode ? encodeURIComponent(text) : text)
    }
    const pairs = input.query.map(({ name, value, encode }) => {
      const text = resolve(value)
      return encode ? `${encodeURIComponent(name)}=${encodeURIComponent(text)}` : `${name}=${text}`
    })
    const query = pairs.join('&') + input.queryTail
    const headers: Record<string, string> = { ...input.headers }
    const cookie = this.cookie(input.session, input.cookie)
    if (cookie !== undefined) headers['cookie'] = cookie
    const { body } = input
    if (body.contentType !== undefined) headers['content-type'] = body.contentType
    const payload =
      body.kind === 'json'
        ? JSON.stringify(body.document.value, (_key, value: unknown) =>
            value instanceof LiveValue ? resolve(value) : value,
          )
        : body.kind === 'raw'
          ? body.text
          : undefined
    return {
      method: operation.method,
      url: query === '' ? path : `${path}?${query}`,
      headers,
      ...(payload !== undefined && { payload }),
    }
  }

  /** The Cookie header of a session kind in a form. */
  cookie(session: SessionKind, form: CookieForm): string | undefined {
    const own = session === 'none' ? undefined : this.token(session)
    const other = this.token('other')
    switch (form) {
      case 'absent':
        return undefined
      case 'garbage':
        return 'SvcUserId=0000000000000000garbage'
      case 'credentialWithoutSession':
        return `SvcUserId=${this.token('credential')}`
      case 'closedSession':
        return `SvcUserId=${this.token('closed')}`
      case 'empty':
        return 'SvcUserId='
      case 'nameOnly':
        return 'SvcUserId'
      case 'huge':
        return `SvcUserId=${'x'.repeat(8_000)}`
      case 'plain':
        return `SvcUserId=${own}`
      case 'otherName':
        return `AlcUserId=${own}`
      case 'quoted':
        return `SvcUserId="${own}"`
      case 'spaced':
        return ` SvcUserId = ${own} ;`
      case 'otherSessionFirst':
        return `SvcUserId=${other}; SvcUserId=${own}`
      case 'amongGarbage':
        return `a=b; =; ;; SvcUserId=${own}; SvcUserId`
    }
  }

  private token(holder: Holder | 'credential' | 'closed'): string {
    const token = this.#tokens.get(holder)
    if (token === undefined) throw new Error(`no ${holder} token`)
    return token
  }

  /** Resolves live ids against the state of now; a channel is never opened on a live subscription. */
  private async resolver(operation: FuzzOperation): Promise<(value: string | LiveValue) => string> {
    const ids = await this.liveIds()
    // A channel on a subscription that exists is a response that never ends (the delivery tests cover it).
    const isChannel = operation.path.includes('/notifications/')
    return (value) => {
      if (!(value instanceof LiveValue)) return value
      const list = ids[value.kind]
      const id = list[value.pick % Math.max(1, list.length)] ?? `no-${value.kind}`
      return isChannel && value.kind === 'subscriptionId' ? `${id}0` : id
    }
  }

  private async liveIds(): Promise<Record<LiveKind, string[]>> {
    const { telephony } = this.running
    const { sessions, subscriptions } = this.running.sharedState
    const column = async (query: string) =>
      (await sql.raw<{ id: string | number }>(query).execute(this.running.database)).rows.map(
        (row) => String(row.id),
      )
    return {
      callRef: allCalls(telephony.state).map((call) => call.callRef),
      subscriptionId: (await subscriptions.all()).map((record) => record.subscriptionId),
      sessionId: (await sessions.openSessions()).map((record) => record.sessionId),
      recordId: await column('select record_id as id from comlog_record order by record_id'),
      voicemailId: await column('select voicemail_id as id from voicemail_message order by rowid'),
      callbackId: Object.values(telephony.state.callbacks ?? {}).flatMap((callbacks) =>
        callbacks.map((callback) => callback.callbackId),
      ),
    }
  }

  /** Opens again each session a request closed, and makes again the credential and the closed session. */
  private async restoreSessions(): Promise<void> {
    const { sessions } = this.running.platform
    for (const holder of Object.keys(ACCOUNTS) as Holder[]) {
      const token = this.#tokens.get(holder)
      if (token !== undefined && (await sessions.status(token)).state === 'OPEN') continue
      this.#tokens.set(holder, await this.openSession(ACCOUNTS[holder]))
    }
    const credential = this.#tokens.get('credential')
    if (credential === undefined || (await sessions.status(credential)).state !== 'NO_SESSION')
      this.#tokens.set('credential', await sessions.issueToken('carol'))
    const closed = this.#tokens.get('closed')
    if (closed === undefined || (await sessions.status(closed)).state !== 'CLOSED') {
      const token = await this.openSession('lea')
      await this.call('DELETE', '/sessions', token)
      this.#tokens.set('closed', token)
    }
  }

  /** A session opened for `loginName` with a credential issued directly: a password a request changed is no matter. */
  private async openSession(loginName: string): Promise<string> {
    const token = await this.running.platform.sessions.issueToken(loginName)
    await this.call('POST', '/sessions', token, { applicationName: 'fuzz' })
    return token
  }

  /** Calls (one answered, one ringing, one of bob's), log records, voice messages, subscriptions, a search. */
  private async seed(): Promise<void> {
    const [alice, bob, admin] = [this.token('user'), this.token('other'), this.token('admin')]
    const callRef = (response: LightMyRequestResponse) =>
      String(response.headers.location).split('/').pop() as string
    await this.call('POST', '/telephony/outgoingCallbacks', bob, { callee: '1001' })
    const ended = await this.call('POST', '/telephony/calls', alice, {
      callee: '1004',
      autoAnswer: true,
    })
    await this.call('DELETE', `/telephony/calls/${callRef(ended)}`, alice)
    const answered = await this.call('POST', '/telephony/calls', alice, {
      callee: '1002',
      autoAnswer: true,
    })
    await this.call('POST', `/telephony/calls/${callRef(answered)}/answer`, bob, {
      deviceId: '1002',
    })
    await this.call('POST', '/telephony/calls', bob, { callee: '1011', autoAnswer: true })
    const from = { id: { phoneNumber: '0155660003' } } as PartyInfo
    for (const loginName of ['alice', 'alice', 'bob'])
      await this.running.platform.voicemail.deposit({ loginName, from, duration: 1 })
    const telephony = { selectors: [{ names: ['telephony'] }] }
    await this.call('POST', '/subscriptions', alice, { version: '1.0', filter: telephony })
    await this.call('POST', '/subscriptions', bob, { version: '1.0', filter: telephony })
    const supervised = { selectors: [{ names: ['telephony'], ids: ['alice', 'bob'] }] }
    await this.call('POST', '/subscriptions', admin, { version: '1.0', filter: supervised })
    const filter = { field: 'lastName', operation: 'BEGIN_WITH', operand: 'M' }
    await this.call('POST', '/directory/search', alice, { filter })
    await this.settle()
  }

  /** A request of the fixture's own under /api/rest/1.0; it must succeed. */
  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    token: string,
    payload?: Record<string, unknown>,
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url: `/api/rest/1.0${path}`,
      headers: { cookie: `SvcUserId=${token}` },
      ...(payload !== undefined && { payload }),
    })
    if (response.statusCode >= 300)
      throw new Error(`fuzz fixture: ${method} ${path}: ${response.statusCode} ${response.body}`)
    return response
  }
}
