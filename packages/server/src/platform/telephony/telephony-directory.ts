/** What the call engine reads of the directory: who owns a device, and what a dialed string reaches. */
import type { Endpoint } from './telephony-state.js'

/** A person as calls show it (PartyInfo). */
export interface PartyPerson {
  loginName: string
  firstName?: string
  lastName?: string
}

/** The read-only directory port of the engine. */
export interface TelephonyDirectory {
  /** The user a device number belongs to. */
  ownerOfDevice(deviceId: string): PartyPerson | undefined
  /**
   * The endpoint a dialed string reaches: a device number, a user's login name (its main device), or an
   * outside number after the outside-line prefix; undefined when nothing answers to it.
   */
  resolve(dialed: string): Endpoint | undefined
}
