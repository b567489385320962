/**
 * The directory file (docs/directory-file.md): its schema and its validation, with no I/O. The file is
 * written by hand, so every problem is reported with the path of the faulty field, unknown keys are
 * errors, and the checks a schema cannot express (uniqueness, references, rules that depend on the
 * user type) follow the schema check.
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
import { PasswordHasher } from '../auth/password-hasher.js'
import { findSchemaProblems } from './schema-problems.js'

/** The node of the company when the file does not name one. */
export const DEFAULT_NODE_ID = '1'
/** The calling line identity restriction of a user when the file does not set one. */
export const DEFAULT_CLIR_MODE = 'INACTIVE' satisfies ClirMode

const closed = { additionalProperties: false } as const

const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$'
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [COUNTRY_CODE_PATTERN]: 'must be an ISO 3166 alpha-2 country code in capitals, such as FR',
  [LANGUAGE_PATTERN]: 'must be an ISO 639-1 language code, optionally with a country: en, fr_CA',
}
/** Login names appear unencoded in URL paths. */
const LOGIN_NAME = /^[A-Za-z0-9._-]+$/
/** Device ids are phone numbers. */
const DIGITS = /^[0-9]+$/
/** Outside and public numbers: digits, optionally after a `+`. */
const PHONE_NUMBER = /^\+?[0-9]+$/

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

const FileDialingRule = Type.Object(
  {
    ...DialingRule.properties,
    countryCode: Type.String({ pattern: COUNTRY_CODE_PATTERN }),
    addPfxForNbLength: Type.Integer({ minimum: 0 }),
    exceptionRules: Type.Optional(Type.Array(Type.Object(ExceptionRule.properties, closed))),
  },
  { ...closed, title: 'DirectoryDialingRule' },
)

const LicenseCount = Type.Integer({ minimum: 0 })
const FileVoicemail = Type.Object(Voicemail.properties, closed)
const FileCustomAttributes = Type.Object(CustomAttributes.properties, closed)
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
    companyPhone: Type.String({ minLength: 1 }),
    companyEmail: Type.Optional(Type.String({ minLength: 1 })),
    instantMessagingId: Type.Optional(Type.String({ minLength: 1 })),
    sipUri: Type.Optional(Type.String()),
    site: Type.Optional(Type.String()),
    department: Type.Optional(Type.String()),
    apiRights: Type.Array(UserRight, { uniqueItems: true }),
    applicationRights: Type.Optional(Type.Array(ApplicationRight, { uniqueItems: true })),
    devices: Type.Array(DirectoryDevice),
    voicemail: Type.Optional(FileVoicemail),
    dialingRule: Type.Optional(FileDialingRule),
    customAttributes: Type.Optional(FileCustomAttributes),
    assistants: Type.Optional(Assistants),
    clirMode: Type.Optional(ClirMode),
    preferences: Type.Optional(UserPreferences),
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
    companyPhone: Type.Optional(Type.String({ minLength: 1 })),
    companyEmail: Type.Optional(nullable(Type.String({ minLength: 1 }))),
    instantMessagingId: Type.Optional(nullable(Type.String({ minLength: 1 }))),
    sipUri: Type.Optional(nullable(Type.String())),
    site: Type.Optional(nullable(Type.String())),
    department: Type.Optional(nullable(Type.String())),
    apiRights: Type.Optional(Type.Array(UserRight, { uniqueItems: true })),
    applicationRights: Type.Optional(nullable(Type.Array(ApplicationRight, { uniqueItems: true }))),
    devices: Type.Optional(Type.Array(DirectoryDevice)),
    voicemail: Type.Optional(nullable(FileVoicemail)),
    dialingRule: Type.Optional(nullable(FileDialingRule)),
    customAttributes: Type.Optional(nullable(FileCustomAttributes)),
    assistants: Type.Optional(nullable(Assistants)),
    clirMode: Type.Optional(nullable(ClirMode)),
    preferences: Type.Optional(nullable(UserPreferences)),
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
        exceptionRules: Type.Optional(Type.Array(Type.Object(ExceptionRule.properties, closed))),
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
      },
      closed,
    ),
    languages: Type.Object(
      {
        gui: Type.Array(Type.String({ pattern: LANGUAGE_PATTERN }), {
          minItems: 1,
          uniqueItems: true,
        }),
        tui: Type.Array(Type.String({ pattern: LANGUAGE_PATTERN }), {
          minItems: 1,
          uniqueItems: true,
        }),
      },
      closed,
    ),
    users: Type.Array(DirectoryUser),
    administrators: Type.Optional(Type.Array(DirectoryAdministrator)),
    outsideParties: Type.Optional(Type.Array(OutsidePartyRule)),
  },
  { ...closed, title: 'DirectoryDocument' },
)
export type DirectoryDocument = Static<typeof DirectoryDocument>

/** Where a problem is: property names, and indices in lists. The empty path is the whole document. */
export type DirectoryPath = (string | number)[]

/** One problem of a directory document. */
export interface DirectoryProblem {
  path: DirectoryPath
  /** What is wrong, without the path. */
  message: string
  /** Set when the value is valid but already taken by another account or device. */
  conflict?: true
}

/** `users[3].devices[0].type`; `(document)` for the empty path. */
export function formatDirectoryPath(path: DirectoryPath): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += text === '' ? segment : `.${segment}`
    else text += `[${JSON.stringify(segment)}]`
  }
  return text === '' ? '(document)' : text
}

/** `path: message`. */
export function describeDirectoryProblem(problem: DirectoryProblem): string {
  return `${formatDirectoryPath(problem.path)}: ${problem.message}`
}

/** Every problem of `value` as a directory document: the schema's first, then the semantic ones. */
export function findDirectoryProblems(value: unknown): DirectoryProblem[] {
  const schemaProblems = findSchemaProblems(DirectoryDocument, value, PATTERN_MESSAGES)
  if (schemaProblems.length > 0) return schemaProblems
  return semanticCheck(value as DirectoryDocument)
}

/** Checks a parsed directory file; the messages name the faulty field by its path. */
export function validateDirectoryDocument(
  value: unknown,
): { document: DirectoryDocument } | { errors: string[] } {
  const problems = findDirectoryProblems(value)
  if (problems.length > 0) return { errors: problems.map(describeDirectoryProblem) }
  return { document: value as DirectoryDocument }
}

/**
 * Every problem of `value` as one user of the directory, checked against the rest of it: the schema's
 * first, then the rules of a user (docs/directory-file.md, "Validation"). Paths start at the user.
 * `context.claims` holds the values of the other accounts and receives this user's.
 */
export function findUserProblems(value: unknown, context: UserContext): DirectoryProblem[] {
  const schemaProblems = findSchemaProblems(DirectoryUser, value, PATTERN_MESSAGES)
  if (schemaProblems.length > 0) return schemaProblems
  const problems: DirectoryProblem[] = []
  const report: Report = (problem) => problems.push(problem)
  const user = value as DirectoryUser
  checkUser(user, [], context, report)
  checkAssistants(user, [], context.isUser, report)
  return problems
}

/** The rest of the directory a single user is checked against. */
export interface UserContext {
  /** The unique values the other accounts hold. */
  claims: DirectoryClaims
  /** The directory's languages, which preferences must name. */
  languages: { gui: readonly string[]; tui: readonly string[] }
  /** Whether `loginName` is a user's (an assistant must be one). */
  isUser(loginName: string): boolean
}

// ---------------------------------------------------------------------------------------------------
// Semantic check

/** A field whose value must be unique, by the name the messages give it. */
type UniqueField = 'login name' | 'id' | 'companyPhone' | 'companyEmail' | 'instantMessagingId'

/**
 * The values that must be unique across the directory (login names across users and administrators,
 * device ids, company phones, e-mails, instant messaging ids) and who holds each: a path such as
 * `users[0]` in a file, a description such as `user alice` in a running directory.
 */
export class DirectoryClaims {
  private readonly holders = new Map<UniqueField, Map<string, { holder: string; value: string }>>()

  /** Records what an existing user holds; its devices are held by `a device of <holder>`. */
  addUser(user: ClaimedUser, holder: string): void {
    this.claim('login name', user.loginName, holder)
    if (user.companyPhone !== undefined) this.claim('companyPhone', user.companyPhone, holder)
    if (user.companyEmail !== undefined) this.claim('companyEmail', user.companyEmail, holder)
    if (user.instantMessagingId !== undefined)
      this.claim('instantMessagingId', user.instantMessagingId, holder)
    for (const device of user.devices ?? []) {
      if (device.id !== undefined) this.claim('id', device.id, `a device of ${holder}`)
    }
  }

  /** Records an existing administrator's login name. */
  addAdministrator(loginName: string, holder: string): void {
    this.claim('login name', loginName, holder)
  }

  /**
   * Records `holder` as holding `value` and answers undefined, or when another holds it already
   * answers how: `"1001" is already the companyPhone of users[0]`.
   */
  claim(field: UniqueField, value: string, holder: string): string | undefined {
    let holders = this.holders.get(field)
    if (holders === undefined) {
      holders = new Map()
      this.holders.set(field, holders)
    }
    const key = CASE_INSENSITIVE.has(field) ? value.toLowerCase() : value
    const taken = holders.get(key)
    if (taken === undefined) {
      holders.set(key, { holder, value })
      return undefined
    }
    const spelling =
      taken.value === value ? '' : ` as ${JSON.stringify(taken.value)} (case does not matter)`
    return `${JSON.stringify(value)} is already the ${field} of ${taken.holder}${spelling}`
  }
}

/** What a user holds that must be unique. */
interface ClaimedUser {
  loginName: string
  companyPhone?: string
  companyEmail?: string
  instantMessagingId?: string
  devices?: readonly { id?: string }[]
}

const CASE_INSENSITIVE: ReadonlySet<UniqueField> = new Set([
  'login name',
  'companyEmail',
  'instantMessagingId',
])

type Report = (problem: DirectoryProblem) => void

function semanticCheck(document: DirectoryDocument): DirectoryProblem[] {
  const problems: DirectoryProblem[] = []
  const report: Report = (problem) => problems.push(problem)
  const userLogins = new Set(document.users.map((user) => user.loginName))
  const context: UserContext = {
    claims: new DirectoryClaims(),
    languages: document.languages,
    isUser: (loginName) => userLogins.has(loginName),
  }
  document.users.forEach((user, index) => {
    checkUser(user, ['users', index], context, report)
  })
  document.administrators?.forEach((administrator, index) => {
    checkAccount(administrator, ['administrators', index], context.claims, report)
  })
  document.users.forEach((user, index) => {
    checkAssistants(user, ['users', index], context.isUser, report)
  })
  checkOutsideParties(document, report)
  return problems
}

/** The public number prefix and the outside party rules: number forms, one rule per number or prefix. */
function checkOutsideParties(document: DirectoryDocument, report: Report): void {
  const publicPrefix = document.numberingPlan.publicNumberPrefix
  if (publicPrefix !== undefined && !PHONE_NUMBER.test(publicPrefix))
    report({
      path: ['numberingPlan', 'publicNumberPrefix'],
      message: `${JSON.stringify(publicPrefix)} must be digits, optionally after +`,
    })
  const seen = new Map<string, string>()
  document.outsideParties?.forEach((rule, index) => {
    const path: DirectoryPath = ['outsideParties', index]
    if ((rule.number === undefined) === (rule.prefix === undefined)) {
      report({
        path,
        message:
          rule.number === undefined
            ? 'needs number (one outside number) or prefix (every number starting with it)'
            : 'has both number and prefix; give only one',
      })
      return
    }
    const field = rule.number === undefined ? 'prefix' : 'number'
    const value = rule.number ?? rule.prefix ?? ''
    if (!PHONE_NUMBER.test(value))
      report({
        path: [...path, field],
        message: `${JSON.stringify(value)} must be digits, optionally after +: the outside number as dialed after the outside-line prefix`,
      })
    else {
      const key = `${field} ${value}`
      const first = seen.get(key)
      if (first !== undefined)
        report({
          path: [...path, field],
          message: `${JSON.stringify(value)} already has a rule: ${first}`,
        })
      else seen.set(key, formatDirectoryPath(path))
    }
    if (
      rule.afterSeconds !== undefined &&
      rule.behaviour !== 'ANSWER' &&
      rule.behaviour !== 'REJECT'
    )
      report({
        path: [...path, 'afterSeconds'],
        message: `is for ANSWER and REJECT only, and this rule is ${rule.behaviour}`,
      })
    if (rule.hangUpAfterSeconds !== undefined && rule.behaviour !== 'ANSWER')
      report({
        path: [...path, 'hangUpAfterSeconds'],
        message: `is for ANSWER only, and this rule is ${rule.behaviour}`,
      })
  })
}

/** The login name (its form, and unique) and the password of an account at `path`. */
function checkAccount(
  account: DirectoryUser | DirectoryAdministrator,
  path: DirectoryPath,
  claims: DirectoryClaims,
  report: Report,
): void {
  const loginPath = [...path, 'loginName']
  if (!LOGIN_NAME.test(account.loginName)) {
    report({
      path: loginPath,
      message: `${JSON.stringify(account.loginName)} may contain only letters, digits, ".", "_" and "-"`,
    })
  } else {
    const taken = claims.claim('login name', account.loginName, formatDirectoryPath(path))
    if (taken !== undefined) report({ path: loginPath, message: taken, conflict: true })
  }
  if (account.password !== undefined && account.passwordHash !== undefined) {
    report({ path, message: 'has both password and passwordHash; give only one' })
  } else if (
    account.passwordHash !== undefined &&
    !PasswordHasher.isWellFormed(account.passwordHash)
  ) {
    report({
      path: [...path, 'passwordHash'],
      message: 'is not a password hash of the form scrypt$N$r$p$salt$key (salt and key in base64)',
    })
  }
}

/** Every rule of one user but its assistants, which need every user known first. */
function checkUser(
  user: DirectoryUser,
  path: DirectoryPath,
  context: UserContext,
  report: Report,
): void {
  const { claims } = context
  checkAccount(user, path, claims, report)
  const holder = formatDirectoryPath(path)
  for (const field of ['companyPhone', 'companyEmail', 'instantMessagingId'] as const) {
    const value = user[field]
    const taken = value === undefined ? undefined : claims.claim(field, value, holder)
    if (taken !== undefined) report({ path: [...path, field], message: taken, conflict: true })
  }

  let mainDevice: DirectoryPath | undefined
  user.devices.forEach((device, deviceIndex) => {
    const devicePath: DirectoryPath = [...path, 'devices', deviceIndex]
    if (!DIGITS.test(device.id)) {
      report({
        path: [...devicePath, 'id'],
        message: `${JSON.stringify(device.id)} must be made of digits: a device id is its phone number`,
      })
    } else {
      const taken = claims.claim('id', device.id, formatDirectoryPath(devicePath))
      if (taken !== undefined)
        report({ path: [...devicePath, 'id'], message: taken, conflict: true })
    }
    if (device.role === 'MAIN') {
      if (mainDevice === undefined) mainDevice = devicePath
      else {
        report({
          path: [...devicePath, 'role'],
          message: `a user has at most one MAIN device, and ${formatDirectoryPath(mainDevice)} is MAIN already`,
        })
      }
    }
  })

  user.applicationRights?.forEach((right, rightIndex) => {
    const only =
      right === 'NOMADIC_SIP' || right === 'NOMADIC_GSM'
        ? 'STANDARD'
        : right === 'NOMADIC'
          ? 'MULTIMEDIA'
          : undefined
    if (only !== undefined && user.type !== only) {
      report({
        path: [...path, 'applicationRights', rightIndex],
        message: `${right} is for ${only} users only, and this user is ${user.type}`,
      })
    }
  })

  const preferences = user.preferences
  if (preferences?.professionalMobile !== undefined && user.type !== 'MULTIMEDIA') {
    report({
      path: [...path, 'preferences', 'professionalMobile'],
      message: `only MULTIMEDIA users have a professional mobile, and this user is ${user.type}`,
    })
  }
  for (const [field, kind] of [
    ['guiLanguage', 'gui'],
    ['tuiLanguage', 'tui'],
  ] as const) {
    const language = preferences?.[field]
    const languages = context.languages[kind]
    if (language !== undefined && !languages.includes(language)) {
      report({
        path: [...path, 'preferences', field],
        message: `${language} is not one of languages.${kind} (${languages.join(', ')})`,
      })
    }
  }
}

/** Every login name in `assistants` is another user's. */
function checkAssistants(
  user: DirectoryUser,
  path: DirectoryPath,
  isUser: (loginName: string) => boolean,
  report: Report,
): void {
  user.assistants?.forEach((assistant, assistantIndex) => {
    const assistantPath: DirectoryPath = [...path, 'assistants', assistantIndex]
    if (assistant === user.loginName) {
      report({ path: assistantPath, message: 'a user cannot be its own assistant' })
    } else if (!isUser(assistant)) {
      report({
        path: assistantPath,
        message: `${JSON.stringify(assistant)} is not the login name of a user`,
      })
    }
  })
}
