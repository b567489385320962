/**
 * Turns a validated directory file into the snapshot the durable store keeps (docs/directory-file.md,
 * "The file and the store"). The file rules provisioning; what users change through the API (their
 * password, their preferences) survives a new import; accounts gone from the file are gone.
 */
import type { User, UserPreferences } from '@openness/wire'
import type { PasswordHasher } from '../auth/password-hasher.js'
import type { DirectorySnapshot } from '../ports.js'
import type {
  AdministratorRecord,
  DirectorySettings,
  StoredAccount,
  UserRecord,
} from './account.js'
import {
  DEFAULT_CLIR_MODE,
  DEFAULT_NODE_ID,
  type DirectoryAdministrator,
  type DirectoryDocument,
  type DirectoryUser,
} from './directory-file-schema.js'
import { party, withoutUndefined } from './manager-assistant.js'

type ConfigManagerAssistant = NonNullable<User['configManagerAssistant']>

/**
 * The snapshot of `document`, read from a file whose digest is `sourceDigest`, given the snapshot
 * stored before (undefined on the first start). The same digest answers `previous` itself: nothing is
 * rebuilt nor rehashed. `document` must have passed validateDirectoryDocument.
 */
export async function importDirectory(
  document: DirectoryDocument,
  sourceDigest: string,
  previous: DirectorySnapshot | undefined,
  hasher: PasswordHasher,
): Promise<DirectorySnapshot> {
  if (previous?.sourceDigest === sourceDigest) return previous

  const settings = importSettings(document)
  const before = new Map<string, StoredAccount>()
  for (const account of previous?.accounts ?? []) before.set(accountKey(account), account)

  const managerAssistant = managerAssistantConfigurations(document.users)
  const users = document.users.map(async (user): Promise<StoredAccount> => {
    const record = userRecord(user, settings.nodeId, managerAssistant.get(user.loginName))
    const earlier = before.get(accountKey({ kind: 'USER', loginName: user.loginName }))
    return {
      kind: 'USER',
      loginName: user.loginName,
      record,
      ...(await password(user, earlier, hasher)),
      preferences: earlier?.preferences ?? structuredClone(user.preferences ?? {}),
    }
  })
  const administrators = (document.administrators ?? []).map(
    async (administrator): Promise<StoredAccount> => {
      const loginName = administrator.loginName
      const earlier = before.get(accountKey({ kind: 'ADMINISTRATOR', loginName }))
      return {
        kind: 'ADMINISTRATOR',
        loginName,
        record: administratorRecord(administrator),
        ...(await password(administrator, earlier, hasher)),
        preferences: earlier?.preferences ?? ({} satisfies UserPreferences),
      }
    },
  )
  return { sourceDigest, settings, accounts: await Promise.all([...users, ...administrators]) }
}

/** An account is the same account when both its kind and its login name are the same. */
function accountKey(account: Pick<StoredAccount, 'kind' | 'loginName'>): string {
  return `${account.kind}:${account.loginName}`
}

/**
 * The password part of an account: a password changed through the API stays; else the file's hash;
 * else the file's password, under the earlier hash when that one still verifies it; else none.
 */
async function password(
  account: DirectoryUser | DirectoryAdministrator,
  earlier: StoredAccount | undefined,
  hasher: PasswordHasher,
): Promise<{ passwordHash?: string; passwordChangedAt?: string }> {
  if (earlier?.passwordChangedAt !== undefined) {
    return withoutUndefined({
      passwordHash: earlier.passwordHash,
      passwordChangedAt: earlier.passwordChangedAt,
    })
  }
  if (account.passwordHash !== undefined) return { passwordHash: account.passwordHash }
  if (account.password === undefined) return {}
  if (
    earlier?.passwordHash !== undefined &&
    (await hasher.verify(account.password, earlier.passwordHash))
  ) {
    return { passwordHash: earlier.passwordHash }
  }
  return { passwordHash: await hasher.hash(account.password) }
}

function importSettings(document: DirectoryDocument): DirectorySettings {
  const plan = document.numberingPlan
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
    licenses: { ...document.licenses },
    languages: { gui: [...document.languages.gui], tui: [...document.languages.tui] },
    ...(document.outsideParties && { outsideParties: structuredClone(document.outsideParties) }),
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
