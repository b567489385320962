/**
 * A telephony directory for engine tests without the directory service: people by device id (one device each,
 * its id also their number), the engine's view of them, and their devices as the engine starts with them.
 */
import type { TelephonyDirectory } from '../../src/platform/telephony/telephony-directory.js'
import type { DeviceRecord } from '../../src/platform/telephony/telephony-state.js'

/** A person the engine knows by device id. */
export interface TestPerson {
  loginName: string
  firstName: string
  lastName: string
}

/** Four people on devices 1001 to 1004: the engine tests' usual cast. */
export const FOUR_PEOPLE: Readonly<Record<string, TestPerson>> = {
  '1001': { loginName: 'alice', firstName: 'Alice', lastName: 'Martin' },
  '1002': { loginName: 'bob', firstName: 'Bob', lastName: 'Durand' },
  '1003': { loginName: 'carol', firstName: 'Carol', lastName: 'Petit' },
  '1004': { loginName: 'dave', firstName: 'Dave', lastName: 'Roux' },
}

/** The engine's view of `people`: a device's owner, and a dialed device id's destination. */
export function telephonyDirectoryOf(
  people: Readonly<Record<string, TestPerson>>,
): TelephonyDirectory {
  return {
    ownerOfDevice: (deviceId) => people[deviceId],
    resolve: (dialed) => {
      const person = people[dialed]
      return person ? { number: dialed, deviceId: dialed, loginName: person.loginName } : undefined
    },
  }
}

/** The devices of `people`, in service, mutable, not muted. */
export function devicesOf(people: Readonly<Record<string, TestPerson>>): DeviceRecord[] {
  return Object.entries(people).map(([deviceId, person]) => ({
    deviceId,
    loginName: person.loginName,
    state: 'IN_SERVICE',
    mutable: true,
    muted: false,
  }))
}
