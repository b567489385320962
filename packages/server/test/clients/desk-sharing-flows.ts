/**
 * Client flows of desk sharing (client census 2, 5a; docs/telephony-api.md, "Desk sharing"): POST
 * /telephony/deskSharing with `{dssDeviceNumber}` and DELETE with no body, as every SDK sends them (`loginName`
 * only for administrators; the SDKs read the status only). nora (1030) is the demo's desk-sharing user, 1900 a
 * set: logged on, her number goes in service (OnDeviceStateModified) and a call to it rings her.
 */
import { expect } from 'vitest'
import { covered, type Flow, hangUp, makeCallBody, onlyCall, party } from './flow-support.js'
import { nextEvent, SdkClient } from './sdk-client.js'
import { object, readOnCallCreated } from './sdk-readers.js'

/** The state of nora's number in an OnDeviceStateModified. */
function numberState(event: Record<string, unknown>): unknown {
  const states = event['deviceStates'] as { deviceId: string; state: string }[]
  return states.find((device) => device.deviceId === '1030')?.state
}

export const DESK_SHARING_FLOWS: readonly Flow[] = [
  {
    name: 'desk sharing: log on at a set, a call to the number rings there, log off (twice)',
    async run(world, profile, coverage) {
      const nora = await party(world, profile, 'nora')
      covered(
        coverage,
        'POST /telephony/deskSharing',
        await nora.client.request('POST', 'telephony', '/deskSharing', {
          body: { dssDeviceNumber: '1900' },
        }),
      )
      const on = object(await nextEvent(nora.channel, 'OnDeviceStateModified'), 'event')
      expect(numberState(on)).toBe('IN_SERVICE')

      const karim = await SdkClient.login(world, profile, 'karim')
      covered(
        coverage,
        'POST /telephony/calls',
        await karim.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1011', '1030'),
        }),
      )
      const created = readOnCallCreated(await nextEvent(nora.channel, 'OnCallCreated'))
      expect((created['legs'] as { deviceId: string }[]).map((leg) => leg.deviceId)).toEqual([
        '1030',
      ])
      expect((await hangUp(karim, await onlyCall(karim))).status).toBeLessThan(300)

      covered(
        coverage,
        'DELETE /telephony/deskSharing',
        await nora.client.request('DELETE', 'telephony', '/deskSharing'),
      )
      const off = object(await nextEvent(nora.channel, 'OnDeviceStateModified'), 'event')
      expect(numberState(off)).toBe('OUT_OF_SERVICE')
      // Logged on nowhere: the log-off succeeds and changes nothing.
      covered(
        coverage,
        'DELETE /telephony/deskSharing',
        await nora.client.request('DELETE', 'telephony', '/deskSharing'),
      )
    },
  },
]
