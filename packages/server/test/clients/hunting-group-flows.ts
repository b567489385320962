/**
 * Client flows of hunting groups (client census 2, 5a; docs/groups.md): the six telephony operations as each SDK
 * sends them (no body, `loginName` only for administrators), the answers read as each SDK reads them (the C# SDK
 * reads `Logon`, the others `logon`), OnDynamicStateChanged likewise, and a call to a group seen by its member.
 */
import { expect } from 'vitest'
import { covered, type Flow, makeCallBody, onlyCall, party } from './flow-support.js'
import { type ClientProfile, nextEvent, SdkClient } from './sdk-client.js'
import { object, readOnCallCreated } from './sdk-readers.js'

/** The log-on state as the SDK's HuntingGroupStatus reads it. */
function readLogon(value: unknown, profile: ClientProfile): unknown {
  const status = object(value, 'HuntingGroupStatus')
  return status[profile.tag === 'C#' ? 'Logon' : 'logon']
}

/** HuntingGroups `{hgList?, currentHg?}`. */
function readHuntingGroups(value: unknown): { hgList: unknown; currentHg: unknown } {
  const groups = object(value, 'HuntingGroups')
  return { hgList: groups['hgList'], currentHg: groups['currentHg'] }
}

export const HUNTING_GROUP_FLOWS: readonly Flow[] = [
  {
    name: 'hunting groups: the list, the status, log off and on (OnDynamicStateChanged), join and leave',
    async run(world, profile, coverage) {
      const alice = await party(world, profile, 'alice')
      const tel = (client: SdkClient, method: string, path: string) =>
        client.request(method, 'telephony', path)
      const listed = covered(
        coverage,
        'GET /telephony/huntingGroups',
        await tel(alice.client, 'GET', '/huntingGroups'),
      )
      expect(readHuntingGroups(listed.body)).toEqual({
        hgList: ['2100', '2200'],
        currentHg: '2100',
      })
      const status = () => tel(alice.client, 'GET', '/huntingGroupLogOn')
      expect(
        readLogon(
          covered(coverage, 'GET /telephony/huntingGroupLogOn', await status()).body,
          profile,
        ),
      ).toBe(true)

      covered(
        coverage,
        'DELETE /telephony/huntingGroupLogOn',
        await tel(alice.client, 'DELETE', '/huntingGroupLogOn'),
      )
      const off = object(await nextEvent(alice.channel, 'OnDynamicStateChanged'), 'event')
      expect(off['loginName']).toBe('alice')
      expect(readLogon(off['huntingGroupState'], profile)).toBe(false)
      expect(readLogon((await status()).body, profile)).toBe(false)
      covered(
        coverage,
        'POST /telephony/huntingGroupLogOn',
        await tel(alice.client, 'POST', '/huntingGroupLogOn'),
      )
      const on = object(await nextEvent(alice.channel, 'OnDynamicStateChanged'), 'event')
      expect(readLogon(on['huntingGroupState'], profile)).toBe(true)

      const karim = await SdkClient.login(world, profile, 'karim')
      covered(
        coverage,
        'POST /telephony/huntingGroupMember/{}',
        await tel(karim, 'POST', '/huntingGroupMember/2100'),
      )
      expect(readHuntingGroups((await tel(karim, 'GET', '/huntingGroups')).body).currentHg).toBe(
        '2100',
      )
      covered(
        coverage,
        'DELETE /telephony/huntingGroupMember/{}',
        await tel(karim, 'DELETE', '/huntingGroupMember/2100'),
      )
      expect(
        readHuntingGroups((await tel(karim, 'GET', '/huntingGroups')).body).currentHg,
      ).toBeUndefined()
    },
  },
  {
    name: 'hunting groups: a call to the group rings its member, who answers',
    async run(world, profile, coverage) {
      const alice = await party(world, profile, 'alice')
      const karim = await SdkClient.login(world, profile, 'karim')
      covered(
        coverage,
        'POST /telephony/calls',
        await karim.request('POST', 'telephony', '/calls', {
          body: makeCallBody(profile, '1011', '2100'),
        }),
      )
      const created = readOnCallCreated(await nextEvent(alice.channel, 'OnCallCreated'))
      expect(created['cause']).toBe('DISTRIBUTED')
      const callRef = await onlyCall(alice.client)
      expect(created['callRef']).toBe(callRef)
      covered(
        coverage,
        'POST /telephony/calls/{}/answer',
        await alice.client.request('POST', 'telephony', `/calls/${callRef}/answer`, {
          body: { deviceId: '1001' },
        }),
      )
    },
  },
]
