/**
 * The directory file's schema (docs/directory-file.md), as TypeBox records: what each entry holds, its
 * types and its forms. Unknown keys are errors, since the file is written by hand. The checks a schema
 * cannot express (uniqueness, references, rules that depend on the user type) are in
 * directory-document-checks.ts.
 */
import {
  ApplicationRight,
  ClirMode,
  CustomAttributes,
  Device,
  DeviceType,
  DialingRule,
  ExceptionRule,
  enumeration,
  LANGUAGE_PATTERN,
  Salutation,
  UserPreferences,
  UserRight,
  UserType,
  Voicemail,
} from '@openness/wire'
import { type Static, type TSchema, Type } from 'typebox'
import { HUNT_POLICIES, MAX_GROUPS, MAX_MEMBERS, WHEN_BUSY } from '../telephony/hunting-groups.js'
import { DirectoryContactCenter } from './contact-center-file-schema.js'

/** The node of the company when the file does not name one. */
export const DEFAULT_NODE_ID = '1'
/** The calling line identity restriction of a user when the file does not set one. */
export const DEFAULT_CLIR_MODE = 'INACTIVE' satisfies ClirMode

const closed = { additionalProperties: false } as const

const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$'
/** How a value that fails one of the file's patterns is told, by the pattern's source. */
export const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [COUNTRY_CODE_PATTERN]: 'must be an ISO 3166 alpha-2 country code in capitals, such as FR',
  [LANGUAGE_PATTERN]: 'must be an ISO 639-1 language code, optionally with a country: en, fr_CA',
}

/** A device of a user in the directory file. */
export const DirectoryDevice = Type.Object(
  {
    ...Device.properties,
    type: DeviceType,
    id: Type.String({ description: 'the phone number of the device, digits only' }),
  },
  { ...closed, title: 'DirectoryDevice' },
)
export type DirectoryDevice = Static<typeof DirectoryDevice>

const FileExceptionRules = Type.Array(Type.Object(ExceptionRule.properties, closed))

const FileDialingRule = Type.Object(
  {
    ...DialingRule.properties,
    countryCode: Type.String({ pattern: COUNTRY_CODE_PATTERN }),
    addPfxForNbLength: Type.Integer({ minimum: 0 }),
    exceptionRules: Type.Optional(FileExceptionRules),
  },
  { ...closed, title: 'DirectoryDialingRule' },
)

const LicenseCount = Type.Integer({ minimum: 0 })
const LanguageList = Type.Array(Type.String({ pattern: LANGUAGE_PATTERN }), {
  minItems: 1,
  uniqueItems: true,
})
/** A voice mail in the file: its `id` is the user's login name, given by the service, not the file. */
const FileVoicemail = Type.Object(
  { number: Voicemail.properties.number, type: Voicemail.properties.type },
  closed,
)
const FileCustomAttributes = Type.Object(CustomAttributes.properties, closed)
/** The name of a pickup group (docs/directory-file.md, "Pickup groups"). */
const PickupGroupName = Type.String({
  description: 'the pickup group of the user: letters, digits, ".", "_" and "-"',
})
/** The intrusion right and the protection against it (docs/directory-file.md, "Intrusion"). */
const IntrusionRight = Type.Boolean({
  description:
    'the user may join the call of a busy user it is calling (POST /telephony/devices/{deviceId}/intrusion)',
})
const IntrusionProtection = Type.Boolean({
  description: 'nobody may intrude into a call this user is in',
})
/** A desk-sharing user (docs/directory-file.md, "Desk sharing"). */
const DeskSharingUser = Type.Boolean({
  description:
    'a desk-sharing user: its one device is its number, in service only while it is logged on at a desk-sharing set',
})
const Assistants = Type.Array(Type.String(), {
  uniqueItems: true,
  description: 'login names of the assistants of this user, who is then their manager',
})

/** A user account of the directory file. */
export const DirectoryUser = Type.Object(
  {
    loginName: Type.String({ description: 'letters, digits, ".", "_" and "-"' }),
    password: Type.Optional(Type.String({ minLength: 1, description: 'demo and tests only' })),
    passwordHash: Type.Optional(Type.String({ description: 'scrypt$N$r$p$salt$key' })),
    salutation: Salutation,
    firstName: Type.String(),
    lastName: Type.String(),
    type: UserType,
    // Optional in the specification's User ([0..1]): a user may have no company phone, and no devices.
    companyPhone: Type.Optional(Type.String({ minLength: 1 })),
    companyEmail: Type.Optional(Type.String({ minLength: 1 })),
    instantMessagingId: Type.Optional(Type.String({ minLength: 1 })),
    sipUri: Type.Optional(Type.String()),
    site: Type.Optional(Type.String()),
    department: Type.Optional(Type.String()),
    apiRights: Type.Array(UserRight, { uniqueItems: true }),
    applicationRights: Type.Optional(Type.Array(ApplicationRight, { uniqueItems: true })),
    devices: Type.Optional(Type.Array(DirectoryDevice)),
    voicemail: Type.Optional(FileVoicemail),
    dialingRule: Type.Optional(FileDialingRule),
    customAttributes: Type.Optional(FileCustomAttributes),
    assistants: Type.Optional(Assistants),
    clirMode: Type.Optional(ClirMode),
    preferences: Type.Optional(UserPreferences),
    pickupGroup: Type.Optional(PickupGroupName),
    intrusion: Type.Optional(IntrusionRight),
    intrusionProtection: Type.Optional(IntrusionProtection),
    deskSharing: Type.Optional(DeskSharingUser),
  },
  { ...closed, title: 'DirectoryUser' },
)
export type DirectoryUser = Static<typeof DirectoryUser>

const {
  password: _password,
  passwordHash: _passwordHash,
  ...viewProperties
} = DirectoryUser.properties

/** A stored user in the directory file's format, without its password (docs/control-plane.md). */
export const DirectoryUserView = Type.Object(viewProperties, {
  ...closed,
  title: 'DirectoryUserView',
})
export type DirectoryUserView = Static<typeof DirectoryUserView>

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/**
 * A change to a user in the directory file's format: a field present replaces, `null` removes an
 * optional field, an absent field stays. The login name cannot change.
 */
export const DirectoryUserPatch = Type.Object(
  {
    loginName: Type.Optional(
      Type.String({ description: 'the current login name: it cannot change' }),
    ),
    password: Type.Optional(nullable(Type.String({ minLength: 1 }))),
    passwordHash: Type.Optional(nullable(Type.String({ description: 'scrypt$N$r$p$salt$key' }))),
    salutation: Type.Optional(Salutation),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    type: Type.Optional(UserType),
    companyPhone: Type.Optional(nullable(Type.String({ minLength: 1 }))),
    companyEmail: Type.Optional(nullable(Type.String({ minLength: 1 }))),
    instantMessagingId: Type.Optional(nullable(Type.String({ minLength: 1 }))),
    sipUri: Type.Optional(nullable(Type.String())),
    site: Type.Optional(nullable(Type.String())),
    department: Type.Optional(nullable(Type.String())),
    apiRights: Type.Optional(Type.Array(UserRight, { uniqueItems: true })),
    applicationRights: Type.Optional(nullable(Type.Array(ApplicationRight, { uniqueItems: true }))),
    devices: Type.Optional(nullable(Type.Array(DirectoryDevice))),
    voicemail: Type.Optional(nullable(FileVoicemail)),
    dialingRule: Type.Optional(nullable(FileDialingRule)),
    customAttributes: Type.Optional(nullable(FileCustomAttributes)),
    assistants: Type.Optional(nullable(Assistants)),
    clirMode: Type.Optional(nullable(ClirMode)),
    preferences: Type.Optional(nullable(UserPreferences)),
    pickupGroup: Type.Optional(nullable(PickupGroupName)),
    intrusion: Type.Optional(nullable(IntrusionRight)),
    intrusionProtection: Type.Optional(nullable(IntrusionProtection)),
    deskSharing: Type.Optional(nullable(DeskSharingUser)),
  },
  { ...closed, title: 'DirectoryUserPatch' },
)
export type DirectoryUserPatch = Static<typeof DirectoryUserPatch>

/** A change to a device, as DirectoryUserPatch: the device id cannot change. */
export const DirectoryDevicePatch = Type.Object(
  {
    type: Type.Optional(DeviceType),
    id: Type.Optional(Type.String({ description: 'the current device id: it cannot change' })),
    label: Type.Optional(nullable(Type.String())),
    subType: Type.Optional(nullable(Type.String())),
    associatedNumber: Type.Optional(nullable(Type.String())),
    configId: Type.Optional(nullable(Type.String())),
    role: Type.Optional(nullable(enumeration(['MAIN', 'SECONDARY']))),
  },
  { ...closed, title: 'DirectoryDevicePatch' },
)
export type DirectoryDevicePatch = Static<typeof DirectoryDevicePatch>

/** An administrator account of the directory file. */
export const DirectoryAdministrator = Type.Object(
  {
    loginName: Type.String(),
    password: Type.Optional(Type.String({ minLength: 1 })),
    passwordHash: Type.Optional(Type.String()),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    supervisor: Type.Optional(Type.Boolean({ default: false })),
  },
  { ...closed, title: 'DirectoryAdministrator' },
)
export type DirectoryAdministrator = Static<typeof DirectoryAdministrator>

/** What an outside party does when the platform calls it (docs/directory-file.md, `outsideParties`). */
export const OUTSIDE_BEHAVIOURS = ['ANSWER', 'BUSY', 'NO_ANSWER', 'REJECT'] as const

/** A rule of the directory file's `outsideParties`: what an outside number, or every number of a prefix, does. */
export const OutsidePartyRule = Type.Object(
  {
    number: Type.Optional(
      Type.String({ description: 'one outside number, as dialed after the outside-line prefix' }),
    ),
    prefix: Type.Optional(
      Type.String({ description: 'every outside number starting with these digits' }),
    ),
    behaviour: enumeration(OUTSIDE_BEHAVIOURS),
    afterSeconds: Type.Optional(
      Type.Number({ minimum: 0, description: 'ANSWER, REJECT: how long it rings first (0)' }),
    ),
    hangUpAfterSeconds: Type.Optional(
      Type.Number({ minimum: 0, description: 'ANSWER: hangs up this long after answering' }),
    ),
  },
  { ...closed, title: 'OutsidePartyRule' },
)
export type OutsidePartyRule = Static<typeof OutsidePartyRule>

/** A hunting group of the directory file (docs/groups.md, docs/directory-file.md `huntingGroups`). */
export const DirectoryHuntingGroup = Type.Object(
  {
    number: Type.String({ description: "the group's number in the plan: digits" }),
    name: Type.String({ minLength: 1 }),
    policy: enumeration(HUNT_POLICIES),
    members: Type.Array(Type.String(), {
      uniqueItems: true,
      maxItems: MAX_MEMBERS,
      description: 'login names of users, in hunt order; a user is in one hunting group at most',
    }),
    noAnswerSeconds: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'how long a member rings (15)' }),
    ),
    whenBusy: Type.Optional(enumeration(WHEN_BUSY)),
    queueSize: Type.Optional(
      Type.Integer({ minimum: 0, description: 'QUEUE: how many calls wait at most (10)' }),
    ),
    queueTimeoutSeconds: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'QUEUE: the longest wait (no limit)' }),
    ),
    overflow: Type.Optional(
      Type.Union([
        Type.Object({ number: Type.String() }, closed),
        Type.Object({ voicemailOf: Type.String() }, closed),
      ]),
    ),
    selfJoin: Type.Optional(
      Type.Boolean({ description: 'whether users join and leave it themselves (false)' }),
    ),
  },
  { ...closed, title: 'DirectoryHuntingGroup' },
)
export type DirectoryHuntingGroup = Static<typeof DirectoryHuntingGroup>

/**
 * A supervision group of the directory file (docs/groups.md, "Supervision groups"): supervisors who follow the
 * state of the users they supervise.
 */
export const DirectorySupervisionGroup = Type.Object(
  {
    name: PickupGroupName,
    supervisors: Type.Array(Type.String(), {
      minItems: 1,
      uniqueItems: true,
      description: 'login names of the users who supervise',
    }),
    supervised: Type.Array(Type.String(), {
      minItems: 1,
      uniqueItems: true,
      description: 'login names of the users they supervise',
    }),
  },
  { ...closed, title: 'DirectorySupervisionGroup' },
)
export type DirectorySupervisionGroup = Static<typeof DirectorySupervisionGroup>

/** The most desk-sharing sets a file has: who sits where lives in the engine's state, stored with every batch. */
export const MAX_DESK_SHARING_SETS = 1000

/** A desk-sharing set of the directory file (docs/directory-file.md, "Desk sharing"). */
export const DirectoryDeskSharingSet = Type.Object(
  {
    number: Type.String({
      description: "the set's number in the plan: digits no device, group or voice mail has",
    }),
    label: Type.Optional(Type.String({ minLength: 1, description: 'where the set is' })),
  },
  { ...closed, title: 'DirectoryDeskSharingSet' },
)

/** The whole directory file. */
export const DirectoryDocument = Type.Object(
  {
    company: Type.Object(
      {
        name: Type.String({ minLength: 1 }),
        nodeId: Type.Optional(Type.String({ minLength: 1, default: DEFAULT_NODE_ID })),
      },
      closed,
    ),
    numberingPlan: Type.Object(
      {
        countryCode: Type.String({ pattern: COUNTRY_CODE_PATTERN }),
        areaCode: Type.Optional(Type.String()),
        externalPrefix: Type.String(),
        addPfxForNbLength: Type.Integer({ minimum: 0 }),
        exceptionRules: Type.Optional(FileExceptionRules),
        extensionLength: Type.Integer({ minimum: 1 }),
        voicemailNumber: Type.Optional(Type.String()),
        publicNumberPrefix: Type.Optional(
          Type.String({
            description: 'public numbers are this prefix followed by an extension: +3315566 + 1001',
          }),
        ),
      },
      closed,
    ),
    licenses: Type.Object(
      {
        TELEPHONY_BASIC: LicenseCount,
        TELEPHONY_ADVANCED: LicenseCount,
        MESSAGING: LicenseCount,
        CONFERENCING: LicenseCount,
        // Not rights of the specification's UserRight: counted apart (DirectorySettings.contactCenterLicenses).
        CONTACTCENTER_AGENT: Type.Optional(LicenseCount),
        CONTACTCENTER_SERVICE: Type.Optional(LicenseCount),
      },
      closed,
    ),
    languages: Type.Object(
      {
        gui: LanguageList,
        tui: LanguageList,
      },
      closed,
    ),
    users: Type.Array(DirectoryUser),
    administrators: Type.Optional(Type.Array(DirectoryAdministrator)),
    outsideParties: Type.Optional(Type.Array(OutsidePartyRule)),
    huntingGroups: Type.Optional(Type.Array(DirectoryHuntingGroup, { maxItems: MAX_GROUPS })),
    supervisionGroups: Type.Optional(
      Type.Array(DirectorySupervisionGroup, { maxItems: MAX_GROUPS }),
    ),
    deskSharingSets: Type.Optional(
      Type.Array(DirectoryDeskSharingSet, { maxItems: MAX_DESK_SHARING_SETS }),
    ),
    contactCenter: Type.Optional(DirectoryContactCenter),
  },
  { ...closed, title: 'DirectoryDocument' },
)
export type DirectoryDocument = Static<typeof DirectoryDocument>
