/**
 * Number formatting through the HTTP layer (specification, "Call control", GET /numbering/canonical and
 * /numbering/dialable; docs/numbering.md): the L rule, no license, the user's dialing rule, errors.
 */
import { Numbering } from '@openness/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectRestError, expectSchema } from '../support/assertions.js'
import { openSession, startTestService, type TestService } from '../support/test-service.js'

const NUMBERING = '/api/rest/1.0/telephony/numbering'

describe('GET /telephony/numbering', () => {
  let service: TestService
  /** Session cookies: alice (Paris, the demo plan), franck (Lyon rule), dave (basic license only). */
  let alice: string
  let dave: string
  let admin: string

  beforeAll(async () => {
    service = await startTestService()
    alice = await openSession(service.app, 'alice')
    dave = await openSession(service.app, 'dave')
    admin = await openSession(service.app, 'admin')
  })
  afterAll(async () => {
    await service.close()
  })

  function get(path: string, query: Record<string, string>, cookie?: string) {
    return service.app.inject({
      method: 'GET',
      url: `${NUMBERING}/${path}`,
      query,
      ...(cookie === undefined ? {} : { headers: { cookie } }),
    })
  }

  describe('canonical', () => {
    it('lays out a number with the default pattern and the rule of the user', async () => {
      const response = await get('canonical', { phoneNumber: '01 55 66 12 34' }, alice)
      expect(expectSchema<Numbering>(Numbering, response)).toEqual({
        canonical: '+33 (1) 55661234',
      })
    })

    it('ignores loginName for a user session', async () => {
      const response = await get(
        'canonical',
        { phoneNumber: '78123456', loginName: 'franck' },
        alice,
      )
      expect(expectSchema<Numbering>(Numbering, response)).toEqual({
        canonical: '+33 (1) 78123456',
      })
    })

    it('needs no license', async () => {
      const response = await get(
        'canonical',
        { phoneNumber: '+1 212 555 1234', resultPattern: '+C-a-xxx-xxxx' },
        dave,
      )
      expect(expectSchema<Numbering>(Numbering, response)).toEqual({ canonical: '+1-212-555-1234' })
    })

    it('uses the rule of the user an administrator names', async () => {
      const response = await get(
        'canonical',
        { phoneNumber: '78123456', loginName: 'franck' },
        admin,
      )
      expect(expectSchema<Numbering>(Numbering, response)).toEqual({
        canonical: '+33 (4) 78123456',
      })
    })

    it('reads isPrefixIncluded as a boolean', async () => {
      const asNational = await get(
        'canonical',
        { phoneNumber: '00155661234', isPrefixIncluded: 'true' },
        alice,
      )
      expect(asNational.json()).toEqual({ canonical: '+33 (1) 55661234' })
      const asInternational = await get(
        'canonical',
        { phoneNumber: '00155661234', isPrefixIncluded: 'false' },
        alice,
      )
      expectRestError(asInternational, 400, 'BAD_PARAMETER', /^query parameter phoneNumber: /)
      const notBoolean = await get(
        'canonical',
        { phoneNumber: '0155661234', isPrefixIncluded: 'maybe' },
        alice,
      )
      expectRestError(notBoolean, 400, 'BAD_PARAMETER', /^query parameter isPrefixIncluded: /)
    })

    it('reads a + that arrived unencoded (a space) as +E.164', async () => {
      const response = await service.app.inject({
        method: 'GET',
        url: `${NUMBERING}/canonical?phoneNumber=+33155661234`,
        headers: { cookie: alice },
      })
      expect(response.json()).toEqual({ canonical: '+33 (1) 55661234' })
    })

    it("answers an extension with the public number that rings it (the plan's publicNumberPrefix)", async () => {
      expect((await get('canonical', { phoneNumber: '1002' }, alice)).json()).toEqual({
        canonical: '+33 (1) 55661002',
      })
      expect(
        (
          await get('canonical', { phoneNumber: '1002', resultPattern: 'A xx xx xx xx' }, alice)
        ).json(),
      ).toEqual({ canonical: '01 55 66 10 02' })
    })

    it('answers a short number that rings nobody from outside, and the private network, as they are', async () => {
      // 8000 is the voice mail: no device, no company phone, so +33155668000 rings nobody.
      expect((await get('canonical', { phoneNumber: '8000' }, alice)).json()).toEqual({
        canonical: '8000',
      })
      expect((await get('canonical', { phoneNumber: '39 12 34' }, alice)).json()).toEqual({
        canonical: '391234',
      })
    })

    it('refuses a bad phone number, a missing one and a bad pattern with 400 BAD_PARAMETER', async () => {
      expectRestError(
        await get('canonical', { phoneNumber: '01 55 66 12 34 ext. 5' }, alice),
        400,
        'BAD_PARAMETER',
        /^query parameter phoneNumber: '01 55 66 12 34 ext. 5' may only hold digits/,
      )
      expectRestError(
        await get('canonical', {}, alice),
        400,
        'BAD_PARAMETER',
        /^query parameter phoneNumber: is required/,
      )
      expectRestError(
        await get('canonical', { phoneNumber: '0155661234', resultPattern: '+C (A) #xxx' }, alice),
        400,
        'BAD_PARAMETER',
        /^query parameter resultPattern: '#' is not allowed/,
      )
    })

    it('needs loginName in an administrator session (400) naming a user (404)', async () => {
      expectRestError(
        await get('canonical', { phoneNumber: '0155661234' }, admin),
        400,
        'BAD_PARAMETER',
        /^query parameter loginName: is required/,
      )
      expectRestError(
        await get('canonical', { phoneNumber: '0155661234', loginName: 'nobody' }, admin),
        404,
        'NOT_FOUND',
        /nobody/,
      )
    })

    it('needs an open session (403 INVALID_SESSION)', async () => {
      expectRestError(await get('canonical', { phoneNumber: '0155661234' }), 403, 'INVALID_SESSION')
      expectRestError(
        await get('canonical', { phoneNumber: '0155661234' }, 'SvcUserId=forged'),
        403,
        'INVALID_SESSION',
      )
    })
  })

  describe('dialable', () => {
    it('adds the external prefix to a public number', async () => {
      const response = await get('dialable', { phoneNumber: '+33 1 55 66 12 34' }, alice)
      expect(expectSchema<Numbering>(Numbering, response)).toEqual({ dialable: '00155661234' })
    })

    it('answers what a CRM connector reads: dialable, for phoneNumber and loginName', async () => {
      const response = await get(
        'dialable',
        { phoneNumber: '+49 1512 3456789', loginName: 'alice' },
        alice,
      )
      expect(response.json()).toEqual({ dialable: '0004915123456789' })
    })

    it('dials extensions and exception-rule numbers without the prefix', async () => {
      expect((await get('dialable', { phoneNumber: '1002' }, alice)).json()).toEqual({
        dialable: '1002',
      })
      expect((await get('dialable', { phoneNumber: '39 12 34' }, alice)).json()).toEqual({
        dialable: '391234',
      })
      // Franck's own rule has no exception: the same number needs the prefix.
      expect(
        (await get('dialable', { phoneNumber: '39 12 34', loginName: 'franck' }, admin)).json(),
      ).toEqual({ dialable: '0391234' })
    })

    it("dials the company's own public numbers as their extensions", async () => {
      expect((await get('dialable', { phoneNumber: '+33 1 55 66 10 02' }, alice)).json()).toEqual({
        dialable: '1002',
      })
      expect((await get('dialable', { phoneNumber: '01 55 66 10 02' }, alice)).json()).toEqual({
        dialable: '1002',
      })
      // One of the company's range that rings nobody goes out like any public number.
      expect((await get('dialable', { phoneNumber: '+33 1 55 66 80 00' }, alice)).json()).toEqual({
        dialable: '00155668000',
      })
    })

    it('keeps a number that already has the prefix', async () => {
      const response = await get(
        'dialable',
        { phoneNumber: '0 01 55 66 12 34', isPrefixIncluded: 'true' },
        alice,
      )
      expect(response.json()).toEqual({ dialable: '00155661234' })
    })

    it('answers the same errors as canonical', async () => {
      expectRestError(
        await get('dialable', { phoneNumber: '+999 1234' }, alice),
        400,
        'BAD_PARAMETER',
        /^query parameter phoneNumber: /,
      )
      expectRestError(
        await get('dialable', { phoneNumber: '0155661234' }, admin),
        400,
        'BAD_PARAMETER',
        /loginName/,
      )
      expectRestError(
        await get('dialable', { phoneNumber: '0155661234', loginName: 'nobody' }, admin),
        404,
        'NOT_FOUND',
      )
      expectRestError(await get('dialable', { phoneNumber: '0155661234' }), 403, 'INVALID_SESSION')
    })
  })
})
