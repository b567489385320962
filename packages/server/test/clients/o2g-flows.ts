/**
 * Client flows of the O2G additions the SDKs call on the telephony service (client census 2, section 5a):
 * reconnect, intrusion and the interphony key, each sent as its SDK sends it (client-flows.ts).
 */
import { expect } from 'vitest'
import {
  answeredCall,
  covered,
  type Flow,
  hangUp,
  makeCallBody,
  onlyCall,
  party,
} from './flow-support.js'
import { list, object, readCall, readDeviceState } from './sdk-readers.js'

export const O2G_FLOWS: readonly Flow[] = [
  {
    name: 'O2G additions: reconnect a consultation, intrude into a busy call, the interphony key',
    async run(world, profile, coverage) {
      const [alice, bob, karim] = [
        await party(world, profile, 'alice'),
        await party(world, profile, 'bob'),
        await party(world, profile, 'karim'),
      ]
      const callsOf = async (client: typeof alice.client) =>
        list((await client.request('GET', 'telephony', '/calls')).body, 'calls').map(readCall)
      // alice holds bob by calling karim, then cancels the consultation before karim answers.
      const held = await answeredCall(alice, bob, '1001', '1002', coverage, profile)
      await alice.client.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '1011'),
      })
      const enquiry = String(
        (await callsOf(alice.client)).find((c) => c['callRef'] !== held)?.['callRef'],
      )
      covered(
        coverage,
        'POST /telephony/calls/{}/reconnect',
        await alice.client.request('POST', 'telephony', `/calls/${held}/reconnect`, {
          body: { deviceId: '1001', enquiryCallRef: enquiry },
        }),
      )
      const after = await callsOf(alice.client)
      expect(after.map((call) => call['callRef'])).toEqual([held])
      expect(JSON.stringify(after[0]?.['legs'])).toContain('ACTIVE')
      // karim calls alice, busy with bob: his SDK reads that he may intrude (CallData.capabilities.intrusion).
      await karim.client.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1011', '1001'),
      })
      const [waiting] = await callsOf(karim.client)
      const capabilities = object(
        object(waiting?.['callData'], 'CallData')['capabilities'],
        'CallData.capabilities',
      )
      expect(capabilities['intrusion']).toBe(true)
      covered(
        coverage,
        'POST /telephony/devices/{}/intrusion',
        await karim.client.request('POST', 'telephony', '/devices/1011/intrusion'),
      )
      expect(await onlyCall(karim.client)).toBe(held)
      // The interphony key in the call: the Node SDK PUTs, the Java SDK POSTs (C# and the browser have none).
      if (profile.tag === 'N' || profile.tag === 'J') {
        const method = profile.tag === 'N' ? 'PUT' : 'POST'
        covered(
          coverage,
          `${method} /telephony/devices/{}/ithmicro`,
          await alice.client.request(method, 'telephony', '/devices/1001/ithmicro'),
        )
        const device = readDeviceState(
          (await alice.client.request('GET', 'telephony', '/devices/1001')).body,
        )
        expect(device['muted']).toBe(true)
      }
      await hangUp(alice.client, held)
    },
  },
]
