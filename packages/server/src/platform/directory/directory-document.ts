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
  LANGUAGE_PATTERN,
  Salutation,
  UserPreferences,
  UserRight,
  UserType,
  Voicemail,
} from '@openness/wire'
import { type Static, type TSchema, Type } from 'typebox'
import { Settings } from 'typebox/system'
import { Value } from 'typebox/value'
import { PasswordHasher } from '../auth/password-hasher.js'

/** The node of the company when the file does not name one. */
export const DEFAULT_NODE_ID = '1'
/** The calling line identity restriction of a user when the file does not set one. */
export const DEFAULT_CLIR_MODE = 'INACTIVE' satisfies ClirMode

const closed = { additionalProperties: false } as const

const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$'
/** Login names appear unencoded in URL paths. */
const LOGIN_NAME = /^[A-Za-z0-9._-]+$/
/** Device ids are phone numbers. */
const DIGITS = /^[0-9]+$/

const FileDevice = Type.Object(
  {
    ...Device.properties,
    type: DeviceType,
    id: Type.String({ description: 'the phone number of the device, digits only' }),
  },
  { ...closed, title: 'DirectoryDevice' },
)

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
    devices: Type.Array(FileDevice),
    voicemail: Type.Optional(Type.Object(Voicemail.properties, closed)),
    dialingRule: Type.Optional(FileDialingRule),
    customAttributes: Type.Optional(Type.Object(CustomAttributes.properties, closed)),
    assistants: Type.Optional(
      Type.Array(Type.String(), {
        uniqueItems: true,
        description: 'login names of the assistants of this user, who is then their manager',
      }),
    ),
    clirMode: Type.Optional(ClirMode),
    preferences: Type.Optional(UserPreferences),
  },
  { ...closed, title: 'DirectoryUser' },
)
export type DirectoryUser = Static<typeof DirectoryUser>

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
  const schemaProblems = schemaCheck(value)
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

// ---------------------------------------------------------------------------------------------------
// Schema check

/** TypeBox stops at 8 errors by default; a hand-edited file deserves to see them all at once. */
const MAX_SCHEMA_ERRORS = 200

const PATTERN_MESSAGES: Record<string, string> = {
  [COUNTRY_CODE_PATTERN]: 'must be an ISO 3166 alpha-2 country code in capitals, such as FR',
  [LANGUAGE_PATTERN]: 'must be an ISO 639-1 language code, optionally with a country: en, fr_CA',
}

function schemaCheck(value: unknown): DirectoryProblem[] {
  const previousMax = Settings.Get().maxErrors
  Settings.Set({ maxErrors: MAX_SCHEMA_ERRORS })
  let errors: ReturnType<typeof Value.Errors>
  try {
    errors = Value.Errors(DirectoryDocument, value)
  } finally {
    Settings.Set({ maxErrors: previousMax })
  }
  const problems: DirectoryProblem[] = []
  for (const error of errors) {
    const path = instancePath(value, error.instancePath)
    switch (error.keyword) {
      case 'boolean':
        // `additionalProperties: false` reports each unknown key twice; the other report names them all.
        break
      case 'additionalProperties': {
        const known = Object.keys(propertiesAt(error.schemaPath))
        for (const key of error.params.additionalProperties) {
          problems.push({ path: [...path, key], message: unknownFieldMessage(key, known) })
        }
        break
      }
      case 'required':
        for (const key of (error.params as { requiredProperties: string[] }).requiredProperties) {
          problems.push({ path: [...path, key], message: 'is required' })
        }
        break
      case 'type':
        problems.push({
          path,
          message: typeMessage((error.params as { type: string }).type, valueAt(value, path)),
        })
        break
      case 'enum':
        problems.push({
          path,
          message: `must be one of ${error.params.allowedValues.map(String).join(', ')}`,
        })
        break
      case 'uniqueItems': {
        const list = valueAt(value, path)
        for (const index of (error.params as { duplicateItems: number[] }).duplicateItems) {
          const item = Array.isArray(list) ? list[index] : undefined
          problems.push({ path: [...path, index], message: `${String(item)} is listed twice` })
        }
        break
      }
      case 'pattern': {
        const pattern = error.params.pattern
        const source = typeof pattern === 'string' ? pattern : pattern.source
        problems.push({ path, message: PATTERN_MESSAGES[source] ?? `must match ${source}` })
        break
      }
      case 'minimum':
        problems.push({ path, message: `must be at least ${error.params.limit}` })
        break
      case 'minLength':
        problems.push({
          path,
          message:
            error.params.limit === 1
              ? 'must not be empty'
              : `must be at least ${error.params.limit} characters long`,
        })
        break
      case 'minItems':
        problems.push({
          path,
          message: `must list at least ${error.params.limit} item${error.params.limit === 1 ? '' : 's'}`,
        })
        break
      default:
        problems.push({ path, message: error.message })
    }
  }
  if (errors.length >= MAX_SCHEMA_ERRORS) {
    problems.push({ path: [], message: `more problems follow the first ${MAX_SCHEMA_ERRORS}` })
  }
  return problems
}

function typeMessage(expected: string, actual: unknown): string {
  switch (expected) {
    case 'string':
      return typeof actual === 'number' || typeof actual === 'boolean'
        ? `must be a string; write it in quotes: "${String(actual)}"`
        : 'must be a string'
    case 'integer':
      return 'must be a whole number'
    case 'boolean':
      return 'must be true or false'
    case 'object':
      return 'must be a mapping of fields (key: value)'
    case 'array':
      return 'must be a list'
    default:
      return `must be of type ${expected}`
  }
}

function unknownFieldMessage(key: string, known: string[]): string {
  const typed = key.toLowerCase()
  const closest = known
    .map((name) => {
      const candidate = name.toLowerCase()
      const abbreviated = typed.length >= 3 && candidate.startsWith(typed)
      return { name, distance: abbreviated ? 0 : editDistance(typed, candidate) }
    })
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0]
  return closest === undefined
    ? `is not a known field (known fields: ${known.join(', ')})`
    : `is not a known field; did you mean ${closest.name}?`
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, substitution))
    }
    row = next
  }
  return row[b.length] ?? 0
}

/** The declared properties of the object schema at a JSON pointer (`#/properties/users/items`). */
function propertiesAt(schemaPath: string): Record<string, TSchema> {
  let schema: unknown = DirectoryDocument
  for (const segment of pointerSegments(schemaPath.replace(/^#/, ''))) {
    schema = isRecord(schema) ? schema[segment] : undefined
  }
  if (!isRecord(schema)) return {}
  const { properties } = schema
  return isRecord(properties) ? (properties as Record<string, TSchema>) : {}
}

/** Turns a JSON pointer into a path, with numbers where the value is a list. */
function instancePath(root: unknown, pointer: string): DirectoryPath {
  const path: DirectoryPath = []
  let node = root
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) {
      const index = Number(segment)
      path.push(index)
      node = node[index]
    } else {
      path.push(segment)
      node = isRecord(node) ? node[segment] : undefined
    }
  }
  return path
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function valueAt(root: unknown, path: DirectoryPath): unknown {
  let node = root
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment]
    else if (isRecord(node) && typeof segment === 'string') node = node[segment]
    else return undefined
  }
  return node
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// ---------------------------------------------------------------------------------------------------
// Semantic check

/** Remembers the first holder of each value of a field that must be unique. */
class UniqueValues {
  private readonly holders = new Map<string, { path: DirectoryPath; value: string }>()

  constructor(private readonly caseInsensitive: boolean) {}

  /**
   * Records `path` as holding `value` and answers undefined, or when an earlier path holds it already
   * answers how that one is held: `is already the <field> of users[0]`.
   */
  claim(value: string, path: DirectoryPath, field: string): string | undefined {
    const key = this.caseInsensitive ? value.toLowerCase() : value
    const holder = this.holders.get(key)
    if (holder === undefined) {
      this.holders.set(key, { path, value })
      return undefined
    }
    const spelling =
      holder.value === value ? '' : ` as ${JSON.stringify(holder.value)} (case does not matter)`
    return `${JSON.stringify(value)} is already the ${field} of ${formatDirectoryPath(holder.path)}${spelling}`
  }
}

function semanticCheck(document: DirectoryDocument): DirectoryProblem[] {
  const problems: DirectoryProblem[] = []
  const problem = (path: DirectoryPath, message: string) => problems.push({ path, message })

  const loginNames = new UniqueValues(true)
  const deviceIds = new UniqueValues(false)
  const companyPhones = new UniqueValues(false)
  const companyEmails = new UniqueValues(true)
  const imIds = new UniqueValues(true)

  const checkAccount = (
    account: DirectoryUser | DirectoryAdministrator,
    path: DirectoryPath,
  ): void => {
    const loginPath = [...path, 'loginName']
    if (!LOGIN_NAME.test(account.loginName)) {
      problem(
        loginPath,
        `${JSON.stringify(account.loginName)} may contain only letters, digits, ".", "_" and "-"`,
      )
    } else {
      const taken = loginNames.claim(account.loginName, path, 'login name')
      if (taken !== undefined) problem(loginPath, taken)
    }
    if (account.password !== undefined && account.passwordHash !== undefined) {
      problem(path, 'has both password and passwordHash; give only one')
    } else if (
      account.passwordHash !== undefined &&
      !PasswordHasher.isWellFormed(account.passwordHash)
    ) {
      problem(
        [...path, 'passwordHash'],
        'is not a password hash of the form scrypt$N$r$p$salt$key (salt and key in base64)',
      )
    }
  }

  const checkUnique = (
    registry: UniqueValues,
    value: string | undefined,
    path: DirectoryPath,
    field: string,
  ): void => {
    if (value === undefined) return
    const taken = registry.claim(value, path, field)
    if (taken !== undefined) problem([...path, field], taken)
  }

  const userLogins = new Set<string>()
  document.users.forEach((user, index) => {
    const path: DirectoryPath = ['users', index]
    checkAccount(user, path)
    userLogins.add(user.loginName)
    checkUnique(companyPhones, user.companyPhone, path, 'companyPhone')
    checkUnique(companyEmails, user.companyEmail, path, 'companyEmail')
    checkUnique(imIds, user.instantMessagingId, path, 'instantMessagingId')

    let mainDevice: DirectoryPath | undefined
    user.devices.forEach((device, deviceIndex) => {
      const devicePath: DirectoryPath = [...path, 'devices', deviceIndex]
      if (!DIGITS.test(device.id)) {
        problem(
          [...devicePath, 'id'],
          `${JSON.stringify(device.id)} must be made of digits: a device id is its phone number`,
        )
      } else {
        const taken = deviceIds.claim(device.id, devicePath, 'id')
        if (taken !== undefined) problem([...devicePath, 'id'], taken)
      }
      if (device.role === 'MAIN') {
        if (mainDevice === undefined) mainDevice = devicePath
        else {
          problem(
            [...devicePath, 'role'],
            `a user has at most one MAIN device, and ${formatDirectoryPath(mainDevice)} is MAIN already`,
          )
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
        problem(
          [...path, 'applicationRights', rightIndex],
          `${right} is for ${only} users only, and this user is ${user.type}`,
        )
      }
    })

    const preferences = user.preferences
    if (preferences?.professionalMobile !== undefined && user.type !== 'MULTIMEDIA') {
      problem(
        [...path, 'preferences', 'professionalMobile'],
        `only MULTIMEDIA users have a professional mobile, and this user is ${user.type}`,
      )
    }
    for (const [field, kind] of [
      ['guiLanguage', 'gui'],
      ['tuiLanguage', 'tui'],
    ] as const) {
      const language = preferences?.[field]
      if (language !== undefined && !document.languages[kind].includes(language)) {
        problem(
          [...path, 'preferences', field],
          `${language} is not one of languages.${kind} (${document.languages[kind].join(', ')})`,
        )
      }
    }
  })

  document.administrators?.forEach((administrator, index) => {
    checkAccount(administrator, ['administrators', index])
  })

  document.users.forEach((user, index) => {
    user.assistants?.forEach((assistant, assistantIndex) => {
      const path: DirectoryPath = ['users', index, 'assistants', assistantIndex]
      if (assistant === user.loginName) problem(path, 'a user cannot be its own assistant')
      else if (!userLogins.has(assistant)) {
        problem(path, `${JSON.stringify(assistant)} is not the login name of a user`)
      }
    })
  })

  return problems
}
