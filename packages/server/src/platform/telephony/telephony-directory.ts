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
  /** Whether the device is a MOBILE one: a call reaching it also appears as OnCallAppeared (call-events.ts). */
  isMobile?(deviceId: string): boolean
  /**
   * The call features the platform offers the user (operations/redirect.ts, park.ts, callbacks.ts,
   * media.ts); a directory without it offers none, as the real server did to the captured user.
   */
  featuresOf?(loginName: string): CallFeatures
  /**
   * What an outside number does when called (the directory file's `outsideParties` rules); undefined: it
   * rings until the ringing timeout (operations/ringing.ts).
   */
  outsideBehaviour?(number: string): OutsideBehaviour | undefined
  /**
   * The device an incoming call from outside to `dialed` rings: a public number of the platform (mapped to
   * its extension) or an extension; undefined when it reaches no device. Without it, `resolve` is used.
   */
  resolveIncoming?(dialed: string): Endpoint | undefined
  /**
   * The extension an incoming call to `dialed` is for: `dialed` without the company's public-number prefix
   * (a hunting group's number is reached from outside so); `dialed` itself when it has no such prefix.
   */
  extensionOf?(dialed: string): string
  /**
   * Whether the user is a desk-sharing user (the directory file's `deskSharing`): its number is in service only
   * while it is logged on at a desk-sharing set (operations/desk-sharing.ts). Absent: nobody is.
   */
  isDeskSharingUser?(loginName: string): boolean
  /** Whether the number is a desk-sharing set of the directory file (`deskSharingSets`). Absent: none is. */
  isDeskSharingSet?(number: string): boolean
  /**
   * The supervision groups the user is supervised in, each with its supervisors (docs/groups.md, "Supervision
   * groups"): they are told when the user's state changes. None when absent.
   */
  supervisorsOf?(loginName: string): readonly Supervision[]
}

/** A supervision group a user is supervised in: its id in the groups resource, and who supervises. */
export interface Supervision {
  groupId: string
  supervisors: readonly string[]
}

/** How an outside party behaves when the platform calls it (docs/call-model.md, "Outside parties"). */
export interface OutsideBehaviour {
  /** ANSWER after `afterMs`; BUSY at once; NO_ANSWER: rings until the ringing timeout; REJECT after `afterMs`. */
  kind: 'ANSWER' | 'BUSY' | 'NO_ANSWER' | 'REJECT'
  /** ANSWER, REJECT: how long the party rings first (0 when absent). */
  afterMs?: number
  /** ANSWER: once answered, the party hangs up after this long (never when absent). */
  hangUpAfterMs?: number
}

/** The call features of a user: shown as call capabilities, refused (NOT_ALLOWED) when absent. */
export interface CallFeatures {
  /** The number of the user's voice mail: redirect to VOICEMAIL or DVA, overflow to voice mail. */
  voicemail?: string
  park?: boolean
  recording?: boolean
  callBack?: boolean
  /**
   * The user's pickup group: a directed pickup takes only a call ringing on a user of the same group
   * (operations/redirect.ts); none, no pickup of another user's call.
   */
  pickupGroup?: string
  /**
   * The user may intrude: join the call of a busy user it is calling (operations/intrusion.ts). Given by the
   * directory file's `intrusion`.
   */
  intrusion?: boolean
  /** Nobody may intrude into a call the user is in (the directory file's `intrusionProtection`). */
  intrusionProtection?: boolean
}
