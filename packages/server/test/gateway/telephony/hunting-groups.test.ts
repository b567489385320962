/**
 * The hunting-group operations of the telephony API as the SDKs send them (docs/groups.md, "The telephony API";
 * client census 2, 5a), on the demo directory: 2100 Sales (alice, bob; users join and leave it), 2200 Warehouse
 * (franck, gaelle; closed). Each asserts the status, the body, and the state that follows.
 */
import { HuntingGroupStatus, HuntingGroups } from '@openness/wire'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../../support/assertions.js'
import { startTelephonyTest, T, type TelephonyTest } from './support.js'

let test: TelephonyTest
beforeEach(async () => {
  test = await startTelephonyTest()
})
afterEach(() => test.close())

async function status(login: 'alice' | 'bob' | 'carol' | 'karim') {
  return expectSchema<HuntingGroupStatus>(
    HuntingGroupStatus,
    await test.send(login, 'GET', `${T}/huntingGroupLogOn`),
  )
}

describe('log on and off', () => {
  it('a member is logged on at first; DELETE logs it off, POST back on; the same twice changes nothing', async () => {
    expect(await status('alice')).toEqual({ logon: true })
    for (const _ of [1, 2]) {
      const off = await test.send('alice', 'DELETE', `${T}/huntingGroupLogOn`)
      expect(off.statusCode, off.body).toBe(204)
      expect(await status('alice')).toEqual({ logon: false })
    }
    const on = await test.send('alice', 'POST', `${T}/huntingGroupLogOn`)
    expect(on.statusCode, on.body).toBe(204)
    expect(await status('alice')).toEqual({ logon: true })
  })

  it('a user in no group is logged on in none, and cannot log on: 403 NOT_EXPECTED', async () => {
    expect(await status('karim')).toEqual({ logon: false })
    expectRestError(
      await test.send('karim', 'POST', `${T}/huntingGroupLogOn`),
      403,
      'NOT_EXPECTED',
      /'karim' is a member of no hunting group/,
    )
    expect(await status('karim')).toEqual({ logon: false })
  })

  it('an administrator acts for the user named by loginName', async () => {
    const off = await test.send('admin', 'DELETE', `${T}/huntingGroupLogOn?loginName=bob`)
    expect(off.statusCode, off.body).toBe(204)
    expect(await status('bob')).toEqual({ logon: false })
  })

  it('a client without a User-Agent (the C# SDK) also gets `Logon`', async () => {
    const response = await test.service.app.inject({
      method: 'GET',
      url: `${T}/huntingGroupLogOn`,
      headers: { cookie: test.cookies.alice, 'user-agent': '' },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(JSON.parse(response.body)).toEqual({ logon: true, Logon: true })
  })
})

describe('join, leave and list', () => {
  it('lists every group and the current one', async () => {
    expect(
      expectSchema<HuntingGroups>(
        HuntingGroups,
        await test.send('bob', 'GET', `${T}/huntingGroups`),
      ),
    ).toEqual({ hgList: ['2100', '2200'], currentHg: '2100' })
    expect(
      expectSchema<HuntingGroups>(
        HuntingGroups,
        await test.send('karim', 'GET', `${T}/huntingGroups`),
      ),
    ).toEqual({ hgList: ['2100', '2200'] })
  })

  it('joins a group that allows it (logged on), leaves it, and the same twice changes nothing', async () => {
    for (const _ of [1, 2]) {
      const joined = await test.send('karim', 'POST', `${T}/huntingGroupMember/2100`)
      expect(joined.statusCode, joined.body).toBe(204)
    }
    expect((await test.send('karim', 'GET', `${T}/huntingGroups`)).json()).toEqual({
      hgList: ['2100', '2200'],
      currentHg: '2100',
    })
    expect(await status('karim')).toEqual({ logon: true })
    for (const _ of [1, 2]) {
      const left = await test.send('karim', 'DELETE', `${T}/huntingGroupMember/2100`)
      expect(left.statusCode, left.body).toBe(204)
    }
    expect((await test.send('karim', 'GET', `${T}/huntingGroups`)).json()).toEqual({
      hgList: ['2100', '2200'],
    })
  })

  it('refuses an unknown group (404) and a closed group (403 NOT_ALLOWED), and changes nothing', async () => {
    expectRestError(
      await test.send('karim', 'POST', `${T}/huntingGroupMember/2999`),
      404,
      'NOT_FOUND',
      /No hunting group '2999'/,
    )
    expectRestError(
      await test.send('karim', 'POST', `${T}/huntingGroupMember/2200`),
      403,
      'NOT_ALLOWED',
      /Hunting group 2200 does not let users join it themselves/,
    )
    const admin = await test.send('admin', 'POST', `${T}/huntingGroupMember/2200?loginName=alice`)
    expectRestError(admin, 403, 'NOT_ALLOWED')
    expect((await test.send('karim', 'GET', `${T}/huntingGroups`)).json()).toEqual({
      hgList: ['2100', '2200'],
    })
  })
})

describe('a call to a group through the API', () => {
  it('the caller sees the group ring, then the member who answered', async () => {
    const callRef = await test.makeCall('karim', '1011', '2100')
    const ringing = (await test.send('karim', 'GET', `${T}/calls/${callRef}`)).json()
    expect(ringing.participants).toEqual([
      {
        participantId: '2100',
        identity: { id: { phoneNumber: '2100' }, type: { main: 'SERVICE' } },
      },
    ])
    // CIRCULAR, nobody served yet: alice first.
    await test.answer('alice', callRef, '1001')
    const answered = (await test.send('karim', 'GET', `${T}/calls/${callRef}`)).json()
    expect(answered.callData.state).toBe('ACTIVE')
    expect(answered.participants.map((p: { participantId: string }) => p.participantId)).toEqual([
      '1001',
    ])
  })
})
