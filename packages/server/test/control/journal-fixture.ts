/**
 * A running platform with its control plane and sessions of the demo users, for the journal's tests
 * (docs/journal.md): API requests as a user, control-plane requests, and reads of the journal.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { PlatformOptions } from '../../src/assembly/platform-options.js'
import { buildControlApp } from '../../src/control/control-app.js'
import type { JournalEntry } from '../../src/platform/journal/journal-entry.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'
import { AUTH, TOKEN } from './control-fixture.js'

export const API = '/api/rest/1.0'
export const C = '/control/v1'
/** A subscription to telephony events, as an application makes it. */
export const TELEPHONY_SUBSCRIPTION = {
  filter: { selectors: [{ names: ['telephony'] }] },
  version: '1.0',
}

export interface JournalService {
  service: TestService
  control: FastifyInstance
  /** The session cookie of each user logged in (`login(...)`). */
  cookies: Record<string, string>
  /** Opens a session of `loginName`. */
  login(loginName: string): Promise<string>
  /** An API request with `login`'s session (none with undefined). */
  api(
    login: string | undefined,
    method: string,
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>
  /** A control-plane request with the operator token. */
  operator(method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse>
  /** `GET /control/v1/journal?{query}`'s entries, checked 200. */
  entries(query?: string): Promise<JournalEntry[]>
  /** `from`'s device calls `callee` through the API (alice's 1001 calls bob's 1002); the call reference. */
  call(from?: string, deviceId?: string, callee?: string): Promise<string>
  /** bob's application subscribes to telephony events; the subscription id. */
  subscribe(login: string): Promise<string>
  close(): Promise<void>
}

/** Starts the test service and a control plane over it, with sessions of `logins`. */
export async function startJournalService(
  options: Partial<PlatformOptions> = {},
  logins: readonly string[] = ['alice', 'bob'],
  heartbeatMs?: number,
): Promise<JournalService> {
  const service = await startTestService(options)
  const { platform, telephony } = service.running
  const control = await buildControlApp(
    { ...platform, telephony, adjustableClock: service.clock, states: service.running.states },
    { token: TOKEN, ...(heartbeatMs !== undefined && { journalHeartbeatMs: heartbeatMs }) },
  )
  const cookies: Record<string, string> = {}
  const login = async (loginName: string) => {
    cookies[loginName] = await openSession(service.app, loginName)
    return cookies[loginName]
  }
  for (const loginName of logins) await login(loginName)
  const api: JournalService['api'] = (user, method, url, payload) =>
    service.app.inject({
      method: method as 'GET',
      url,
      headers: user === undefined ? {} : { cookie: cookies[user] ?? '' },
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    })
  const operator: JournalService['operator'] = (method, url, payload) =>
    control.inject({
      method: method as 'GET',
      url: `${C}${url}`,
      headers: AUTH,
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    })
  return {
    service,
    control,
    cookies,
    login,
    api,
    operator,
    async entries(query = '') {
      await platform.journal?.settled()
      const response = await operator('GET', `/journal${query === '' ? '' : `?${query}`}`)
      expect(response.statusCode, response.body).toBe(200)
      return (response.json() as { entries: JournalEntry[] }).entries
    },
    async call(from = 'alice', deviceId = '1001', callee = '1002') {
      const response = await api(from, 'POST', `${API}/telephony/calls`, {
        deviceId,
        callee,
        autoAnswer: true,
      })
      expect(response.statusCode, response.body).toBe(201)
      const location = String(response.headers.location)
      return location.slice(location.lastIndexOf('/') + 1)
    },
    async subscribe(loginName) {
      const response = await api(loginName, 'POST', `${API}/subscriptions`, TELEPHONY_SUBSCRIPTION)
      expect(response.statusCode, response.body).toBe(200)
      return (response.json() as { subscriptionId: string }).subscriptionId
    },
    close: async () => {
      await control.close()
      await service.close()
    },
  }
}
