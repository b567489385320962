/** Changes made through the API survive a restart of the service (durable store under the data directory). */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { authenticate, basic, openSession, startTestService } from '../support/test-service.js'

let dataDir: string
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'openness-restart-'))
})
afterEach(() => rm(dataDir, { recursive: true, force: true }))

const start = () =>
  startTestService({ database: { kind: 'sqlite', filename: join(dataDir, 'openness.sqlite3') } })

describe('a restart', () => {
  it('keeps a changed password and changed preferences', async () => {
    const first = await start()
    expect(first.running.imported).toBe(true)
    const cookie = await openSession(first.app, 'alice')
    const password = await first.app.inject({
      method: 'PUT',
      url: '/api/rest/1.0/users/alice/password',
      headers: { cookie },
      payload: { oldPassword: 'demo-alice', newPassword: 'a-new-secret' },
    })
    expect(password.statusCode).toBe(204)
    const preferences = await first.app.inject({
      method: 'POST',
      url: '/api/rest/1.0/users/alice/preferences',
      headers: { cookie },
      payload: {
        guiLanguage: 'de',
        personalMobile: '+33 6 12 34 56 78',
        telephony: { clirMode: 'ACTIVE' },
      },
    })
    expect(preferences.statusCode).toBe(204)
    await first.close()

    const second = await start()
    expect(second.running.imported).toBe(false)
    const old = await second.app.inject({
      url: '/api/rest/authenticate?version=1.0',
      headers: { authorization: basic('alice') },
    })
    expect(old.statusCode).toBe(401)
    await authenticate(second.app, 'alice', 'a-new-secret')
    const admin = await openSession(second.app, 'admin')
    const stored = await second.app.inject({
      url: '/api/rest/1.0/users/alice/preferences',
      headers: { cookie: admin },
    })
    expect(stored.json()).toEqual({
      guiLanguage: 'de',
      tuiLanguage: 'en',
      oxeLanguage: 'en',
      personalMobile: '+33 6 12 34 56 78',
      telephony: { clirMode: 'ACTIVE' },
    })
    await second.close()
  })
})
