/**
 * Desk sharing over real sockets (docs/call-model.md, "Desk sharing"): nora, the demo's desk-sharing user (1030),
 * logs on at the set 1900 and is told her number is in service; a call to 1030 then rings her, seen on her event
 * channel with her number as the leg; logged off, she is told it is out of service and a call to 1030 is released.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiWorld } from './api-apps.js'

let world: ApiWorld
beforeEach(async () => {
  world = await ApiWorld.start()
})
afterEach(() => world.close())

const app = (loginName: string) => world.app(loginName, ['telephony'])

describe('desk sharing over real sockets', () => {
  it('a log-on at a set, then a call to the number rings the user there; a log-off, and it is released', async () => {
    const nora = await app('nora')
    const karim = await app('karim')
    const on = await nora.call('POST', '/telephony/deskSharing', { dssDeviceNumber: '1900' })
    expect(on.status).toBe(204)
    expect(await nora.next('OnDeviceStateModified')).toEqual({
      eventName: 'OnDeviceStateModified',
      loginName: 'nora',
      deviceStates: [{ deviceId: '1030', state: 'IN_SERVICE', mutable: true, muted: false }],
    })

    const made = await karim.call('POST', '/telephony/calls', { deviceId: '1011', callee: '1030' })
    expect(made.status).toBe(201)
    const { callRef } = (await karim.next('OnCallCreated')) as { callRef: string }
    expect(await nora.next('OnCallCreated')).toMatchObject({
      callRef,
      legs: [{ deviceId: '1030', state: 'RINGING_INCOMING' }],
    })
    expect((await karim.call('DELETE', `/telephony/calls/${callRef}`)).status).toBe(204)
    expect(await nora.next('OnCallRemoved')).toMatchObject({ callRef })
    expect(await karim.next('OnCallRemoved')).toMatchObject({ callRef })

    expect((await nora.call('DELETE', '/telephony/deskSharing')).status).toBe(204)
    expect(await nora.next('OnDeviceStateModified')).toMatchObject({
      deviceStates: [{ deviceId: '1030', state: 'OUT_OF_SERVICE' }],
    })
    const again = await karim.call('POST', '/telephony/calls', { deviceId: '1011', callee: '1030' })
    expect(again.status).toBe(201)
    expect(await karim.next('OnCallRemoved')).toMatchObject({ cause: 'DESTINATION_NOT_OBTAINABLE' })
  })
})
