/**
 * The vendor's raw-HTTP samples against us (census, "Raw-HTTP samples"): they do not use the SDKs, and
 * carry habits of their own: the Python user-collection sample sends the `credential` of the
 * authentication as an `AlcUserId` cookie (the real product's name), a JSON body `{}` on every request,
 * GETs included, and reads `voicemail.id` and `devices[].subType` without checking they exist.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClientWorld } from './sdk-client.js'
import { list, object } from './sdk-readers.js'

let world: ClientWorld
beforeAll(async () => {
  world = await ClientWorld.start()
})
afterAll(() => world.close())

/**
 * A request as the Python sample's `Roxe.call` sends it: JSON content type and a `{}` body, always, GETs
 * included (`requests.get(url, data=...)`); fetch refuses a body on GET, so node:http sends it.
 */
function python(
  method: string,
  url: string,
  cookie?: string,
  data: unknown = {},
): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(data)
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(cookie !== undefined && { cookie }),
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: text === '' ? undefined : (JSON.parse(text) as unknown),
          }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

describe('the Python user-collection sample (O2G_Python_user_collection_sample, users.py)', () => {
  it('logs an administrator in with the AlcUserId cookie and reads every user as the sample does', async () => {
    const root = await python('GET', `${world.origin}/api/rest`)
    expect(root.status).toBe(200)
    const version = list(root.body, 'versions')[0]
    const authentication = await fetch(String(version?.['internalUrl']), {
      headers: {
        authorization: `Basic ${Buffer.from('admin:demo-admin').toString('base64')}`,
        'content-type': 'application/json',
      },
    })
    expect(authentication.status).toBe(200)
    const { credential, internalUrl } = object(await authentication.json(), 'authentication')
    const cookie = `AlcUserId=${String(credential)}`
    const session = await python('POST', String(internalUrl), cookie, {
      applicationName: 'Sebastien',
    })
    expect(session.status).toBe(200)
    const baseUrl = String(object(session.body, 'SessionInfo')['privateBaseUrl'])
    const logins = await python('GET', `${baseUrl}/logins`, cookie)
    expect(logins.status).toBe(200)
    const loginNames = list(logins.body, 'loginNames') as unknown as string[]
    expect(loginNames.length).toBeGreaterThan(10)
    for (const loginName of loginNames) {
      const user = await python('GET', `${baseUrl}/users/${loginName}`, cookie)
      expect(user.status).toBe(200)
      const read = object(user.body, 'User')
      if (read['voicemail'] !== undefined) {
        const voicemail = object(read['voicemail'], 'voicemail')
        expect(voicemail['number'], `${loginName}: voicemail.number`).toBeTypeOf('string')
        expect(voicemail['id'], `${loginName}: voicemail.id`).toBeTypeOf('string')
      }
      for (const device of list(read, 'devices')) {
        expect(device['type']).toBeTypeOf('string')
        expect(device['id']).toBeTypeOf('string')
        expect(device['subType'], `${loginName}: device ${device['id']} subType`).toBeTypeOf(
          'string',
        )
      }
      const preferences = await python('GET', `${baseUrl}/users/${loginName}/preferences`, cookie)
      expect(preferences.status).toBe(200)
      const languages = await python(
        'GET',
        `${baseUrl}/users/${loginName}/preferences/supportedLanguages`,
        cookie,
      )
      expect(list(languages.body, 'supportedLanguages').length).toBeGreaterThan(0)
    }
    expect((await python('DELETE', String(internalUrl), cookie)).status).toBe(204)
  })
})
