/**
 * Turns a validated directory file into the snapshot the durable store keeps (docs/directory-file.md,
 * "The file and the store"). The file rules provisioning; what users change through the API (their
 * password, their preferences) survives a new import; accounts gone from the file are gone.
 */
import type { User, UserPreferences } from '@openness/wire'
import {
  type ContactCenterDefinition,
  DEFAULT_QUEUE_SIZE as DEFAULT_ACD_QUEUE_SIZE,
  DEFAULT_NO_ANSWER_MS as DEFAULT_AGENT_NO_ANSWER_MS,
  DEFAULT_WRAP_UP_MS,
  type PilotCalendar,
  type Transition,
  WEEK_DAYS,
} from '../acd/contact-center.js'
import type { PasswordHasher } from '../auth/password-hasher.js'
import type { Revision } from '../change-notices.js'
import {
  DEFAULT_NO_ANSWER_MS,
  DEFAULT_QUEUE_SIZE,
  type HuntingGroupDefinition,
} from '../telephony/hunting-groups.js'
import type {
  AdministratorRecord,
  ContactCenterLicenses,
  DirectorySettings,
  StoredAccount,
  UserRecord,
} from './account.js'
import type {
  DirectoryContactCenter,
  DirectoryPilot,
  FileTransition,
} from './contact-center-file-schema.js'
import {
  DEFAULT_CLIR_MODE,
  DEFAULT_NODE_ID,
  type DirectoryAdministrator,
  type DirectoryDocument,
  type DirectoryHuntingGroup,
  type DirectoryUser,
} from './directory-file-schema.js'
import type { DirectorySnapshot, StoredDirectory } from './directory-store.js'
import {
  type DirectoryImport,
  ImportedPasswords,
  type PasswordToHash,
  withPasswordHashes,
} from './imported-passwords.js'
import { party, withoutUndefined } from './manager-assistant.js'

type ConfigManagerAssistant = NonNullable<User['configManagerAssistant']>

/**
 * The snapshot of `document`, read from a file whose digest is `sourceDigest`, given the snapshot
 * stored before (undefined on the first start), with every password hashed: what the store keeps. The
 * same digest answers `previous` itself: nothing is rebuilt nor rehashed. `document` must have passed
 * validateDirectoryDocument. The service imports in two steps instead (planImport, then the Directory
 * hashes in the background); this is both steps at once.
 */
export async function importDirectory(
  document: DirectoryDocument,
  sourceDigest: string,
  previous: DirectorySnapshot | undefined,
  hasher: PasswordHasher,
): Promise<DirectorySnapshot> {
  const imported = planImport(document, sourceDigest, previous)
  if (!('snapshot' in imported)) return imported
  const hashes = await new ImportedPasswords(imported.passwords, hasher).all()
  return withPasswordHashes(imported.snapshot, hashes)
}

/**
 * The import of `document` without hashing anything: its snapshot, where the accounts whose password the
 * file gives in clear have no hash yet, and those passwords. When `previous` was imported from the same
 * file (`sourceDigest`) there is nothing to import: `previous` itself is the answer.
 */
export function planImport(
  document: DirectoryDocument,
  sourceDigest: string,
  previous: DirectorySnapshot | undefined,
): DirectoryImport | DirectorySnapshot {
  if (previous?.sourceDigest === sourceDigest) return previous

  const settings = importSettings(document)
  const before = new Map<string, StoredAccount>()
  for (const account of previous?.accounts ?? []) before.set(accountKey(account), account)
  const passwords: PasswordToHash[] = []

  const managerAssistant = managerAssistantConfigurations(document.users)
  const users = document.users.map((user): StoredAccount => {
    const record = userRecord(user, settings.nodeId, managerAssistant.get(user.loginName))
    const earlier = before.get(accountKey({ kind: 'USER', loginName: user.loginName }))
    return {
      kind: 'USER',
      loginName: user.loginName,
      record,
      ...password(user, earlier, passwords),
      preferences: earlier?.preferences ?? structuredClone(user.preferences ?? {}),
    }
  })
  const administrators = (document.administrators ?? []).map((administrator): StoredAccount => {
    const loginName = administrator.loginName
    const earlier = before.get(accountKey({ kind: 'ADMINISTRATOR', loginName }))
    return {
      kind: 'ADMINISTRATOR',
      loginName,
      record: administratorRecord(administrator),
      ...password(administrator, earlier, passwords),
      preferences: earlier?.preferences ?? ({} satisfies UserPreferences),
    }
  })
  const stored = previous as Partial<StoredDirectory> | undefined
  return {
    snapshot: { sourceDigest, settings, accounts: [...users, ...administrators] },
    passwords,
    ...((previous === undefined || stored?.revisions !== undefined) && {
      basedOn: stored?.revisions ?? new Map<string, Revision>(),
    }),
  }
}

/**
 * `snapshot`, an import planned on an earlier state of the store, merged again with `stored`, what the store
 * holds now: what users changed through the API since (their preferences, a password they changed) survives
 * the import, as planImport keeps what they changed before it.
 */
export function rebaseImport(
  snapshot: DirectorySnapshot,
  stored: DirectorySnapshot | undefined,
): DirectorySnapshot {
  const now = new Map<string, StoredAccount>()
  for (const account of stored?.accounts ?? []) now.set(accountKey(account), account)
  return {
    ...snapshot,
    accounts: snapshot.accounts.map((account): StoredAccount => {
      const current = now.get(accountKey(account))
      if (current === undefined) return account
      const changedPassword =
        current.passwordChangedAt === undefined
          ? {}
          : withoutUndefined({
              passwordHash: current.passwordHash,
              passwordChangedAt: current.passwordChangedAt,
            })
      return { ...account, ...changedPassword, preferences: current.preferences }
    }),
  }
}

/** An account is the same account when both its kind and its login name are the same. */
function accountKey(account: Pick<StoredAccount, 'kind' | 'loginName'>): string {
  return `${account.kind}:${account.loginName}`
}

/**
 * The password part of an account: a password changed through the API stays; else the file's hash;
 * else none yet, the file's password joining `toHash` (with the earlier hash, kept when it still verifies
 * it); else none.
 */
function password(
  account: DirectoryUser | DirectoryAdministrator,
  earlier: StoredAccount | undefined,
  toHash: PasswordToHash[],
): { passwordHash?: string; passwordChangedAt?: string } {
  if (earlier?.passwordChangedAt !== undefined) {
    return withoutUndefined({
      passwordHash: earlier.passwordHash,
      passwordChangedAt: earlier.passwordChangedAt,
    })
  }
  if (account.passwordHash !== undefined) return { passwordHash: account.passwordHash }
  if (account.password !== undefined) {
    toHash.push({
      loginName: account.loginName,
      password: account.password,
      ...(earlier?.passwordHash !== undefined && { earlierHash: earlier.passwordHash }),
    })
  }
  return {}
}

function importSettings(document: DirectoryDocument): DirectorySettings {
  const plan = document.numberingPlan
  const { licenses } = document
  const contactCenterLicenses: ContactCenterLicenses = withoutUndefined({
    CONTACTCENTER_AGENT: licenses.CONTACTCENTER_AGENT,
    CONTACTCENTER_SERVICE: licenses.CONTACTCENTER_SERVICE,
  })
  return {
    companyName: document.company.name,
    nodeId: document.company.nodeId ?? DEFAULT_NODE_ID,
    numberingPlan: withoutUndefined({
      countryCode: plan.countryCode,
      areaCode: plan.areaCode,
      externalPrefix: plan.externalPrefix,
      addPfxForNbLength: plan.addPfxForNbLength,
      exceptionRules: structuredClone(plan.exceptionRules ?? []),
      extensionLength: plan.extensionLength,
      voicemailNumber: plan.voicemailNumber,
      publicNumberPrefix: plan.publicNumberPrefix,
    }),
    licenses: {
      TELEPHONY_BASIC: licenses.TELEPHONY_BASIC,
      TELEPHONY_ADVANCED: licenses.TELEPHONY_ADVANCED,
      MESSAGING: licenses.MESSAGING,
      CONFERENCING: licenses.CONFERENCING,
    },
    ...(Object.keys(contactCenterLicenses).length > 0 && { contactCenterLicenses }),
    languages: { gui: [...document.languages.gui], tui: [...document.languages.tui] },
    ...(document.outsideParties && { outsideParties: structuredClone(document.outsideParties) }),
    ...(document.huntingGroups && { huntingGroups: document.huntingGroups.map(huntingGroupOf) }),
    ...(document.supervisionGroups && {
      supervisionGroups: structuredClone(document.supervisionGroups),
    }),
    ...(document.deskSharingSets && {
      deskSharingSets: document.deskSharingSets.map((set) => ({ ...set })),
    }),
    // The installed CONTACTCENTER_AGENT licenses bound the operators logged on at once (the engine counts them).
    ...(document.contactCenter && {
      contactCenter: {
        ...contactCenterOfFile(document.contactCenter),
        ...(licenses.CONTACTCENTER_AGENT !== undefined && {
          agentLicenses: licenses.CONTACTCENTER_AGENT,
        }),
      },
    }),
  }
}

/**
 * The file's contact center as the engine takes it (platform/acd/contact-center.ts): times in milliseconds, the
 * defaults filled in, the lists the file leaves out empty.
 */
export function contactCenterOfFile(section: DirectoryContactCenter): ContactCenterDefinition {
  const ms = (seconds: number) => Math.round(seconds * 1000)
  const transitions = (list: readonly FileTransition[]): Transition[] =>
    list.map((transition) => ({
      time: transition.time,
      ruleNumber: transition.ruleNumber,
      mode: transition.mode ?? 'normal',
    }))
  const calendarOf = (calendar: NonNullable<DirectoryPilot['calendar']>): PilotCalendar => {
    const normal: PilotCalendar['normal'] = {}
    for (const day of WEEK_DAYS) {
      const list = calendar.normal?.[day]
      if (list !== undefined) normal[day] = transitions(list)
    }
    const exceptions: PilotCalendar['exceptions'] = {}
    for (const [date, list] of Object.entries(calendar.exceptions ?? {}))
      exceptions[date] = transitions(list)
    return { normal, exceptions }
  }
  return {
    ...(section.timeZone !== undefined && { timeZone: section.timeZone }),
    pilots: (section.pilots ?? []).map((pilot) => ({
      number: pilot.number,
      name: pilot.name,
      rules: pilot.rules.map((rule) => ({
        ruleNumber: rule.ruleNumber,
        name: rule.name,
        queue: rule.queue,
        ...(rule.skills !== undefined && {
          skills: rule.skills.map((need) => ({ number: need.number, level: need.level })),
        }),
      })),
      // The schema wants one rule at least: the first is the one in force by default.
      ruleNumber: pilot.ruleNumber ?? pilot.rules[0]?.ruleNumber ?? 1,
      open: pilot.open ?? true,
      ...(pilot.forwardTo !== undefined && { forwardTo: pilot.forwardTo }),
      ...(pilot.overflowTo !== undefined && { overflowTo: pilot.overflowTo }),
      ...(pilot.overflowAfterSeconds !== undefined && {
        overflowAfterMs: ms(pilot.overflowAfterSeconds),
      }),
      possibleTransfer: pilot.possibleTransfer ?? true,
      supervisedTransfer: pilot.supervisedTransfer ?? false,
      calendar:
        pilot.calendar === undefined ? { normal: {}, exceptions: {} } : calendarOf(pilot.calendar),
    })),
    queues: (section.queues ?? []).map((queue) => ({
      number: queue.number,
      name: queue.name,
      processingGroup: queue.processingGroup,
      size: queue.size ?? DEFAULT_ACD_QUEUE_SIZE,
    })),
    processingGroups: (section.processingGroups ?? []).map((group) => ({
      number: group.number,
      name: group.name,
      noAnswerMs:
        group.noAnswerSeconds === undefined
          ? DEFAULT_AGENT_NO_ANSWER_MS
          : ms(group.noAnswerSeconds),
      wrapUpMs: group.wrapUpSeconds === undefined ? DEFAULT_WRAP_UP_MS : ms(group.wrapUpSeconds),
      transactionCode: group.transactionCode ?? false,
      withdrawReasons: (group.withdrawReasons ?? []).map((reason) => ({
        index: reason.index,
        label: reason.label,
      })),
    })),
    operators: (section.operators ?? []).map((operator) => ({
      loginName: operator.loginName,
      type: operator.type,
      processingGroups: [...(operator.processingGroups ?? [])],
      skills: (operator.skills ?? []).map((skill) => ({
        number: skill.number,
        level: skill.level,
        active: skill.active ?? true,
      })),
      selfAssign: operator.selfAssign ?? false,
      headset: operator.headset ?? false,
      help: operator.help ?? true,
      multiline: operator.multiline ?? false,
    })),
    skills: (section.skills ?? []).map((skill) =>
      withoutUndefined({
        number: skill.number,
        name: skill.name,
        abvName: skill.abvName,
        domain: skill.domain,
      }),
    ),
  }
}

/** A hunting group of the file as the engine takes it: times in milliseconds, the defaults filled in. */
export function huntingGroupOf(group: DirectoryHuntingGroup): HuntingGroupDefinition {
  return {
    number: group.number,
    name: group.name,
    policy: group.policy,
    members: [...group.members],
    noAnswerMs: Math.round((group.noAnswerSeconds ?? DEFAULT_NO_ANSWER_MS / 1000) * 1000),
    whenBusy: group.whenBusy ?? 'QUEUE',
    queueSize: group.queueSize ?? DEFAULT_QUEUE_SIZE,
    ...(group.queueTimeoutSeconds !== undefined && {
      queueTimeoutMs: Math.round(group.queueTimeoutSeconds * 1000),
    }),
    ...(group.overflow !== undefined && { overflow: { ...group.overflow } }),
    selfJoin: group.selfJoin ?? false,
  }
}

/** The record of a user of the file; its configManagerAssistant is built apart, from every user. */
export function userRecord(
  user: DirectoryUser,
  nodeId: string,
  configManagerAssistant: ConfigManagerAssistant | undefined,
): UserRecord {
  const copy = structuredClone(user)
  return withoutUndefined({
    loginName: copy.loginName,
    salutation: copy.salutation,
    firstName: copy.firstName,
    lastName: copy.lastName,
    type: copy.type,
    companyPhone: copy.companyPhone,
    companyEmail: copy.companyEmail,
    instantMessagingId: copy.instantMessagingId,
    sipUri: copy.sipUri,
    site: copy.site,
    department: copy.department,
    apiRights: copy.apiRights,
    applicationRights: copy.applicationRights,
    devices: copy.devices,
    voicemail: copy.voicemail,
    dialingRule: copy.dialingRule,
    customAttributes: copy.customAttributes,
    configManagerAssistant,
    clirMode: copy.clirMode ?? DEFAULT_CLIR_MODE,
    pickupGroup: copy.pickupGroup,
    intrusion: copy.intrusion,
    intrusionProtection: copy.intrusionProtection,
    deskSharing: copy.deskSharing,
    nodeId,
  })
}

function administratorRecord(administrator: DirectoryAdministrator): AdministratorRecord {
  return withoutUndefined({
    loginName: administrator.loginName,
    firstName: administrator.firstName,
    lastName: administrator.lastName,
    supervisor: administrator.supervisor ?? false,
  })
}

/**
 * The file names a manager's assistants (`assistants: [login, ...]`); the specification's record has
 * both sides: `assistants` and `filters` for the manager, `managers` for each assistant. Keys number
 * the parties from 1 in the order of the file. The file has no filters yet, hence empty lists.
 */
function managerAssistantConfigurations(
  users: DirectoryUser[],
): Map<string, ConfigManagerAssistant> {
  const byLogin = new Map(users.map((user) => [user.loginName, user]))
  const configurations = new Map<string, ConfigManagerAssistant>()
  const configuration = (loginName: string): ConfigManagerAssistant => {
    let found = configurations.get(loginName)
    if (found === undefined) {
      found = {}
      configurations.set(loginName, found)
    }
    return found
  }
  for (const manager of users) {
    const assistants = (manager.assistants ?? []).flatMap((loginName) => {
      const assistant = byLogin.get(loginName)
      return assistant === undefined ? [] : [assistant]
    })
    if (assistants.length === 0) continue
    const managerSide = configuration(manager.loginName)
    managerSide.assistants = assistants.map((assistant, index) => party(assistant, index + 1))
    managerSide.filters = []
    for (const assistant of assistants) {
      const assistantSide = configuration(assistant.loginName)
      const managers = assistantSide.managers ?? []
      managers.push({ ...party(manager, managers.length + 1), supervisedFilters: [] })
      assistantSide.managers = managers
    }
  }
  return configurations
}
