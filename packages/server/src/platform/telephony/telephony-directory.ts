/** What the call engine reads of the directory: who owns a device, and what a dialed string reaches. */
import type { Endpoint } from './telephony-state.js'

/** A person as calls show it (PartyInfo). */
export interface PartyPerson {
  loginName: string
  firstName?: string
  lastName?: string
  /** A MULTIMEDIA account (only those may add participants to a call); STANDARD when absent. */
  multimedia?: boolean
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
  /**
   * The call features the platform offers the user (operations/redirect.ts, park.ts, callbacks.ts,
   * media.ts); a directory without it offers none, as the real server did to the captured user.
   */
  featuresOf?(loginName: string): CallFeatures
}

/** The call features of a user: shown as call capabilities, refused (NOT_ALLOWED) when absent. */
export interface CallFeatures {
  /** The number of the user's voice mail: redirect to VOICEMAIL or DVA, overflow to voice mail. */
  voicemail?: string
  park?: boolean
  recording?: boolean
  callBack?: boolean
}
