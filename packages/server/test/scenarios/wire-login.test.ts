/**
 * The login sequence of a real client (wire facts 11, steps 1 to 4, 11 to 14 and 16), request by request,
 * over a real HTTPS socket with the generated development certificate, following the URLs the server
 * returns and replaying its Set-Cookie like a client's cookie jar.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  AuthenticateResult,
  RestApiDescriptor,
  RestErrorInfo,
  SessionInfo,
  SupportedLanguages,
  User,
  UserPreferencesResponse,
} from '@openness/wire'
import type { Static, TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { loadTlsMaterial, type TlsMaterial } from '../../src/assembly/tls.js'
import { basic, startTestService, type TestService } from '../support/test-service.js'

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
  json(): unknown
}

interface StoredCookie {
  value: string
  path: string
  secure: boolean
}

/** The smallest cookie jar that does what a client's does here: store Set-Cookie, replay it by path and scheme. */
class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>()

  store(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
      const separator = pair.indexOf('=')
      if (separator <= 0) continue
      const cookie: StoredCookie = { value: pair.slice(separator + 1), path: '/', secure: false }
      for (const attribute of attributes) {
        const [name = '', value = ''] = attribute.split('=')
        if (name.toLowerCase() === 'path') cookie.path = value
        if (name.toLowerCase() === 'secure') cookie.secure = true
      }
      this.cookies.set(pair.slice(0, separator), cookie)
    }
  }

  header(url: URL): string | undefined {
    const pairs = [...this.cookies]
      .filter(
        ([, cookie]) =>
          url.pathname.startsWith(cookie.path) && (!cookie.secure || url.protocol === 'https:'),
      )
      .map(([name, cookie]) => `${name}=${cookie.value}`)
    return pairs.length === 0 ? undefined : pairs.join('; ')
  }
}

let service: TestService
let listeners: Listeners
let tls: TlsMaterial
let dataDir: string
const jar = new CookieJar()

interface Send {
  method?: string
  headers?: Record<string, string>
  body?: string
  /** Leave the cookie jar out (neither send nor store cookies). */
  noJar?: boolean
}

/** One request over a real socket, HTTPS trusting only the generated certificate. */
function send(
  target: string,
  { method = 'GET', headers = {}, body, noJar = false }: Send = {},
): Promise<Answer> {
  const url = new URL(target)
  const cookie = noJar ? undefined : jar.header(url)
  const allHeaders: Record<string, string> = {
    ...headers,
    ...(cookie && { cookie }),
    ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }),
  }
  return new Promise((resolve, reject) => {
    const options = { method, headers: allHeaders, agent: false as const }
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        if (!noJar) jar.store(response.headers['set-cookie'])
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: text,
          json: () => JSON.parse(text),
        })
      })
    }
    const outgoing =
      url.protocol === 'https:'
        ? httpsRequest(url, { ...options, ca: tls.cert }, onResponse)
        : httpRequest(url, options, onResponse)
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** The parsed body of a 2xx answer, checked against its wire schema. */
function bodyOf<T extends TSchema>(answer: Answer, status: number, schema: T): Static<T> {
  expect(answer.status, answer.body).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  const body = answer.json()
  expect([...Value.Errors(schema, body)]).toEqual([])
  return body as Static<T>
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'openness-wire-login-'))
  tls = await loadTlsMaterial({ dataDir })
  service = await startTestService()
  listeners = await startListeners(service.app, {
    host: '127.0.0.1',
    httpsPort: 0,
    httpPort: 0,
    tls,
  })
})

afterAll(async () => {
  await listeners?.close()
  await service?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('the development certificate', () => {
  it('is generated at first start, then reused from the data directory', async () => {
    expect(tls.source).toBe('generated')
    expect(tls.certFile.startsWith(dataDir)).toBe(true)
    const again = await loadTlsMaterial({ dataDir })
    expect(again.source).toBe('reused')
    expect(again.cert).toBe(tls.cert)
    expect(again.key).toBe(tls.key)
    expect(again.fingerprint).toBe(tls.fingerprint)
  })

  it('is what the HTTPS listener presents: a client without it as trust anchor refuses the server', async () => {
    const refused = new Promise<Error>((resolve, reject) => {
      const outgoing = httpsRequest(
        { host: '127.0.0.1', port: listeners.httpsPort, path: '/api/rest', agent: false },
        () => reject(new Error('the self-signed certificate was trusted')),
      )
      outgoing.on('error', resolve)
      outgoing.end()
    })
    expect((await refused).message).toMatch(/self[- ]signed/i)
  })
})

describe('wire facts 11: the login sequence of o2g-node-sdk over HTTPS', () => {
  let origin: string
  let authenticateUrl: string
  let sessionsUrl: string
  let baseUrl: string
  let credential: string

  beforeAll(() => {
    origin = `https://127.0.0.1:${listeners.httpsPort}`
  })

  it('1. GET /api/rest: the versions with the HTTPS authenticate URL', async () => {
    const root = bodyOf(await send(`${origin}/api/rest`), 200, RestApiDescriptor)
    const version = root.versions[0]
    expect(version).toEqual({
      id: '1.0',
      status: 'CURRENT',
      internalUrl: `${origin}/api/rest/authenticate?version=1.0`,
      publicUrl: `${origin}/api/rest/authenticate?version=1.0`,
    })
    authenticateUrl = version?.internalUrl ?? ''
  })

  it('2. GET authenticate with pre-emptive Basic: 200, the sessions URL and a Secure cookie', async () => {
    const answer = await send(authenticateUrl, { headers: { authorization: basic('alice') } })
    const body = bodyOf(answer, 200, AuthenticateResult)
    expect(body).toEqual({
      credential: expect.any(String),
      internalUrl: `${origin}/api/rest/1.0/sessions`,
      publicUrl: `${origin}/api/rest/1.0/sessions`,
    })
    credential = body.credential
    sessionsUrl = body.internalUrl
    const setCookie = answer.headers['set-cookie'] ?? []
    expect(setCookie).toHaveLength(1)
    const cookie = setCookie[0] ?? ''
    expect(cookie.startsWith(`SvcUserId=${credential}; Path=/; HttpOnly`)).toBe(true)
    expect(cookie.split(';').map((part) => part.trim())).toContain('Secure')
    expect(cookie).not.toMatch(/domain=/i)
  })

  it('3. POST S {"applicationName":"TestApp"}: 200 SessionInfo', async () => {
    const answer = await send(sessionsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ applicationName: 'TestApp' }),
    })
    const info = bodyOf(answer, 200, SessionInfo)
    expect(info.timeToLive).toEqual(expect.any(Number))
    expect(info.timeToLive).toBeGreaterThan(0)
    expect(info.privateBaseUrl).toBe(`${origin}/api/rest/1.0`)
    expect(info.publicBaseUrl).toBe(`${origin}/api/rest/1.0`)
    expect(info.services).toContainEqual(
      expect.objectContaining({ serviceName: 'Users', relativeUrl: '/users' }),
    )
    baseUrl = info.privateBaseUrl
    // The client resolves the Users service as baseUrl + relativeUrl.
    expect(`${baseUrl}/users`).toBe(`${origin}/api/rest/1.0/users`)
  })

  it('4. POST S/keepalive with Content-Type application/json and an empty body: 204', async () => {
    const answer = await send(`${sessionsUrl}/keepalive`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    expect(answer.status, answer.body).toBe(204)
    expect(answer.body).toBe('')
  })

  it('11. GET B/users/alice: 200 User', async () => {
    const user = bodyOf(await send(`${baseUrl}/users/alice`), 200, User)
    expect(user.loginName).toBe('alice')
    expect(user.companyPhone).toBe('1001')
  })

  it('12. GET B/users/alice/preferences: 200', async () => {
    const preferences = bodyOf(
      await send(`${baseUrl}/users/alice/preferences`),
      200,
      UserPreferencesResponse,
    )
    expect(preferences.guiLanguage).toBe('en')
  })

  it('13. GET B/users/alice/preferences/supportedLanguages: 200 with supportedLanguages', async () => {
    const answer = await send(`${baseUrl}/users/alice/preferences/supportedLanguages`)
    const languages = bodyOf(answer, 200, SupportedLanguages)
    expect(Array.isArray(languages.supportedLanguages)).toBe(true)
    expect(languages.supportedLanguages.length).toBeGreaterThan(0)
    expect(languages.supportedLanguages).toContain('en')
  })

  it('14. PUT B/users/alice/password {oldPassword, newPassword}: 204, and the new password works', async () => {
    const answer = await send(`${baseUrl}/users/alice/password`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ oldPassword: 'demo-alice', newPassword: 'new-Secret-42' }),
    })
    expect(answer.status, answer.body).toBe(204)
    // Checked outside the client's jar, which keeps the session cookie of step 2.
    const withNew = await send(authenticateUrl, {
      headers: { authorization: basic('alice', 'new-Secret-42') },
      noJar: true,
    })
    expect(withNew.status).toBe(200)
    const withOld = await send(authenticateUrl, {
      headers: { authorization: basic('alice') },
      noJar: true,
    })
    expect(withOld.status).toBe(401)
    expect(Value.Check(RestErrorInfo, withOld.json())).toBe(true)
  })

  it('16. DELETE S: 204; the session is gone afterwards (GET S: 403)', async () => {
    const closed = await send(sessionsUrl, { method: 'DELETE' })
    expect(closed.status, closed.body).toBe(204)
    const after = await send(sessionsUrl)
    expect(after.status).toBe(403)
    const info = after.json()
    expect(Value.Check(RestErrorInfo, info)).toBe(true)
    expect(info).toMatchObject({ type: 'INVALID_SESSION', code: 1001, httpStatus: 'FORBIDDEN' })
  })
})

describe('the plain HTTP listener', () => {
  it('serves the root with http URLs of its own port', async () => {
    const origin = `http://127.0.0.1:${listeners.httpPort}`
    const root = bodyOf(await send(`${origin}/api/rest`, { noJar: true }), 200, RestApiDescriptor)
    expect(root.versions[0]).toMatchObject({
      id: '1.0',
      status: 'CURRENT',
      internalUrl: `${origin}/api/rest/authenticate?version=1.0`,
      publicUrl: `${origin}/api/rest/authenticate?version=1.0`,
    })
  })

  it('sets the cookie without Secure', async () => {
    const origin = `http://127.0.0.1:${listeners.httpPort}`
    const answer = await send(`${origin}/api/rest/authenticate?version=1.0`, {
      headers: { authorization: basic('bob') },
      noJar: true,
    })
    expect(answer.status).toBe(200)
    expect(answer.headers['set-cookie']?.[0]).toMatch(/^SvcUserId=[^;]+; Path=\/; HttpOnly/)
    expect(answer.headers['set-cookie']?.[0]).not.toMatch(/secure/i)
  })
})
