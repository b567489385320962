/** The OpenAPI 3.1 description is generated from the route schemas and covers every route. */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/tools/openapi-document.js'
import { startTestService, type TestService } from '../support/test-service.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService()
})
afterAll(() => service.close())

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 and documents every route of the API with its statuses', async () => {
    const response = await service.app.inject({ url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json() as {
      openapi: string
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    }
    expect(document.openapi).toBe('3.1.0')
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
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
    for (const operation of expected) expect(operations).toContain(operation)
    const deleteSessions = document.paths['/api/rest/1.0/sessions']?.['delete']
    expect(Object.keys(deleteSessions?.responses ?? {}).sort()).toEqual([
      '204',
      '400',
      '403',
      '500',
      '503',
    ])
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
