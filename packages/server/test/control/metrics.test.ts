/**
 * The node's Prometheus metrics at the control plane's `GET /metrics` (docs/operations.md, "Metrics"): real
 * requests (logins, sessions, subscriptions, a channel over a real socket, calls, refused logins, a lock), then a
 * scrape whose series are checked one by one against what was done, the channel's lines counted by its client.
 * And who may scrape: the operator token, or METRICS_TOKEN, which opens nothing else.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControlApp } from '../../src/control/control-app.js'
import { DEFAULT_LOGIN_POLICY } from '../../src/platform/auth/login-throttle.js'
import { type ChannelClient, openChannel } from '../support/channel-client.js'
import { LoopbackService } from '../support/loopback-service.js'
import { basic, openSession } from '../support/test-service.js'
import { AUTH, TOKEN } from './control-fixture.js'

const METRICS_TOKEN = 'metrics-test-token-0123456789'
const V1 = '/api/rest/1.0'
/** Bob's queue holds this many events: his channel, opened late, finds the rest lost. */
const QUEUE_CAPACITY = 2

let loopback: LoopbackService
let control: FastifyInstance
let alice = ''
let bob = ''
let aliceChannel: ChannelClient
let bobPollingUrl = ''

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, payload?: object) =>
  loopback.service.app.inject({
    method,
    url: `${V1}${url}`,
    headers: { cookie },
    ...(payload && { payload }),
  })

/** A telephony subscription of `cookie`'s session: its polling URL. */
async function subscribe(cookie: string): Promise<string> {
  const response = await api('POST', '/subscriptions', cookie, {
    filter: { selectors: [{ names: ['telephony'] }] },
    version: '1.0',
    timeout: 0,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().privatePollingUrl
}

async function login(password: string) {
  return loopback.service.app.inject({
    url: '/api/rest/authenticate?version=1.0',
    headers: { authorization: basic('carol', password) },
  })
}

/** The series of a scrape, by name and labels as Prometheus prints them (`name{label="value"}`). */
async function scrape(): Promise<Map<string, number>> {
  const response = await control.inject({ url: '/metrics', headers: AUTH })
  expect(response.statusCode, response.body).toBe(200)
  const series = new Map<string, number>()
  for (const line of response.body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const space = line.lastIndexOf(' ')
    series.set(line.slice(0, space), Number(line.slice(space + 1)))
  }
  return series
}

/** The series that `prefix` names, without their buckets: what a test compares at once. */
function named(series: Map<string, number>, prefix: string): Record<string, number> {
  const found: Record<string, number> = {}
  for (const [key, value] of series)
    if (key.startsWith(prefix) && !key.includes('_bucket')) found[key] = value
  return found
}

beforeAll(async () => {
  loopback = await LoopbackService.start({
    queueCapacity: QUEUE_CAPACITY,
    // The second wrong password locks carol's login; no delay before it.
    throttlePolicies: {
      login: { ...DEFAULT_LOGIN_POLICY, freeFailures: 5, lockAfterFailures: 2 },
      address: DEFAULT_LOGIN_POLICY,
    },
  })
  const { platform, telephony } = loopback.service.running
  control = await buildControlApp(
    { ...platform, telephony },
    { token: TOKEN, metricsToken: METRICS_TOKEN },
  )
  alice = await openSession(loopback.service.app, 'alice')
  bob = await openSession(loopback.service.app, 'bob')
  aliceChannel = loopback.track(await openChannel(await subscribe(alice)))
  expect(await aliceChannel.next()).toMatchObject({ text: 'Chunk started' })
  bobPollingUrl = await subscribe(bob)
})
afterAll(async () => {
  await control?.close()
  await loopback?.close()
})

describe('GET /metrics', () => {
  it('counts what the requests did, series by series', async () => {
    const call = { deviceId: '1001', callee: '1002' }
    expect((await api('POST', '/telephony/calls', alice, call)).statusCode).toBe(201)
    const calls = await api('GET', '/telephony/calls', alice)
    const [{ callRef }] = calls.json().calls as [{ callRef: string }]
    expect((await api('DELETE', `/telephony/calls/${callRef}`, alice)).statusCode).toBe(204)
    expect((await api('POST', '/telephony/calls', alice, call)).statusCode).toBe(201)
    // Nobody answers a call that does not ring for them: the engine refuses it.
    const [{ callRef: ringing }] = (await api('GET', '/telephony/calls', alice)).json().calls
    const refused = await api('POST', `/telephony/calls/${ringing}/answer`, alice, {})
    expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400)
    expect((await loopback.service.app.inject({ url: '/no/such/path' })).statusCode).toBe(404)
    expect((await login('wrong-1')).statusCode).toBe(401)
    expect((await login('wrong-2')).statusCode).toBe(401)
    const locked = await login('demo-carol')
    expect(locked.statusCode).toBe(401)
    expect(locked.headers['retry-after']).toBeDefined()
    await loopback.service.running.telephony.idle()

    const series = await scrape()
    expect(named(series, 'openness_sessions_open')).toEqual({ openness_sessions_open: 2 })
    expect(named(series, 'openness_subscriptions')).toEqual({ openness_subscriptions: 2 })
    expect(named(series, 'openness_channels_open')).toEqual({ openness_channels_open: 1 })
    expect(named(series, 'openness_calls_in_progress')).toEqual({ openness_calls_in_progress: 1 })
    // Bob's queue is full: it holds its capacity, the older events are dropped.
    expect(named(series, 'openness_events_queued')).toEqual({
      openness_events_queued: QUEUE_CAPACITY,
    })
    expect(named(series, 'openness_login_')).toEqual({
      'openness_login_failures_total{reason="bad_credentials"}': 2,
      'openness_login_failures_total{reason="locked"}': 1,
      'openness_login_locks_total{key="login"}': 1,
    })
    const commands = named(series, 'openness_engine_command_duration_seconds_count')
    expect(commands).toEqual({
      // The demo directory's contact center, provisioned at the start.
      'openness_engine_command_duration_seconds_count{command="provisionContactCenter",outcome="done"}': 1,
      'openness_engine_command_duration_seconds_count{command="makeCall",outcome="done"}': 2,
      'openness_engine_command_duration_seconds_count{command="release",outcome="done"}': 1,
      'openness_engine_command_duration_seconds_count{command="answer",outcome="refused"}': 1,
    })
    const requests = named(series, 'openness_http_request_duration_seconds_count')
    expect(requests).toMatchObject({
      [`openness_http_request_duration_seconds_count{route="${V1}/telephony/calls",method="POST",status="201"}`]: 2,
      [`openness_http_request_duration_seconds_count{route="${V1}/telephony/calls/:callRef",method="DELETE",status="204"}`]: 1,
      [`openness_http_request_duration_seconds_count{route="${V1}/telephony/calls",method="GET",status="200"}`]: 2,
      'openness_http_request_duration_seconds_count{route="/api/rest/authenticate",method="GET",status="401"}': 3,
      'openness_http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}': 1,
    })
    // Never a raw URL: no series names a callRef.
    for (const key of Object.keys(requests)) expect(key).not.toContain(callRef)
    expect(
      series.get(
        `openness_http_request_duration_seconds_bucket{route="${V1}/telephony/calls",method="POST",status="201",le="+Inf"}`,
      ),
    ).toBe(2)

    // The events counted delivered are the lines alice's client read, no more, no fewer.
    const delivered = series.get('openness_events_delivered_total{outlet="channel"}') ?? 0
    expect(delivered).toBeGreaterThan(0)
    for (let line = 0; line < delivered; line++) {
      const event = await aliceChannel.next()
      expect(event['eventName']).not.toBe('OnChannelInformation')
    }
    await expect(aliceChannel.next(200)).rejects.toThrow('no line arrived')
    expect(named(series, 'openness_events_lost_total')).toEqual({
      'openness_events_lost_total{outlet="channel"}': 0,
      'openness_events_lost_total{outlet="webhook"}': 0,
    })

    // Bob's channel finds the loss notice, then the events his queue kept.
    const bobChannel = loopback.track(await openChannel(bobPollingUrl))
    expect(await bobChannel.next()).toMatchObject({ text: 'Chunk started' })
    const notice = await bobChannel.next()
    const lost = Number(/^(\d+) events? lost/.exec(String(notice['text']))?.[1])
    expect(lost).toBeGreaterThan(0)
    for (let line = 0; line < QUEUE_CAPACITY; line++)
      expect((await bobChannel.next())['eventName']).not.toBe('OnChannelInformation')
    const after = await scrape()
    expect(named(after, 'openness_events_')).toEqual({
      'openness_events_delivered_total{outlet="channel"}': delivered + QUEUE_CAPACITY,
      'openness_events_delivered_total{outlet="webhook"}': 0,
      'openness_events_lost_total{outlet="channel"}': lost,
      'openness_events_lost_total{outlet="webhook"}': 0,
      openness_events_queued: 0,
    })
    expect(after.get('openness_channels_open')).toBe(2)
  })

  it('answers in the text format 0.0.4, which prom-client gives', async () => {
    const response = await control.inject({ url: '/metrics', headers: AUTH })
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(response.body).toContain('# TYPE openness_http_request_duration_seconds histogram')
    expect(response.body).toContain('# TYPE openness_events_delivered_total counter')
    expect(response.body).toContain('# TYPE openness_sessions_open gauge')
  })

  it('needs the operator token or METRICS_TOKEN, which opens nothing else', async () => {
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
    const none = await control.inject({ url: '/metrics' })
    expect(none.statusCode).toBe(401)
    expect(none.headers['www-authenticate']).toBe('Bearer')
    expect((await control.inject({ url: '/metrics', headers: bearer('wrong') })).statusCode).toBe(
      401,
    )
    const scraped = await control.inject({ url: '/metrics', headers: bearer(METRICS_TOKEN) })
    expect(scraped.statusCode).toBe(200)
    expect(scraped.body).toContain('openness_sessions_open 2')
    const users = await control.inject({ url: '/control/v1/users', headers: bearer(METRICS_TOKEN) })
    expect(users.statusCode).toBe(401)
    expect((await control.inject({ url: '/control/v1/users', headers: AUTH })).statusCode).toBe(200)
  })

  it('is absent from a control plane built without metrics', async () => {
    const bare = await buildControlApp(
      { directory: loopback.service.running.platform.directory, product: { version: '0.1.0' } },
      { token: TOKEN },
    )
    expect((await bare.inject({ url: '/metrics', headers: AUTH })).statusCode).toBe(404)
    await bare.close()
  })
})
