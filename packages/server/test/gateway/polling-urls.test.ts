/**
 * Where a subscription's polling URLs point (issue 15, finding 5; docs/security.md): the plain-HTTP listener by
 * default, for the clients that cannot give their channel the development certificate; the HTTPS listener the
 * client used once its certificate is the operator's (`httpsPolling`), and a channel opened there works.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import { loadTlsMaterial } from '../../src/assembly/tls.js'
import { authenticate, startTestService, type TestService } from '../support/test-service.js'

let service: TestService
let listeners: Listeners
let dataDir = ''
let cookie = ''
beforeAll(async () => {
  service = await startTestService()
  dataDir = await mkdtemp(join(tmpdir(), 'openness-polling-'))
  const tls = await loadTlsMaterial({ dataDir })
  listeners = await startListeners(service.app, {
    host: '127.0.0.1',
    httpPort: 0,
    httpsPort: 0,
    tls,
  })
  service.running.platform.urls.httpPort = listeners.httpPort
  cookie = `SvcUserId=${await authenticate(service.app, 'alice')}`
  const opened = await service.app.inject({
    method: 'POST',
    url: '/api/rest/1.0/sessions',
    headers: { cookie },
    payload: { applicationName: 'polling' },
  })
  expect(opened.statusCode).toBe(200)
})
afterAll(async () => {
  await listeners?.close()
  await service?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** POSTs a subscription over HTTP or HTTPS (any certificate trusted); resolves to its private polling URL. */
function subscribe(scheme: 'http' | 'https'): Promise<string> {
  const port = scheme === 'https' ? listeners.httpsPort : listeners.httpPort
  const body = JSON.stringify({ filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0' })
  return new Promise((resolve, reject) => {
    const send = scheme === 'https' ? httpsRequest : httpRequest
    const outgoing = send(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/rest/1.0/subscriptions',
        headers: { cookie, 'content-type': 'application/json' },
        rejectUnauthorized: false,
        agent: false,
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => {
          text += chunk
        })
        response.on('end', () =>
          resolve((JSON.parse(text) as { privatePollingUrl: string }).privatePollingUrl),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** Opens the channel at `url` and resolves to its first line. */
function firstLine(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest
    const outgoing = send(
      url,
      { method: 'POST', rejectUnauthorized: false, agent: false },
      (response) => {
        response.setEncoding('utf8')
        response.once('data', (chunk: string) => {
          resolve(chunk.split('\n')[0] ?? '')
          outgoing.destroy()
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

describe('polling URLs', () => {
  it('point at the plain-HTTP listener by default, whichever listener the client used', async () => {
    service.running.platform.urls.httpsPolling = false
    for (const scheme of ['http', 'https'] as const)
      expect(await subscribe(scheme)).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${listeners.httpPort}/api/rest/1\\.0/notifications/`),
      )
  })

  it("point an HTTPS client at the HTTPS listener once the certificate is the operator's, and the channel works there", async () => {
    service.running.platform.urls.httpsPolling = true
    const overHttps = await subscribe('https')
    expect(overHttps).toMatch(
      new RegExp(`^https://127\\.0\\.0\\.1:${listeners.httpsPort}/api/rest/1\\.0/notifications/`),
    )
    expect(await firstLine(overHttps)).toMatch(/Chunk started/)
    // A plain-HTTP client keeps the plain-HTTP listener.
    expect(await subscribe('http')).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${listeners.httpPort}/`),
    )
  })
})
