/** Client flows of login, sessions and users, user and administrator (client-flows.ts). */
import { expect } from 'vitest'
import { covered, type Flow, makeCallBody } from './flow-support.js'
import { expectSuccess, SdkClient } from './sdk-client.js'
import { list, object, readCall, readUser } from './sdk-readers.js'

export const SESSION_FLOWS: readonly Flow[] = [
  {
    name: 'session: login, SessionInfo services, GET, keepalive, close',
    async run(world, profile, coverage) {
      const client = await SdkClient.login(world, profile, 'alice')
      coverage.add('GET /api/rest').add('GET /api/rest/authenticate').add('POST /sessions')
      for (const service of ['users', 'telephony', 'subscriptions']) client.service(service)
      if (profile.tag === 'J' || profile.tag === 'C#') {
        const info = covered(
          coverage,
          'GET /sessions',
          await client.send('GET', client.sessionsUrl),
        )
        expect(object(info.body, 'SessionInfo')['timeToLive']).toBeTypeOf('number')
      }
      covered(
        coverage,
        'POST /sessions/keepalive',
        await client.send('POST', `${client.sessionsUrl}/keepalive`),
      )
      covered(coverage, 'DELETE /sessions', await client.send('DELETE', client.sessionsUrl))
    },
  },
  {
    name: 'users: by login name, by company phone, logins, preferences, languages, password',
    async run(world, profile, coverage) {
      const client = await SdkClient.login(world, profile, 'ines')
      const users = client.service('users')
      const own = covered(coverage, 'GET /users/{}', await client.send('GET', `${users}/ines`))
      expect(readUser(own.body)['loginName']).toBe('ines')
      const byPhone = covered(
        coverage,
        'GET /users',
        await client.send('GET', `${users}?companyPhone=1002`),
      )
      expect(readUser(byPhone.body)['loginName']).toBe('bob')
      const logins = covered(
        coverage,
        'GET /logins',
        await client.send('GET', users.replace('/users', '/logins')),
      )
      expect(list(logins.body, 'loginNames')).toEqual(['ines'])
      const preferences = covered(
        coverage,
        'GET /users/{}/preferences',
        await client.send('GET', `${users}/ines/preferences`),
      )
      object(preferences.body, 'Preferences')
      const languages = covered(
        coverage,
        'GET /users/{}/preferences/supportedLanguages',
        await client.send('GET', `${users}/ines/preferences/supportedLanguages`),
      )
      const supported = object(languages.body, 'SupportedLanguages')
      const key = profile.tag === 'C#' ? 'SupportedLanguages' : 'supportedLanguages'
      expect(Array.isArray(supported[key]), `${profile.tag} reads ${key}`).toBe(true)
      for (const [oldPassword, newPassword] of [
        ['demo-ines', `changed-by-${profile.tag}`],
        [`changed-by-${profile.tag}`, 'demo-ines'],
      ])
        covered(
          coverage,
          'PUT /users/{}/password',
          await client.send('PUT', `${users}/ines/password`, { oldPassword, newPassword }),
        )
    },
  },
  {
    name: 'an administrator: users through its Users service, telephony for the user a request identifies',
    async run(world, profile, coverage) {
      const admin = await SdkClient.login(world, profile, 'admin')
      const users = admin.service('users')
      const byPhone = covered(
        coverage,
        'GET /users',
        await admin.send('GET', `${users}?companyPhone=1002`),
      )
      expect(readUser(byPhone.body)['loginName']).toBe('bob')
      const bob = covered(coverage, 'GET /users/{}', await admin.send('GET', `${users}/bob`))
      expect(readUser(bob.body)['loginName']).toBe('bob')
      const logins = covered(
        coverage,
        'GET /logins',
        await admin.send('GET', users.replace('/users', '/logins')),
      )
      expect(list(logins.body, 'loginNames')).toEqual(expect.arrayContaining(['alice', 'bob']))
      const as = (loginName: string) => ({ loginName })
      covered(
        coverage,
        'POST /telephony/calls',
        await admin.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1001', '1002'),
          query: as('alice'),
        }),
      )
      const calls = list(
        (await admin.request('GET', 'telephony', '/calls', { query: as('bob') })).body,
        'calls',
      )
      const callRef = String(readCall(calls[0])['callRef'])
      const t = `/calls/${callRef}`
      // The SDKs send no loginName on these rows (census 3.4): the device or the call names the user.
      covered(
        coverage,
        'POST /telephony/calls/{}/answer',
        await admin.request('POST', 'telephony', `${t}/answer`, { body: { deviceId: '1002' } }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/sendDtmf',
        await admin.request('POST', 'telephony', `${t}/sendDtmf`, {
          body: { deviceId: '1002', number: '5' },
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/attachdata',
        await admin.request('POST', 'telephony', `${t}/attachdata`, {
          body: { deviceId: '1001', hexaBinaryAssociatedData: '0a1b' },
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/hold',
        await admin.request('POST', 'telephony', `${t}/hold`, {
          body: { deviceId: '1002' },
          query: as('bob'),
        }),
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/retrieve',
        await admin.request('POST', 'telephony', `${t}/retrieve`, {
          body: { deviceId: '1002' },
          ...(profile.tag !== 'J' && { query: as('bob') }),
        }),
      )
      const released = await (profile.tag === 'JS'
        ? admin.request('POST', 'telephony', `${t}/dropme`, { query: as('alice') })
        : admin.request('DELETE', 'telephony', t, { query: as('alice') }))
      expectSuccess(released)
    },
  },
]
