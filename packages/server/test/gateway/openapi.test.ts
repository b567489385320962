/** The OpenAPI 3.1 description is generated from the route schemas and covers every route. */
import { readFileSync } from 'node:fs'
import * as wire from '@openness/wire'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/tools/openapi-document.js'
import { startTestService, type TestService } from '../support/test-service.js'

interface Operation {
  operationId?: string
  security?: Record<string, string[]>[]
  parameters?: { in: string; name: string }[]
  requestBody?: { content: Record<string, { schema: unknown }> }
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>
}

interface Document {
  openapi: string
  servers?: { url: string }[]
  security?: unknown
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, unknown>
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>
  }
}

let service: TestService
let document: Document
beforeAll(async () => {
  service = await startTestService()
  document = (await service.app.inject({ url: '/openapi.json' })).json()
})
afterAll(() => service.close())

/** Every operation of the document, as `[label, method, path, operation]`. */
function operations(of: Document = document): [string, string, string, Operation][] {
  return Object.entries(of.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) =>
        [`${method.toUpperCase()} ${path}`, method, path, operation] as [
          string,
          string,
          string,
          Operation,
        ],
    ),
  )
}

const jsonSchemaOf = (operation: Operation | undefined, status: string) =>
  operation?.responses[status]?.content?.['application/json']?.schema

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 and documents every route of the API with its statuses', async () => {
    expect(document.openapi).toBe('3.1.0')
    const labels = operations().map(([label]) => label)
    const expected = [
      'GET /api/rest',
      'GET /api/rest/authenticate',
      'GET /api/rest/authenticatenosso',
      'GET /api/rest/authenticationbasic/login',
      'POST /api/rest/1.0/sessions',
      'GET /api/rest/1.0/sessions',
      'DELETE /api/rest/1.0/sessions',
      'POST /api/rest/1.0/sessions/keepalive',
      'HEAD /api/rest/1.0/sessions/keepalive',
      'POST /api/rest/1.0/sessions/release',
      'GET /api/rest/1.0/logins',
      'GET /api/rest/1.0/users',
      'GET /api/rest/1.0/users/{loginName}',
      'PUT /api/rest/1.0/users/{loginName}/password',
      'GET /api/rest/1.0/users/{loginName}/preferences',
      'POST /api/rest/1.0/users/{loginName}/preferences',
      'GET /api/rest/1.0/users/{loginName}/preferences/telephony',
      'POST /api/rest/1.0/users/{loginName}/preferences/telephony',
      'GET /api/rest/1.0/users/{loginName}/preferences/supportedLanguages',
      'GET /api/rest/1.0/logins/{loginName}',
    ]
    for (const operation of expected) expect(labels).toContain(operation)
    // An operation that is not safe also answers 409 and 422 to a request sent with an Idempotency-Key.
    const deleteSessions = document.paths['/api/rest/1.0/sessions']?.['delete']
    expect(Object.keys(deleteSessions?.responses ?? {}).sort()).toEqual([
      '204',
      '400',
      '403',
      '409',
      '422',
      '500',
      '503',
    ])
    expect(deleteSessions?.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: false }),
    )
    const getSessions = document.paths['/api/rest/1.0/sessions']?.['get']
    expect(Object.keys(getSessions?.responses ?? {})).not.toContain('409')
  })

  it('serves the reference UI', async () => {
    const response = await service.app.inject({ url: '/docs/' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/text\/html/)
  })
})

describe('docs/openapi.json', () => {
  it('is what the route schemas generate (npm run openapi regenerates it)', async () => {
    const committed = readFileSync(
      new URL('../../../../docs/openapi.json', import.meta.url),
      'utf8',
    )
    expect(committed).toBe(await openApiDocument())
  })
})

describe('the OpenAPI document, for client generators (issue 16, found 3)', () => {
  it('gives every operation an operationId, unique and camelCase', () => {
    const ids = operations().map(([label, , , operation]) => [label, operation.operationId])
    for (const [label, id] of ids) expect(id, label).toMatch(/^[a-z][A-Za-z0-9]*$/)
    const counts = new Map<unknown, number>()
    for (const [, id] of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
    expect([...counts].filter(([, count]) => count > 1)).toEqual([])
  })

  it("names the operations after the SDKs' methods", () => {
    const idOf = (method: string, path: string) =>
      document.paths[`/api/rest${path}`]?.[method]?.operationId
    expect(idOf('get', '/1.0/sessions')).toBe('getSessionInfo')
    expect(idOf('post', '/1.0/sessions')).toBe('openSession')
    expect(idOf('post', '/1.0/sessions/keepalive')).toBe('keepAlive')
    expect(idOf('head', '/1.0/sessions/keepalive')).toBe('keepAliveHead')
    expect(idOf('post', '/1.0/telephony/calls')).toBe('makeCall')
    expect(idOf('post', '/1.0/telephony/calls/{callRef}/answer')).toBe('answerCall')
    expect(idOf('get', '/1.0/users/{loginName}')).toBe('getUser')
    expect(idOf('get', '/1.0/logins/{loginName}')).toBe('getUserViaLogins')
    expect(idOf('post', '/1.0/subscriptions')).toBe('subscribe')
    expect(idOf('get', '/1.0/notifications/{subscriptionId}')).toBe('openEventChannel')
  })

  it('declares its server: the origin that serves it, the paths being absolute', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })])
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/rest'))).toBe(true)
  })

  it("describes the bodies by the wire package's records, as named component schemas", () => {
    const { schemas } = document.components
    const sessions = document.paths['/api/rest/1.0/sessions']
    expect(jsonSchemaOf(sessions?.['get'], '200')).toEqual({
      $ref: '#/components/schemas/SessionInfo',
    })
    // Every error status refers to one shared response, a RestErrorInfo.
    expect(sessions?.['get']?.responses['403']).toEqual({
      $ref: '#/components/responses/RestError',
    })
    expect(document.components.responses['RestError']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/RestErrorInfo' } },
    })
    expect(sessions?.['post']?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/SessionRequest',
    })
    // A record nested in another is named too.
    expect(JSON.stringify(schemas['SessionInfo'])).toContain(
      '"$ref":"#/components/schemas/Service"',
    )
    for (const name of ['SessionInfo', 'RestErrorInfo', 'Call', 'User', 'Subscription'])
      expect(Object.keys(schemas)).toContain(name)
    // Each component named after a wire record is that record (the document turns patternProperties
    // into additionalProperties, so the ones holding a record map are compared by their keys only).
    const records = wire as unknown as Record<string, { title?: string; properties?: object }>
    for (const [name, schema] of Object.entries(schemas)) {
      const record = records[name]
      if (record?.title === undefined) continue
      expect(record.title, name).toBe(name)
      expect(Object.keys((schema as { properties?: object }).properties ?? {}), name).toEqual(
        Object.keys(record.properties ?? {}),
      )
    }
  })

  it('leaves no titled schema inline, no def-N name, and no reference that leads nowhere', () => {
    const text = JSON.stringify(document)
    expect(JSON.stringify(document.paths)).not.toContain('"title"')
    expect(text).not.toMatch(/def-\d/)
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (match) => match[1] as string,
    )
    expect(refs.length).toBeGreaterThan(100)
    for (const name of new Set(refs)) expect(document.components.schemas, name).toHaveProperty(name)
  })

  it('leaves out the HEAD twins of GET routes, which are still served', async () => {
    const heads = operations().filter(([, method]) => method === 'head')
    expect(heads.map(([label]) => label)).toEqual(['HEAD /api/rest/1.0/sessions/keepalive'])
    const head = await service.app.inject({ method: 'HEAD', url: '/api/rest' })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-type']).toMatch(/application\/json/)
    expect(head.body).toBe('')
  })
})

describe('the security of each operation, as it really is', () => {
  const PUBLIC = [
    'GET /api/rest',
    'GET /api/rest/locator/services',
    'GET /api/rest/1.0/notifications/{subscriptionId}',
    'POST /api/rest/1.0/notifications/{subscriptionId}',
  ]
  const BASIC = [
    'GET /api/rest/authenticate',
    'GET /api/rest/authenticatenosso',
    'GET /api/rest/authenticationbasic/login',
  ]
  const sessionCookie = [{ SvcUserId: [] }, { AlcUserId: [] }]

  it('declares none on the public operations, HTTP Basic on authentication, the session cookie elsewhere', () => {
    expect(document.security).toBeUndefined()
    for (const [label, , , operation] of operations()) {
      const expected = PUBLIC.includes(label)
        ? []
        : BASIC.includes(label)
          ? [{ httpBasic: [] }]
          : sessionCookie
      expect(operation.security, label).toEqual(expected)
    }
  })

  it('declares a scheme for each session cookie name and HTTP Basic, each used, and none other', () => {
    const { securitySchemes } = document.components
    expect(securitySchemes).toEqual({
      SvcUserId: { type: 'apiKey', in: 'cookie', name: 'SvcUserId' },
      AlcUserId: { type: 'apiKey', in: 'cookie', name: 'AlcUserId' },
      httpBasic: { type: 'http', scheme: 'basic' },
    })
    const used = new Set(
      operations().flatMap(([, , , operation]) =>
        (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
      ),
    )
    expect([...used].sort()).toEqual(Object.keys(securitySchemes).sort())
  })

  it('follows the configured session cookie names', async () => {
    const renamed = await startTestService({ sessionCookieNames: ['AlcUserId'] })
    try {
      const other: Document = (await renamed.app.inject({ url: '/openapi.json' })).json()
      expect(Object.keys(other.components.securitySchemes).sort()).toEqual([
        'AlcUserId',
        'httpBasic',
      ])
      expect(other.paths['/api/rest/1.0/sessions']?.['get']?.security).toEqual([{ AlcUserId: [] }])
    } finally {
      await renamed.close()
    }
  })

  it('matches what the routes do with a request that carries no credential', async () => {
    // The query parameters an authentication route checks before the credential.
    const QUERIES: Record<string, string> = {
      'GET /api/rest/authenticate': '?version=1.0',
      'GET /api/rest/authenticatenosso': '?version=1.0',
      'GET /api/rest/authenticationbasic/login': `?SvcApplicationUrl=${encodeURIComponent('/api/rest/authenticate?version=1.0')}`,
    }
    // The body of a route that reads the cookie itself, after the body is checked.
    const BODIES: Record<string, object> = {
      'POST /api/rest/1.0/sessions': { applicationName: 'openapi-test' },
    }
    for (const [label, method, path, operation] of operations()) {
      const url = `${path.replace(/\{\w+\}/g, 'x')}${QUERIES[label] ?? ''}`
      const body = BODIES[label]
      const response = await service.app.inject({
        method: method.toUpperCase() as InjectOptions['method'],
        url,
        ...(body !== undefined && { payload: body }),
      })
      if (PUBLIC.includes(label)) {
        // The root and the locator answer; a channel is refused for its unknown id, not for a credential.
        expect(response.statusCode, label).toBe(label.includes('notifications') ? 404 : 200)
      } else if (BASIC.includes(label)) {
        expect(response.statusCode, label).toBe(401)
        expect(response.headers['www-authenticate'], label).toMatch(/^Basic /)
      } else {
        expect(operation.security, label).toEqual(sessionCookie)
        expect(response.statusCode, label).toBe(403)
        if (method !== 'head') expect(response.json().type, label).toBe('INVALID_SESSION')
      }
    }
  })
})
