/**
 * Issue 34 over real sockets: a call to the demo's Sales group (2100: alice then bob, CIRCULAR, 15 s each) is
 * offered to alice, moves on to bob after the no-answer time (virtual clock) and is answered by him; a member
 * logging off and on is told on its channel, and the other member sees the group change (package groups); a
 * supervisor is told when a user it supervises becomes busy. Each user sees it on its own event channel.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiWorld } from './api-apps.js'

const NO_ANSWER_MS = 15_000

let world: ApiWorld
beforeEach(async () => {
  world = await ApiWorld.start()
})
afterEach(() => world.close())

const app = (loginName: string) => world.app(loginName, ['telephony'])

describe('hunting groups over real sockets', () => {
  it('a call to the group is answered by the second member after the first let it ring', async () => {
    const karim = await app('karim')
    const alice = await app('alice')
    const bob = await app('bob')
    const made = await karim.call('POST', '/telephony/calls', { deviceId: '1011', callee: '2100' })
    expect(made.status).toBe(201)
    const created = await karim.next('OnCallCreated')
    const { callRef } = created as { callRef: string }
    expect(created).toMatchObject({
      callData: { initialCalled: { id: { phoneNumber: '2100' } }, state: 'RINGING_OUTGOING' },
      participants: [{ participantId: '2100', identity: { type: { main: 'SERVICE' } } }],
    })
    expect(await alice.next('OnCallCreated')).toMatchObject({
      callRef,
      cause: 'DISTRIBUTED',
      legs: [{ deviceId: '1001', state: 'RINGING_INCOMING' }],
    })

    await world.service.clock.advance(NO_ANSWER_MS)
    expect(await alice.next('OnCallRemoved')).toMatchObject({ callRef, cause: 'NOT_ANSWERED' })
    expect(await bob.next('OnCallCreated')).toMatchObject({ callRef, cause: 'DISTRIBUTED' })

    const answered = await bob.call('POST', `/telephony/calls/${callRef}/answer`, {
      deviceId: '1002',
    })
    expect(answered.status).toBe(204)
    expect(await karim.next('OnCallModified')).toMatchObject({
      callRef,
      callData: { state: 'ACTIVE' },
      removedParticipantIds: ['2100'],
      addedParticipants: [{ participantId: '1002', identity: { id: { loginName: 'bob' } } }],
    })
    expect(await bob.next('OnCallModified')).toMatchObject({
      callRef,
      modifiedLegs: [{ deviceId: '1002', state: 'ACTIVE' }],
    })
  })

  it('a member logging off and on is told each time on its channel, and so is the group', async () => {
    const alice = await world.app('alice', ['telephony', 'groups'])
    const bob = await world.app('bob', ['groups'])
    expect((await alice.call('DELETE', '/telephony/huntingGroupLogOn')).status).toBe(204)
    expect(await alice.next('OnDynamicStateChanged')).toEqual({
      eventName: 'OnDynamicStateChanged',
      loginName: 'alice',
      huntingGroupState: { logon: false },
    })
    // The other member sees alice logged off in the group (package groups).
    expect(await bob.next('OnGroupModified')).toMatchObject({
      loginName: 'bob',
      group: {
        groupId: 'hunting-2100',
        members: [
          { loginName: 'alice', role: 'AGENT', logon: false },
          { loginName: 'bob', role: 'AGENT', logon: true },
        ],
      },
    })
    expect((await alice.call('POST', '/telephony/huntingGroupLogOn')).status).toBe(204)
    expect(await alice.next('OnDynamicStateChanged')).toMatchObject({
      huntingGroupState: { logon: true },
    })
    expect(await alice.next('OnGroupModified')).toMatchObject({
      group: { members: [{ loginName: 'alice', logon: true }, { loginName: 'bob' }] },
    })
  })

  it("a supervisor is told when a supervised user's state changes", async () => {
    const henri = await world.app('henri', ['groups'])
    const franck = await app('franck')
    const gaelle = await app('gaelle')
    const made = await franck.call('POST', '/telephony/calls', { deviceId: '1006', callee: '1007' })
    expect(made.status).toBe(201)
    const { callRef } = (await franck.next('OnCallCreated')) as { callRef: string }
    expect(await gaelle.next('OnCallCreated')).toMatchObject({ callRef })
    const answered = await gaelle.call('POST', `/telephony/calls/${callRef}/answer`, {
      deviceId: '1007',
    })
    expect(answered.status).toBe(204)
    const told = [await henri.next('OnSupervisedUpdated'), await henri.next('OnSupervisedUpdated')]
    expect(told.map((event) => event['supervised'])).toEqual([
      { loginName: 'franck', state: 'BUSY' },
      { loginName: 'gaelle', state: 'BUSY' },
    ])
    expect(told[0]).toMatchObject({ loginName: 'henri', groupId: 'supervision-warehouse' })
  })
})
