/** A service with sessions of the demo users, for the call-control route tests. */
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { openSession, startTestService, type TestService } from '../../support/test-service.js'

export const T = '/api/rest/1.0/telephony'

/** Demo users: STANDARD alice 1001, bob 1002, karim 1011; MULTIMEDIA carol 1003 (+ mobile 1103); dave 1004 has TELEPHONY_BASIC only. */
export const LOGINS = ['alice', 'bob', 'carol', 'dave', 'karim', 'admin'] as const
export type Login = (typeof LOGINS)[number]

export interface TelephonyTest {
  service: TestService
  cookies: Record<Login, string>
  /** A request with `login`'s session (no session with `undefined`). */
  send(
    login: Login | undefined,
    method: 'GET' | 'POST' | 'DELETE' | 'PUT',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>
  /** POST /telephony/calls from `login`'s device to `callee`; returns the callRef of the Location. */
  makeCall(login: Login, deviceId: string, callee: string): Promise<string>
  /** Answers as `login` on `deviceId`. */
  answer(login: Login, callRef: string, deviceId: string): Promise<void>
  close(): Promise<void>
}

export async function startTelephonyTest(
  options: Parameters<typeof startTestService>[0] = {},
): Promise<TelephonyTest> {
  const service = await startTestService(options)
  const cookies = {} as Record<Login, string>
  for (const login of LOGINS) cookies[login] = await openSession(service.app, login)
  const send: TelephonyTest['send'] = (login, method, url, payload) =>
    service.app.inject({
      method,
      url,
      headers: login === undefined ? {} : { cookie: cookies[login] },
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    })
  return {
    service,
    cookies,
    send,
    async makeCall(login, deviceId, callee) {
      const response = await send(login, 'POST', `${T}/calls`, {
        deviceId,
        callee,
        autoAnswer: true,
      })
      expect(response.statusCode, response.body).toBe(201)
      const location = String(response.headers.location)
      const callRef = location.slice(location.lastIndexOf('/') + 1)
      expect(location).toBe(`${T}/calls/${callRef}`)
      return callRef
    },
    async answer(login, callRef, deviceId) {
      const response = await send(login, 'POST', `${T}/calls/${callRef}/answer`, { deviceId })
      expect(response.statusCode, response.body).toBe(204)
    },
    close: () => service.close(),
  }
}
