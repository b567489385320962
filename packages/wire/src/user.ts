/** User records (specification, "Users"; wire facts 7). */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'

export const USER_TYPES = ['STANDARD', 'MULTIMEDIA'] as const
export const UserType = enumeration(USER_TYPES, { title: 'UserType' })
export type UserType = (typeof USER_TYPES)[number]

export const USER_RIGHTS = [
  'TELEPHONY_BASIC',
  'TELEPHONY_ADVANCED',
  'MESSAGING',
  'CONFERENCING',
] as const
export const UserRight = enumeration(USER_RIGHTS, { title: 'UserRight' })
export type UserRight = (typeof USER_RIGHTS)[number]

export const APPLICATION_RIGHTS = [
  'BUSINESS_COMMUNICATIONS',
  'CONFERENCING',
  'DESKTOP',
  'NOMADIC',
  'NOMADIC_SIP',
  'NOMADIC_GSM',
  'MOBILE',
  'TABLET',
  'VOICE_MAIL',
  'FLEX_OFFICE',
] as const
export const ApplicationRight = enumeration(APPLICATION_RIGHTS, { title: 'ApplicationRight' })
export type ApplicationRight = (typeof APPLICATION_RIGHTS)[number]

export const VOICEMAIL_TYPES = [
  'VM_4635',
  'VM_4645',
  'VM_UM',
  'VM_LOCAL_STORAGE',
  'EXTERNAL',
] as const
export const VoicemailType = enumeration(VOICEMAIL_TYPES, { title: 'VoicemailType' })

export const CLIR_MODES = [
  'UNKNOWN',
  'NOT_SUPPORTED',
  'INACTIVE',
  'ACTIVE',
  'INACTIVE_NOT_UPDATABLE',
  'ACTIVE_NOT_UPDATABLE',
] as const
export const ClirMode = enumeration(CLIR_MODES, { title: 'ClirMode' })
export type ClirMode = (typeof CLIR_MODES)[number]

export const DEVICE_TYPES = ['DECT', 'DESKPHONE', 'MOBILE', 'NOMADIC', 'SOFTPHONE'] as const
export const DeviceType = enumeration(DEVICE_TYPES, { title: 'DeviceType' })

export const SALUTATIONS = ['MR', 'MRS', 'MISS'] as const
export const Salutation = enumeration(SALUTATIONS, { title: 'Salutation' })

export const Voicemail = Type.Object(
  {
    number: Type.String(),
    type: VoicemailType,
    id: Type.Optional(
      Type.String({
        description:
          "the id of the user's mailbox: the login name (the vendor's Python sample reads it; docs/wire-compat.md)",
      }),
    ),
  },
  { title: 'Voicemail' },
)

export const Device = Type.Object(
  {
    type: Type.Optional(DeviceType),
    id: Type.Optional(Type.String({ description: 'identifies the device in telephony requests' })),
    label: Type.Optional(Type.String()),
    subType: Type.Optional(Type.String()),
    associatedNumber: Type.Optional(Type.String({ description: 'real number of a MOBILE' })),
    configId: Type.Optional(Type.String({ description: 'reserved' })),
    role: Type.Optional(enumeration(['MAIN', 'SECONDARY'])),
  },
  { title: 'Device' },
)
export type Voicemail = Static<typeof Voicemail>
export type Device = Static<typeof Device>

export const ExceptionRule = Type.Object(
  {
    lengthException: Type.Integer({ minimum: 0, description: '0 means any length' }),
    beginPatternException: Type.String(),
  },
  { title: 'ExceptionRule' },
)

export const DialingRule = Type.Object(
  {
    countryCode: Type.String({ description: 'ISO 3166 alpha-2' }),
    externalPrefix: Type.String(),
    addPfxForNbLength: Type.Integer(),
    areaCode: Type.Optional(Type.String()),
    exceptionRules: Type.Optional(Type.Array(ExceptionRule)),
  },
  { title: 'DialingRule' },
)

const StringMap = Type.Record(Type.String(), Type.String())
export const CustomAttributes = Type.Object(
  { global: Type.Optional(StringMap), user: Type.Optional(StringMap) },
  { title: 'CustomAttributes' },
)

/** The identity of a manager or assistant (specification, configManagerAssistant). */
export const ManagerAssistantId = Type.Object(
  {
    loginName: Type.Optional(Type.String()),
    phoneNumber: Type.Optional(Type.String()),
    instantMessagingId: Type.Optional(Type.String()),
    companyEmail: Type.Optional(Type.String()),
  },
  { title: 'ManagerAssistantId' },
)
export const ManagerAssistantFilter = Type.Object(
  {
    key: Type.Integer(),
    type: Type.String({ description: 'SCREENING, UNSCREENING' }),
    label: Type.String(),
  },
  { title: 'ManagerAssistantFilter' },
)
const ManagerAssistantParty = {
  id: ManagerAssistantId,
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  key: Type.Integer(),
}
export const ConfigManagerAssistant = Type.Object(
  {
    assistants: Type.Optional(Type.Array(Type.Object(ManagerAssistantParty))),
    filters: Type.Optional(Type.Array(ManagerAssistantFilter)),
    managers: Type.Optional(
      Type.Array(
        Type.Object({
          ...ManagerAssistantParty,
          supervisedFilters: Type.Optional(Type.Array(ManagerAssistantFilter)),
        }),
      ),
    ),
  },
  { title: 'ConfigManagerAssistant' },
)

/**
 * User. The fields the specification stars (type, site, department, devices, dialingRule, apiRights,
 * applicationRights, customAttributes) are present only for the owner or an administrator session.
 * nodeId is read by real clients (wire facts 7) though the specification does not list it, and so is
 * eMailAddress (the Node SDK's name of companyEmail).
 */
export const User = Type.Object(
  {
    companyPhone: Type.Optional(Type.String()),
    salutation: Salutation,
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    companyEmail: Type.Optional(Type.String()),
    loginName: Type.Optional(Type.String()),
    instantMessagingId: Type.Optional(Type.String()),
    type: Type.Optional(UserType),
    site: Type.Optional(Type.String()),
    department: Type.Optional(Type.String()),
    vcardPath: Type.Optional(Type.String()),
    voicemail: Type.Optional(Voicemail),
    devices: Type.Optional(Type.Array(Device)),
    dialingRule: Type.Optional(DialingRule),
    apiRights: Type.Optional(Type.Array(UserRight)),
    applicationRights: Type.Optional(Type.Array(ApplicationRight)),
    sipUri: Type.Optional(Type.String()),
    customAttributes: Type.Optional(CustomAttributes),
    configManagerAssistant: Type.Optional(ConfigManagerAssistant),
    nodeId: Type.Optional(Type.String()),
    eMailAddress: Type.Optional(
      Type.String({
        description: 'same as companyEmail: the name the Node SDK reads (not in the specification)',
      }),
    ),
  },
  { title: 'User' },
)
export type User = Static<typeof User>

export const TelephonyPreferences = Type.Object(
  { clirMode: Type.Optional(ClirMode) },
  { title: 'TelephonyPreferences', additionalProperties: false },
)
export type TelephonyPreferences = Static<typeof TelephonyPreferences>

/** ISO 639-1 language, optionally `_` and an ISO 3166 alpha-2 country in capitals; empty clears it. */
export const LANGUAGE_PATTERN = '^([a-z]{2}(_[A-Z]{2})?)?$'

export const UserPreferences = Type.Object(
  {
    guiLanguage: Type.Optional(Type.String({ pattern: LANGUAGE_PATTERN })),
    tuiLanguage: Type.Optional(Type.String({ pattern: LANGUAGE_PATTERN })),
    personalMobile: Type.Optional(Type.String()),
    professionalMobile: Type.Optional(Type.String({ description: 'multimedia users only' })),
    personalPhone: Type.Optional(Type.String()),
    telephony: Type.Optional(TelephonyPreferences),
    colleague: Type.Optional(Type.String()),
  },
  { title: 'UserPreferences', additionalProperties: false },
)
export type UserPreferences = Static<typeof UserPreferences>

/** What GET preferences returns: UserPreferences plus oxeLanguage, which real clients read (wire facts 7). */
export const UserPreferencesResponse = Type.Object(
  {
    ...UserPreferences.properties,
    oxeLanguage: Type.Optional(Type.String({ description: 'same as tuiLanguage' })),
  },
  { title: 'UserPreferencesResponse' },
)

/**
 * GET preferences/supportedLanguages (not in the specification; wire facts 7). The Node and Java SDKs read
 * the camelCase names; the C# SDK reads `SupportedLanguages` and `SupportedGuiLanguages` (its
 * `[JsonPropertyName]`, case-sensitive): both spellings, the same lists.
 */
export const SupportedLanguages = Type.Object(
  {
    supportedLanguages: Type.Array(Type.String()),
    supportedGuiLanguages: Type.Array(Type.String()),
    SupportedLanguages: Type.Array(Type.String(), {
      description: 'same as supportedLanguages: the spelling the C# SDK reads',
    }),
    SupportedGuiLanguages: Type.Array(Type.String(), {
      description: 'same as supportedGuiLanguages: the spelling the C# SDK reads',
    }),
  },
  { title: 'SupportedLanguages' },
)
export type SupportedLanguages = Static<typeof SupportedLanguages>

export const ChangePasswordRequest = Type.Object(
  { oldPassword: Type.String(), newPassword: Type.String() },
  { title: 'ChangePasswordRequest' },
)

export const LoginsResponse = Type.Object(
  { loginNames: Type.Array(Type.String()) },
  { title: 'LoginsResponse' },
)
export type LoginsResponse = Static<typeof LoginsResponse>
