/**
 * A stored user seen in the directory file's format, and the rules of a change in that format: a field
 * present replaces, `null` removes an optional field, an absent field stays (docs/control-plane.md).
 */
import type { UserPreferences } from '@openness/wire'
import { PlatformError } from '../platform-error.js'
import type { StoredAccount, UserAccount } from './account.js'
import { DirectoryClaims } from './directory-claims.js'
import { findUserProblems } from './directory-document.js'
import type { UserContext } from './directory-document-checks.js'
import { DirectoryDevice, DirectoryUser, type DirectoryUserView } from './directory-file-schema.js'
import { type DirectoryProblem, formatDirectoryPath } from './directory-problem.js'
import { assistantsOf, withoutUndefined } from './manager-assistant.js'
import { isRecord } from './schema-problems.js'

/**
 * The stored user in the directory file's format, without its password: `assistants` comes from its
 * configManagerAssistant, `preferences` are the stored ones, as the user may since have changed them.
 * `devices` is always there, empty for a user without any; `companyPhone` only when the user has one.
 */
export function userEntry(
  account: UserAccount,
): DirectoryUserView & { devices: DirectoryDevice[] } {
  const record = structuredClone(account.record)
  const assistants = assistantsOf(record)
  const preferences = structuredClone(account.preferences)
  return withoutUndefined({
    loginName: record.loginName,
    salutation: record.salutation,
    firstName: record.firstName ?? '',
    lastName: record.lastName ?? '',
    type: record.type,
    companyPhone: record.companyPhone,
    companyEmail: record.companyEmail,
    instantMessagingId: record.instantMessagingId,
    sipUri: record.sipUri,
    site: record.site,
    department: record.department,
    apiRights: record.apiRights,
    applicationRights: record.applicationRights,
    // Records are built from validated DirectoryDevices, whose type and id are required.
    devices: (record.devices ?? []) as DirectoryDevice[],
    voicemail: record.voicemail,
    dialingRule: record.dialingRule,
    customAttributes: record.customAttributes,
    assistants: assistants.length > 0 ? assistants : undefined,
    clirMode: record.clirMode,
    preferences: Object.keys(preferences).length > 0 ? preferences : undefined,
    pickupGroup: record.pickupGroup,
    intrusion: record.intrusion,
    intrusionProtection: record.intrusionProtection,
    deskSharing: record.deskSharing,
  })
}

/** What a patch may not do: remove a required field or change the field that names the value. */
export interface PatchRules {
  /** Fields that cannot be removed. */
  required: readonly string[]
  /** The field that names the value, its current value, and what to do instead of changing it. */
  identity: { field: string; value: string; instead: string }
}

/** The problems a patch has before it is applied: not a mapping, a required field removed, a rename. */
export function findPatchProblems(patch: unknown, rules: PatchRules): DirectoryProblem[] {
  if (!isRecord(patch)) return [{ path: [], message: 'must be a mapping of fields (key: value)' }]
  const problems: DirectoryProblem[] = []
  for (const field of rules.required) {
    if (patch[field] === null)
      problems.push({ path: [field], message: 'is required: it cannot be removed' })
  }
  const { field, value, instead } = rules.identity
  const given = patch[field]
  if (typeof given === 'string' && given !== value) {
    problems.push({
      path: [field],
      message: `cannot change (it is ${JSON.stringify(value)}); ${instead}`,
    })
  }
  return problems
}

/** `target` with `patch` applied: a field present replaces, `null` removes it. */
export function applyPatch(
  target: object,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...target }
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field]
    else next[field] = structuredClone(value)
  }
  return next
}

/**
 * The entry without its preferences' languages, for checking a change that leaves the preferences
 * alone: a user may have chosen through the API a language the file's stricter rule would refuse
 * (`fr_CA` where `fr` is offered), and that choice must not block an unrelated change.
 */
export function withoutPreferenceLanguages(
  entry: Record<string, unknown>,
): Record<string, unknown> {
  const preferences = entry['preferences']
  if (!isRecord(preferences)) return entry
  const { guiLanguage: _gui, tuiLanguage: _tui, ...rest } = preferences as UserPreferences
  return { ...entry, preferences: rest }
}

/** The unique values of every account but `except`, held by `user <login>` or `administrator <login>`. */
export function claimsOf(accounts: Iterable<StoredAccount>, except?: string): DirectoryClaims {
  const claims = new DirectoryClaims()
  for (const account of accounts) {
    if (account.loginName === except) continue
    if (account.kind === 'USER') claims.addUser(account.record, `user ${account.loginName}`)
    else claims.addAdministrator(account.loginName, `administrator ${account.loginName}`)
  }
  return claims
}

/**
 * The PlatformError for a refused change, listing every problem with its field: BAD_PARAMETER, or
 * NOT_EXPECTED when every problem is a conflict with another account (a login name or a number taken).
 * `subject` names the whole value when a problem has no field (`user`, `device`).
 */
export function refusal(problems: readonly DirectoryProblem[], subject: string): PlatformError {
  const type = problems.every((problem) => problem.conflict) ? 'NOT_EXPECTED' : 'BAD_PARAMETER'
  const lines = problems.map(
    ({ path, message }) => `${path.length === 0 ? subject : formatDirectoryPath(path)}: ${message}`,
  )
  if (lines.length === 1) return new PlatformError(type, lines[0] ?? '')
  return new PlatformError(
    type,
    `The ${subject} has ${lines.length} problems:\n${lines.map((line) => `  ${line}`).join('\n')}`,
  )
}

/** The new user `entry`, checked against the directory; throws the refusal. */
export function checkNewUser(entry: unknown, context: UserContext): DirectoryUser {
  const problems = findUserProblems(entry, context)
  if (problems.length > 0) throw refusal(problems, 'user')
  return entry as DirectoryUser
}

/** The user in the file's format with `patch` applied, checked against the directory; throws the refusal. */
export function checkUserPatch(
  account: UserAccount,
  patch: unknown,
  context: UserContext,
): DirectoryUser {
  const problems = findPatchProblems(patch, {
    required: DirectoryUser.required,
    identity: {
      field: 'loginName',
      value: account.loginName,
      instead: 'delete the user and create it again',
    },
  })
  if (problems.length > 0) throw refusal(problems, 'user')
  const changed = patch as Record<string, unknown>
  const entry = applyPatch(userEntry(account), changed)
  const checked = 'preferences' in changed ? entry : withoutPreferenceLanguages(entry)
  const found = findUserProblems(checked, context)
  if (found.length > 0) throw refusal(found, 'user')
  return entry as DirectoryUser
}

/**
 * Checks the user with `devices` in place of its own; problems of the device at `index` are named from
 * the device (`id: ...`), as the request that gives it sees them. Throws the refusal.
 */
export function checkDevices(
  account: UserAccount,
  devices: readonly unknown[],
  index: number,
  context: UserContext,
): void {
  const entry = withoutPreferenceLanguages({ ...userEntry(account), devices })
  const problems = findUserProblems(entry, context)
  if (problems.length === 0) return
  const fromDevice = ({ path, ...problem }: DirectoryProblem): DirectoryProblem =>
    path[0] === 'devices' && path[1] === index
      ? { ...problem, path: path.slice(2) }
      : { ...problem, path }
  throw refusal(problems.map(fromDevice), 'device')
}

/** The device at `index` with `patch` applied, checked with the user; throws the refusal. */
export function checkDevicePatch(
  account: UserAccount,
  index: number,
  patch: unknown,
  context: UserContext,
): DirectoryDevice {
  const { devices } = userEntry(account)
  const problems = findPatchProblems(patch, {
    required: DirectoryDevice.required,
    identity: {
      field: 'id',
      value: devices[index]?.id ?? '',
      instead: 'remove the device and add it again',
    },
  })
  if (problems.length > 0) throw refusal(problems, 'device')
  const updated = applyPatch(devices[index] ?? {}, patch as Record<string, unknown>)
  const candidates = devices.map((device, position) => (position === index ? updated : device))
  checkDevices(account, candidates, index, context)
  return updated as DirectoryDevice
}
