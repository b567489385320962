/** The root resource and versioning (specification, Addressing and "Versioning"). */
import { RestApiDescriptor } from '@openness/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { startTestService, type TestService } from '../support/test-service.js'

describe('GET /api/rest', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({
      publicBaseUrl: 'https://pbx.example.com',
      privateBaseUrl: 'http://10.1.2.3:8080',
    })
  })
  afterAll(() => service.close())

  it('describes the server and version 1.0 with its authentication URLs, without a cookie', async () => {
    const body = expectSchema<RestApiDescriptor>(
      RestApiDescriptor,
      await service.app.inject({ url: '/api/rest' }),
    )
    expect(body).toEqual({
      serverInfo: {
        productName: 'Communication Platform REST Openness Service',
        productType: 'OPENNESS',
        productVersion: { major: '0', minor: '1.0' },
        haMode: false,
      },
      versions: [
        {
          id: '1.0',
          status: 'CURRENT',
          publicUrl: 'https://pbx.example.com/api/rest/authenticate?version=1.0',
          internalUrl: 'http://10.1.2.3:8080/api/rest/authenticate?version=1.0',
        },
      ],
    })
  })

  it('answers the same with a trailing slash', async () => {
    expectSchema(RestApiDescriptor, await service.app.inject({ url: '/api/rest/' }))
  })

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'] as const)(
    'answers %s with 405 and an Allow header',
    async (method) => {
      const response = await service.app.inject({ method, url: '/api/rest' })
      expectRestError(response, 405, 'NOT_SUPPORTED', /GET/)
      expect(response.headers.allow).toBe('GET, HEAD')
    },
  )
})

describe('unknown versions and paths', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService()
  })
  afterAll(() => service.close())

  it.each([
    '/api/rest/2.0/sessions',
    '/api/rest/1.0/nothing',
    '/api/rest/1.0/users/alice/unknown',
    '/elsewhere',
  ])('answers %s with a RestErrorInfo 404', async (url) => {
    expectRestError(await service.app.inject({ url }), 404, 'NOT_FOUND', /No resource/)
  })

  it.each(['/api/rest/1.0/instantMessaging', '/api/rest/1.0/presence', '/api/rest/1.0/conference'])(
    'answers %s, a service not installed yet, with 503 SERVER_PROBLEM (rule 2)',
    async (url) => {
      expectRestError(
        await service.app.inject({ method: 'POST', url }),
        503,
        'SERVER_PROBLEM',
        /not installed/,
      )
    },
  )

  it('uses the request origin when no base URL is configured', async () => {
    const response = await service.app.inject({
      url: '/api/rest',
      headers: { host: 'pbx.local:8443' },
    })
    const body = expectSchema<RestApiDescriptor>(RestApiDescriptor, response)
    expect(body.versions[0]?.internalUrl).toBe(
      'http://pbx.local:8443/api/rest/authenticate?version=1.0',
    )
  })

  it('answers a wrong method on a known resource with 405 and the methods it allows', async () => {
    const response = await service.app.inject({
      method: 'PUT',
      url: '/api/rest/1.0/sessions/keepalive',
    })
    expectRestError(response, 405, 'NOT_SUPPORTED')
    expect(response.headers.allow).toBe('HEAD, POST')
  })
})
