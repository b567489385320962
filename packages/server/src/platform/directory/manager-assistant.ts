/**
 * The specification's configManagerAssistant records, both sides of them, kept in step when one user is
 * created, changed or deleted (docs/directory-file.md, "Managers and assistants"; docs/control-plane.md).
 * A manager's list of assistants is the truth; each assistant's `managers` follows from it.
 */

import { isDeepStrictEqual } from 'node:util'
import type { User } from '@openness/wire'
import type { UserRecord } from './account.js'

type ConfigManagerAssistant = NonNullable<User['configManagerAssistant']>
type AssistantParty = NonNullable<ConfigManagerAssistant['assistants']>[number]
type ManagerParty = NonNullable<ConfigManagerAssistant['managers']>[number]

/** The identity fields of a user that a manager or assistant record repeats. */
export interface PartyIdentity {
  loginName: string
  companyPhone?: string | undefined
  instantMessagingId?: string | undefined
  companyEmail?: string | undefined
  firstName?: string | undefined
  lastName?: string | undefined
}

/** One side of a manager-assistant pair: the other party's identity and its `key`, from 1. */
export function party(user: PartyIdentity, key: number): AssistantParty {
  return withoutUndefined({
    id: withoutUndefined({
      loginName: user.loginName,
      phoneNumber: user.companyPhone,
      instantMessagingId: user.instantMessagingId,
      companyEmail: user.companyEmail,
    }),
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim(),
    key,
  })
}

/** The login names of a user's assistants, in key order. */
export function assistantsOf(record: UserRecord | undefined): string[] {
  return loginsOf(record?.configManagerAssistant?.assistants)
}

/** What changes: the user `loginName`, its record after the change (none when deleted), its assistants. */
export interface ManagerAssistantChange {
  loginName: string
  record: UserRecord | undefined
  assistants: readonly string[]
}

/** What a change does to configManagerAssistant records. */
export interface Relinked {
  /** The changed user's own configManagerAssistant (undefined: none, or the user is deleted). */
  configuration: ConfigManagerAssistant | undefined
  /** The other users whose record changes, rebuilt, in login name order. */
  others: UserRecord[]
}

/**
 * The configManagerAssistant records `change` rebuilds: the changed user's own, and those of its former
 * and new assistants and of its managers (whose copy of its identity may be stale) when they differ.
 * `find` answers the users as they are before the change. Keys number each list from 1; an assistant's
 * managers keep their order, and a new manager comes last.
 */
export function relinkManagerAssistant(
  find: (loginName: string) => UserRecord | undefined,
  change: ManagerAssistantChange,
): Relinked {
  const { loginName } = change
  const after = (login: string) => (login === loginName ? change.record : find(login))
  const assistantsAfter = (login: string) =>
    (login === loginName ? [...change.assistants] : assistantsOf(find(login))).filter(
      (assistant) => after(assistant) !== undefined,
    )
  const configurationOf = (login: string) => {
    const previous = find(login)?.configManagerAssistant
    const managers = loginsOf(previous?.managers).filter((manager) =>
      assistantsAfter(manager).includes(login),
    )
    if (login !== loginName && assistantsAfter(loginName).includes(login)) {
      if (!managers.includes(loginName)) managers.push(loginName)
    }
    return build(assistantsAfter(login), managers, previous, after)
  }

  const before = find(loginName)
  const related = new Set([
    ...assistantsOf(before),
    ...change.assistants,
    ...loginsOf(before?.configManagerAssistant?.managers),
  ])
  related.delete(loginName)
  const others: UserRecord[] = []
  for (const login of [...related].sort()) {
    const record = find(login)
    if (record === undefined) continue
    const next = withConfiguration(record, configurationOf(login))
    if (!isDeepStrictEqual(next, record)) others.push(next)
  }
  return {
    configuration: change.record === undefined ? undefined : configurationOf(loginName),
    others,
  }
}

/** The record with this configManagerAssistant, or without any. */
export function withConfiguration(
  record: UserRecord,
  configuration: ConfigManagerAssistant | undefined,
): UserRecord {
  const next: UserRecord = { ...record }
  if (configuration === undefined) delete next.configManagerAssistant
  else next.configManagerAssistant = configuration
  return next
}

function build(
  assistants: readonly string[],
  managers: readonly string[],
  previous: ConfigManagerAssistant | undefined,
  find: (loginName: string) => UserRecord | undefined,
): ConfigManagerAssistant | undefined {
  const configuration: ConfigManagerAssistant = {}
  const identity = (login: string): PartyIdentity => find(login) ?? { loginName: login }
  if (assistants.length > 0) {
    configuration.assistants = assistants.map((login, index) => party(identity(login), index + 1))
    configuration.filters = previous?.filters ?? []
  }
  if (managers.length > 0) {
    configuration.managers = managers.map((login, index): ManagerParty => {
      const earlier = previous?.managers?.find((manager) => manager.id.loginName === login)
      return {
        ...party(identity(login), index + 1),
        supervisedFilters: earlier?.supervisedFilters ?? [],
      }
    })
  }
  return Object.keys(configuration).length === 0 ? undefined : configuration
}

function loginsOf(parties: readonly { id: { loginName?: string } }[] | undefined): string[] {
  return (parties ?? []).flatMap((entry) =>
    entry.id.loginName === undefined ? [] : [entry.id.loginName],
  )
}

/** The object without its undefined properties, so that stored records hold no empty keys. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T
}
