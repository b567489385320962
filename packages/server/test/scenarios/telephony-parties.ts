/**
 * Users of the demo directory as real applications: each logs in, subscribes to its telephony events and
 * reads them from its own event channel over a socket, and calls the telephony API with fetch on the
 * loopback listener (issue 5 acceptance).
 */
import { CallCause, CallData, Calls, Leg, Participant, UserState } from '@openness/wire'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { expect } from 'vitest'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import { openSession, type TestService } from '../support/test-service.js'

/** The telephony base path. */
export const T = '/api/rest/1.0/telephony'

/** The demo users of the scenarios (STANDARD, TELEPHONY_ADVANCED) and their one device. */
export const DEVICE = { alice: '1001', bob: '1002', karim: '1011' } as const
export type Login = keyof typeof DEVICE

/** An event line of the channel. */
export type ChannelEvent = Record<string, unknown>

/** An answer of the API, its body parsed. */
export interface ApiResponse {
  status: number
  location: string | null
  body: unknown
}

/** How long a step may take to reach a channel, and how long silence must last to count as the end. */
const LINE_TIMEOUT_MS = 1_000
const QUIET_MS = 150

/** One user's application: a session, a telephony subscription and its open channel. */
export class Party {
  constructor(
    readonly loginName: Login,
    private readonly base: string,
    private readonly cookie: string,
    private readonly channel: ChannelClient,
  ) {}

  get deviceId(): string {
    return DEVICE[this.loginName]
  }

  /** A request to the telephony API with this user's session; `path` is relative to `/telephony`. */
  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const response = await fetch(`${this.base}${T}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: text === '' ? undefined : JSON.parse(text),
    }
  }

  /** A POST expected to succeed with `status` (204 by default). */
  async post(path: string, body?: unknown, status = 204): Promise<ApiResponse> {
    const response = await this.request('POST', path, body)
    expect(
      response.status,
      `${this.loginName} POST ${path}: ${JSON.stringify(response.body)}`,
    ).toBe(status)
    return response
  }

  /** POST /calls from the user's device with autoAnswer; expects 201 and returns the callRef of Location. */
  async makeCall(callee: string): Promise<string> {
    const response = await this.post(
      '/calls',
      { deviceId: this.deviceId, callee, autoAnswer: true },
      201,
    )
    const location = String(response.location)
    const callRef = location.slice(location.lastIndexOf('/') + 1)
    expect(callRef).toMatch(/^[0-9a-f]{16}$/)
    expect(location).toBe(`${T}/calls/${callRef}`)
    return callRef
  }

  /** POST /calls/{callRef}/answer on the user's device. */
  answer(callRef: string): Promise<ApiResponse> {
    return this.post(`/calls/${callRef}/answer`, { deviceId: this.deviceId })
  }

  /** The callRefs of GET /calls. */
  async callRefs(): Promise<string[]> {
    const response = await this.request('GET', '/calls')
    expect(response.status).toBe(200)
    expect(Value.Check(Calls, response.body), JSON.stringify(response.body)).toBe(true)
    return (response.body as { calls: { callRef: string }[] }).calls.map((call) => call.callRef)
  }

  /** The next `count` events of the channel, each within the line timeout. */
  async events(count: number): Promise<ChannelEvent[]> {
    const events: ChannelEvent[] = []
    for (let i = 0; i < count; i++) {
      try {
        events.push(await this.channel.next(LINE_TIMEOUT_MS))
      } catch (error) {
        throw new Error(
          `${this.loginName}: event ${i + 1} of ${count} did not arrive; got ${JSON.stringify(events.map(digest))}`,
          { cause: error },
        )
      }
    }
    return events
  }

  /** Reads the events of one step, expecting their digests exactly; returns them for payload checks. */
  async expectEvents(expected: readonly Digest[]): Promise<ChannelEvent[]> {
    const events = await this.events(expected.length)
    expect(events.map(digest), `${this.loginName}'s channel`).toEqual(expected)
    for (const event of events) {
      expect(event['loginName']).toBe(this.loginName)
      expectWireRecords(event)
    }
    return events
  }

  /** Expects nothing more on the channel for a short while. */
  async expectQuiet(): Promise<void> {
    const extra = await this.channel.next(QUIET_MS).then(
      (event) => event,
      () => undefined,
    )
    expect(extra, `${this.loginName} received an unexpected event`).toBeUndefined()
  }
}

/** The wire records an event carries: each is its TypeBox schema's (wire facts 5 and 6). */
function expectWireRecords(event: ChannelEvent): void {
  const check = (schema: TSchema, value: unknown) =>
    expect(
      Value.Check(schema, value),
      `${String(event['eventName'])}: ${JSON.stringify(value)}`,
    ).toBe(true)
  if (event['callData'] !== undefined) check(CallData, event['callData'])
  if (event['cause'] !== undefined) check(CallCause, event['cause'])
  if (event['eventName'] === 'OnUserStateModified') check(UserState, event['state'])
  for (const key of ['legs', 'modifiedLegs', 'addedLegs', 'removedLegs'])
    for (const leg of (event[key] ?? []) as unknown[]) check(Leg, leg)
  for (const key of ['participants', 'modifiedParticipants', 'addedParticipants'])
    for (const participant of (event[key] ?? []) as unknown[]) check(Participant, participant)
}

/** A compact form of an event: its name and the key payload fields it has. */
export interface Digest {
  eventName: string
  callRef?: string
  previousCallRef?: string
  cause?: string
  newDestination?: string
  /** OnUserStateModified's `state`. */
  state?: string
  /** `callData.state`. */
  callState?: string
  /** `legs` (OnCallCreated) or `modifiedLegs`, as `deviceId:STATE`. */
  legs?: string[]
  addedLegs?: string[]
  removedLegs?: string[]
  /** `participants` (OnCallCreated), as participantIds. */
  participants?: string[]
  modifiedParticipants?: string[]
  addedParticipants?: string[]
  removedParticipantIds?: string[]
}

const legList = (legs: unknown) =>
  (legs as { deviceId: string; state: string }[]).map((leg) => `${leg.deviceId}:${leg.state}`)
const idList = (participants: unknown) =>
  (participants as { participantId: string }[]).map((participant) => participant.participantId)

/** The digest of an event; empty lists are left out. */
export function digest(event: ChannelEvent): Digest {
  const out: Digest = { eventName: String(event['eventName']) }
  for (const key of ['callRef', 'previousCallRef', 'cause', 'newDestination', 'state'] as const)
    if (typeof event[key] === 'string') out[key] = event[key]
  const callState = (event['callData'] as { state?: string } | undefined)?.state
  if (callState !== undefined) out.callState = callState
  const lists = {
    legs: legList(event['legs'] ?? event['modifiedLegs'] ?? []),
    addedLegs: legList(event['addedLegs'] ?? []),
    removedLegs: legList(event['removedLegs'] ?? []),
    participants: idList(event['participants'] ?? []),
    modifiedParticipants: idList(event['modifiedParticipants'] ?? []),
    addedParticipants: idList(event['addedParticipants'] ?? []),
    removedParticipantIds: (event['removedParticipantIds'] ?? []) as string[],
  }
  for (const [key, list] of Object.entries(lists))
    if (list.length > 0) out[key as keyof typeof lists] = list
  return out
}

/** The service with its loopback listener, and the parties logged in on it. */
export class TelephonyScenario {
  private constructor(private readonly loopback: LoopbackService) {}

  /** Starts the service over the demo directory and binds a plain-HTTP listener on a free loopback port. */
  static async start(): Promise<TelephonyScenario> {
    return new TelephonyScenario(await LoopbackService.start())
  }

  get service(): TestService {
    return this.loopback.service
  }

  get base(): string {
    return this.loopback.origin
  }

  /** Logs `loginName` in, subscribes to its telephony events and opens its channel past "Chunk started". */
  async party(loginName: Login): Promise<Party> {
    const cookie = await openSession(this.service.app, loginName)
    const response = await fetch(`${this.base}/api/rest/1.0/subscriptions`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' }),
    })
    const subscription = (await response.json()) as { status: string; privatePollingUrl: string }
    expect(response.status, JSON.stringify(subscription)).toBe(200)
    expect(subscription.status).toBe('ACCEPTED')
    const channel = await openChannel(subscription.privatePollingUrl)
    this.loopback.track(channel)
    expect(channel.status).toBe(200)
    expect(await channel.next(LINE_TIMEOUT_MS)).toEqual({
      eventName: 'OnChannelInformation',
      text: 'Chunk started',
    })
    return new Party(loginName, this.base, cookie, channel)
  }

  /** Logs in several users, one after the other. */
  async parties<const L extends readonly Login[]>(
    ...logins: L
  ): Promise<{ [K in keyof L]: Party }> {
    const parties: Party[] = []
    for (const login of logins) parties.push(await this.party(login))
    return parties as { [K in keyof L]: Party }
  }

  /** Closes every channel, the listener and the service. */
  close(): Promise<void> {
    return this.loopback.close()
  }
}
