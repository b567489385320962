/**
 * The checks of the directory file that its schema cannot express (docs/directory-file.md,
 * "Validation"): values unique across accounts and devices, references between users, rules that
 * depend on the user type, the outside party rules, the groups; the contact center's are in
 * contact-center-checks.ts. They run on values the schema has accepted.
 */
import { PasswordHasher } from '../auth/password-hasher.js'
import { checkContactCenter } from './contact-center-checks.js'
import { DirectoryClaims } from './directory-claims.js'
import type {
  DirectoryAdministrator,
  DirectoryDocument,
  DirectoryUser,
} from './directory-file-schema.js'
import {
  type DirectoryPath,
  type DirectoryProblem,
  formatDirectoryPath,
} from './directory-problem.js'

/** Login names appear unencoded in URL paths; so do the names of pickup groups (the control plane's). */
const LOGIN_NAME = /^[A-Za-z0-9._-]+$/
/** Longer than any PBX's group names; a name is a label, not a text. */
export const PICKUP_GROUP_NAME_MAX = 64
/** Device ids are phone numbers. */
const DIGITS = /^[0-9]+$/
/** Outside and public numbers: digits, optionally after a `+`. */
const PHONE_NUMBER = /^\+?[0-9]+$/

/** The rest of the directory a single user is checked against. */
export interface UserContext {
  /** The unique values the other accounts hold. */
  claims: DirectoryClaims
  /** The directory's languages, which preferences must name. */
  languages: { gui: readonly string[]; tui: readonly string[] }
  /** Whether `loginName` is a user's (an assistant must be one). */
  isUser(loginName: string): boolean
}

type Report = (problem: DirectoryProblem) => void

/** Every problem of a document the schema accepted. */
export function checkDirectoryDocument(document: DirectoryDocument): DirectoryProblem[] {
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
  checkHuntingGroups(document, report)
  checkSupervisionGroups(document, report)
  checkDeskSharing(document, report)
  checkContactCenter(document, report)
  return problems
}

/** The supervision groups: unique names, users for supervisors and supervised, none supervising itself. */
function checkSupervisionGroups(document: DirectoryDocument, report: Report): void {
  const users = new Set(document.users.map((user) => user.loginName))
  const names = new Map<string, string>()
  document.supervisionGroups?.forEach((group, index) => {
    const path: DirectoryPath = ['supervisionGroups', index]
    const problem = pickupGroupNameProblem(group.name)
    if (problem !== undefined) report({ path: [...path, 'name'], message: problem })
    else if (names.has(group.name))
      report({
        path: [...path, 'name'],
        message: `${JSON.stringify(group.name)} is already the name of ${names.get(group.name)}`,
      })
    else names.set(group.name, formatDirectoryPath(path))
    for (const field of ['supervisors', 'supervised'] as const)
      group[field].forEach((login, position) => {
        if (!users.has(login))
          report({ path: [...path, field, position], message: `no user '${login}'` })
      })
    group.supervised.forEach((login, position) => {
      if (group.supervisors.includes(login))
        report({
          path: [...path, 'supervised', position],
          message: `'${login}' is one of the group's supervisors`,
        })
    })
  })
}

/**
 * Desk sharing (docs/directory-file.md, "Desk sharing"): a desk-sharing user has exactly one device, its
 * number; a set's number is digits no device, company phone, voice mail, hunting group or other set has.
 */
function checkDeskSharing(document: DirectoryDocument, report: Report): void {
  const taken = new Map<string, string>()
  document.users.forEach((user, index) => {
    for (const device of user.devices ?? []) taken.set(device.id, 'a device')
    if (user.companyPhone !== undefined && !taken.has(user.companyPhone))
      taken.set(user.companyPhone, 'a company phone')
    if (user.deskSharing === true && (user.devices ?? []).length !== 1)
      report({
        path: ['users', index, 'deskSharing'],
        message: `a desk-sharing user has exactly one device, its number (${user.loginName} has ${(user.devices ?? []).length})`,
      })
  })
  const voicemailNumber = document.numberingPlan.voicemailNumber
  if (voicemailNumber !== undefined) taken.set(voicemailNumber, 'the voice-mail number')
  for (const group of document.huntingGroups ?? []) taken.set(group.number, 'a hunting group')
  document.deskSharingSets?.forEach((set, index) => {
    const path: DirectoryPath = ['deskSharingSets', index, 'number']
    const already = taken.get(set.number)
    if (!DIGITS.test(set.number))
      report({ path, message: `${JSON.stringify(set.number)} must be digits` })
    else if (already !== undefined) report({ path, message: `${set.number} is already ${already}` })
    else taken.set(set.number, 'a desk-sharing set')
  })
}

/**
 * The hunting groups (docs/groups.md): a number of digits no device, other group or voice mail has; members
 * who are users with a device, each in one group at most; an overflow that names a user with a voice mail or a
 * number other than the group's, and one where the group overflows when busy.
 */
function checkHuntingGroups(document: DirectoryDocument, report: Report): void {
  const users = new Map(document.users.map((user) => [user.loginName, user]))
  const taken = new Set<string>()
  for (const user of document.users) {
    for (const device of user.devices ?? []) taken.add(device.id)
    if (user.companyPhone !== undefined) taken.add(user.companyPhone)
  }
  const voicemailNumber = document.numberingPlan.voicemailNumber
  if (voicemailNumber !== undefined) taken.add(voicemailNumber)
  const numbers = new Map<string, string>()
  const memberOf = new Map<string, string>()
  document.huntingGroups?.forEach((group, index) => {
    const path: DirectoryPath = ['huntingGroups', index]
    if (!DIGITS.test(group.number))
      report({
        path: [...path, 'number'],
        message: `${JSON.stringify(group.number)} must be digits`,
      })
    else if (taken.has(group.number))
      report({
        path: [...path, 'number'],
        message: `${group.number} is already a device, a company phone or the voice-mail number`,
      })
    else if (numbers.has(group.number))
      report({
        path: [...path, 'number'],
        message: `${group.number} is already the number of ${numbers.get(group.number)}`,
      })
    else numbers.set(group.number, formatDirectoryPath(path))
    group.members.forEach((member, position) => {
      const at: DirectoryPath = [...path, 'members', position]
      const user = users.get(member)
      if (user === undefined) report({ path: at, message: `no user '${member}'` })
      else if ((user.devices ?? []).length === 0)
        report({ path: at, message: `'${member}' has no device the group could ring` })
      else if (memberOf.has(member))
        report({ path: at, message: `'${member}' is already a member of ${memberOf.get(member)}` })
      else memberOf.set(member, formatDirectoryPath(path))
    })
    const { overflow } = group
    if (overflow !== undefined && 'voicemailOf' in overflow) {
      if (users.get(overflow.voicemailOf)?.voicemail === undefined)
        report({
          path: [...path, 'overflow', 'voicemailOf'],
          message: `no user '${overflow.voicemailOf}' with a voice mail`,
        })
    } else if (overflow !== undefined && overflow.number === group.number)
      report({ path: [...path, 'overflow', 'number'], message: 'is the group itself' })
    if (group.whenBusy === 'OVERFLOW' && overflow === undefined)
      report({ path: [...path, 'whenBusy'], message: 'OVERFLOW needs an overflow' })
    if (group.queueTimeoutSeconds !== undefined && (group.whenBusy ?? 'QUEUE') !== 'QUEUE')
      report({
        path: [...path, 'queueTimeoutSeconds'],
        message: `is for QUEUE only, and this group is ${group.whenBusy}`,
      })
  })
}

/**
 * Every problem of one user the schema accepted, against the rest of the directory in `context`, whose
 * claims receive this user's values. Paths start at the user.
 */
export function checkDirectoryUser(user: DirectoryUser, context: UserContext): DirectoryProblem[] {
  const problems: DirectoryProblem[] = []
  const report: Report = (problem) => problems.push(problem)
  checkUser(user, [], context, report)
  checkAssistants(user, [], context.isUser, report)
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
  user.devices?.forEach((device, deviceIndex) => {
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

  if (user.pickupGroup !== undefined) {
    const problem = pickupGroupNameProblem(user.pickupGroup)
    if (problem !== undefined) report({ path: [...path, 'pickupGroup'], message: problem })
  }

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

/** What is wrong with a pickup group's name, if anything. */
export function pickupGroupNameProblem(name: string): string | undefined {
  if (!LOGIN_NAME.test(name))
    return `${JSON.stringify(name)} may contain only letters, digits, ".", "_" and "-"`
  if (name.length > PICKUP_GROUP_NAME_MAX)
    return `${JSON.stringify(name)} is longer than ${PICKUP_GROUP_NAME_MAX} characters`
  return undefined
}
