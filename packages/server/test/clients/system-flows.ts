/**
 * Client flows of the maintenance service (wire facts 8.6; census, `maintenance`): the system status as each
 * SDK requests it (N, C# and JS at `<maintenance>/status` from SessionInfo, J at its fixed
 * `<privateBaseUrl>/system/status`; C#'s IsLicenseExist adds `?lic=`) and reads it (C# and J: `nodeId`,
 * `total`, `currentUsed`, `monitoredUserNumber` ints, `startDate` a date; C# case-sensitive, `lics`), and a
 * `system` event as each reads it (`nodeId` a string of digits: J parses it with Integer.parseInt).
 */
import { expect } from 'vitest'
import { covered, type Flow } from './flow-support.js'
import { type ClientProfile, nextEvent, SdkClient } from './sdk-client.js'
import { list, object } from './sdk-readers.js'

type Json = Record<string, unknown>

/** The subscription each SDK sends for maintenance events (N `addMaintenanceEvents`, ids []). */
function systemSubscription(profile: ClientProfile): unknown {
  const selectors = [{ names: ['system'], ...(profile.tag === 'N' && { ids: [] }) }]
  return { filter: { selectors }, version: '1.0', timeout: profile.tag === 'N' ? 0 : 10 }
}

/** SystemStatus as the SDKs read it. */
function readSystemStatus(value: unknown): Json {
  const status = object(value, 'SystemStatus')
  expect(Number.isNaN(Date.parse(String(status['startDate']))), 'startDate').toBe(false)
  expect(status['ha'], 'ha').toBeTypeOf('boolean')
  object(status['logicalAddress'], 'logicalAddress')
  for (const pbx of list(status, 'pbxs')) {
    for (const key of ['nodeId', 'monitoredUserNumber'])
      expect(Number.isInteger(pbx[key]), `PbxStatus.${key}`).toBe(true)
    for (const key of ['connected', 'loaded', 'secured'])
      expect(pbx[key], `PbxStatus.${key}`).toBeTypeOf('boolean')
    expect(['CONNECTED_MAIN', 'CONNECTED_SECONDARY', 'DISCONNECTED']).toContain(pbx['ctiLinkState'])
  }
  const license = object(status['license'], 'license')
  expect(['FLEXLM', 'LMS']).toContain(license['type'])
  for (const lic of list(license, 'lics')) {
    expect(lic['name'], 'License.name').toBeTypeOf('string')
    expect(Number.isInteger(lic['total']) && Number.isInteger(lic['currentUsed'])).toBe(true)
  }
  expect(['PBX_MANAGEMENT', 'FULL_SERVICES']).toContain(status['configurationType'])
  return status
}

/** The status request of one SDK. */
function getStatus(client: SdkClient, profile: ClientProfile, query?: Record<string, string>) {
  if (profile.tag === 'J')
    return client.send('GET', `${client.sessionInfo?.privateBaseUrl}/system/status`)
  return client.request('GET', 'maintenance', '/status', query ? { query } : {})
}

export const SYSTEM_FLOWS: readonly Flow[] = [
  {
    name: 'the system status of an administrator session, and a CTI link down and up as events',
    async run(world, profile, coverage) {
      const admin = await SdkClient.login(world, profile, 'admin')
      const channel = await admin.subscribe(systemSubscription(profile))
      const status = readSystemStatus(
        covered(coverage, 'GET /system/status', await getStatus(admin, profile)).body,
      )
      const [pbx] = list(status, 'pbxs')
      expect(pbx?.['ctiLinkState']).toBe('CONNECTED_MAIN')
      if (profile.tag === 'C#') {
        // IsLicenseExist: a 2xx answer means the license exists.
        const exists = await getStatus(admin, profile, { lic: 'TELEPHONY_ADVANCED' })
        expect(exists.status).toBe(200)
        expect((await getStatus(admin, profile, { lic: 'NOT_A_LICENSE' })).status).toBe(404)
      }

      const { system } = world.service.running.platform
      await system.setCtiLink(false)
      const down = await nextEvent(channel, 'OnCtiLinkDown')
      // Every SDK reads nodeId from a string (J: Integer.parseInt, C#: its string adapter).
      expect(down['nodeId']).toBe(String(pbx?.['nodeId']))
      const after = readSystemStatus((await getStatus(admin, profile)).body)
      expect(list(after, 'pbxs')[0]?.['ctiLinkState']).toBe('DISCONNECTED')
      await system.setCtiLink(true)
      expect((await nextEvent(channel, 'OnCtiLinkUp'))['nodeId']).toBe(down['nodeId'])
    },
  },
  {
    name: 'the system status is refused to a user session, which SessionInfo gives no maintenance service',
    async run(world, profile) {
      const alice = await SdkClient.login(world, profile, 'alice')
      expect(alice.services.has('maintenance')).toBe(false)
      // The Java SDK requests it anyway, at its fixed path.
      const refused = await alice.send('GET', `${alice.sessionInfo?.privateBaseUrl}/system/status`)
      expect(refused.status).toBe(403)
      expect(object(refused.body, 'RestErrorInfo')['type']).toBe('NOT_ALLOWED')
    },
  },
]
