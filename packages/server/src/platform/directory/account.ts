/** The accounts of the directory as the platform holds them: users and administrators. */

import type { ClirMode, User, UserPreferences, UserRight } from '@openness/wire'
import type { ContactCenterDefinition } from '../acd/contact-center.js'
import type { HuntingGroupDefinition } from '../telephony/hunting-groups.js'
import type { OutsidePartyRule } from './directory-file-schema.js'

/** The provisioned part of a user: the User record of the specification plus the telephony setting. */
export interface UserRecord extends Omit<User, 'dialingRule'> {
  loginName: string
  type: NonNullable<User['type']>
  apiRights: UserRight[]
  /** Calling line identity restriction as the platform configures it for this user. */
  clirMode: ClirMode
  /** A user-specific dialing rule; when absent the numbering plan's applies. */
  dialingRule?: User['dialingRule']
  /**
   * The pickup group the user is in, by name (docs/directory-file.md, "Pickup groups"): the user may pick
   * up calls ringing on the other users of the group. Not a User field: the API does not show it.
   */
  pickupGroup?: string
  /** The user may intrude into the call of a busy user it calls (docs/directory-file.md, "Intrusion"). */
  intrusion?: boolean
  /** Nobody may intrude into a call of the user. */
  intrusionProtection?: boolean
  /**
   * A desk-sharing user: its one device is its number, in service only while the user is logged on at a
   * desk-sharing set (docs/directory-file.md, "Desk sharing"). Not a User field.
   */
  deskSharing?: boolean
}

/** An administrator account; a supervisor may open supervised sessions. */
export interface AdministratorRecord {
  loginName: string
  firstName?: string
  lastName?: string
  supervisor: boolean
}

/** An account as the durable store keeps it. */
export type StoredAccount =
  | {
      kind: 'USER'
      loginName: string
      record: UserRecord
      passwordHash?: string
      /** Set when the password was changed through the API; the directory file then no longer rules it. */
      passwordChangedAt?: string
      preferences: UserPreferences
    }
  | {
      kind: 'ADMINISTRATOR'
      loginName: string
      record: AdministratorRecord
      passwordHash?: string
      passwordChangedAt?: string
      preferences: UserPreferences
    }

/** A user account of the directory. */
export type UserAccount = Extract<StoredAccount, { kind: 'USER' }>

/** The numbering plan of the platform (design section 5). */
export interface NumberingPlan {
  /** ISO 3166 alpha-2 country of the platform. */
  countryCode: string
  areaCode?: string
  /** Outside-line prefix. */
  externalPrefix: string
  /** Numbers longer than this get the external prefix when dialed. */
  addPfxForNbLength: number
  exceptionRules: { lengthException: number; beginPatternException: string }[]
  extensionLength: number
  voicemailNumber?: string
  /** Public numbers of the platform are this prefix followed by an extension (incoming calls). */
  publicNumberPrefix?: string
}

/** Directory-wide settings. */
export interface DirectorySettings {
  companyName: string
  nodeId: string
  numberingPlan: NumberingPlan
  /** Installed license counts, by right. */
  licenses: Record<UserRight, number>
  /**
   * The contact center's license counts the file gives (`licenses.CONTACTCENTER_AGENT`, `CONTACTCENTER_SERVICE`):
   * kept apart from `licenses`, whose keys are the specification's user rights. Nothing counts them yet.
   */
  contactCenterLicenses?: ContactCenterLicenses
  languages: { gui: string[]; tui: string[] }
  /** What outside numbers do when called (the directory file's `outsideParties`); none when absent. */
  outsideParties?: OutsidePartyRule[]
  /**
   * The directory file's hunting groups, as the call engine takes them (docs/groups.md, "Where groups
   * live"): the engine's own groups follow these when the file changes.
   */
  huntingGroups?: HuntingGroupDefinition[]
  /** The directory file's supervision groups (docs/groups.md, "Supervision groups"); none when absent. */
  supervisionGroups?: SupervisionGroup[]
  /** The desk-sharing sets (the directory file's `deskSharingSets`); none when absent. */
  deskSharingSets?: DeskSharingSet[]
  /**
   * The directory file's contact center, as the call engine takes it (times in milliseconds, the defaults filled
   * in): the engine's follows it when it changes (engine-acd.ts). None when absent.
   */
  contactCenter?: ContactCenterDefinition
}

/** The contact center's licenses of the directory file, by name; absent: not given. */
export interface ContactCenterLicenses {
  CONTACTCENTER_AGENT?: number
  CONTACTCENTER_SERVICE?: number
}

/** Supervisors and the users they supervise. */
export interface SupervisionGroup {
  name: string
  supervisors: string[]
  supervised: string[]
}

/** A desk-sharing set: a number of the plan where a desk-sharing user logs on. */
export interface DeskSharingSet {
  number: string
  label?: string
}
