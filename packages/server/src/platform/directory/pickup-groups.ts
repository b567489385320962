/**
 * Pickup groups (docs/directory-file.md, "Pickup groups"): named sets of users who may pick up each other's
 * ringing calls. A group is the users whose record names it (`pickupGroup`), so a user is in one group at
 * most and a group exists while a user is in it. The control plane reads them here and changes them as a
 * whole (docs/control-plane.md, "Pickup groups"), each change planned as a DirectoryChange.
 */
import { PlatformError } from '../platform-error.js'
import type { UserAccount } from './account.js'
import { type DirectoryChange, type DirectoryState, noChange } from './directory-change.js'
import { pickupGroupNameProblem } from './directory-document-checks.js'
import { refusal } from './user-entry.js'

/** A pickup group and its members, by login name. */
export interface PickupGroup {
  name: string
  members: string[]
}

/** Every pickup group, by name, each with its members by login name. */
export function pickupGroupsOf(directory: Pick<DirectoryState, 'accounts'>): PickupGroup[] {
  const groups = new Map<string, string[]>()
  for (const account of directory.accounts()) {
    const name = account.kind === 'USER' ? account.record.pickupGroup : undefined
    if (name === undefined) continue
    groups.set(name, [...(groups.get(name) ?? []), account.loginName])
  }
  return [...groups]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, members]) => ({ name, members: members.sort(compareNames) }))
}

/** The pickup group `name`, or NOT_FOUND when no user is in it. */
export function existingPickupGroup(
  directory: Pick<DirectoryState, 'accounts'>,
  name: string,
): PickupGroup {
  const group = pickupGroupsOf(directory).find((found) => found.name === name)
  if (group === undefined) throw new PlatformError('NOT_FOUND', `No pickup group '${name}'`)
  return group
}

/**
 * Makes `members` (a JSON body's field, checked here) exactly the users of the group `name`: a user listed
 * joins it, leaving the group it was in; a member not listed leaves it. No OnUserInfoChanged: the pickup group
 * is not part of the User record; the Directory adds the groups events of who moved (pickup-group-events.ts). A
 * refusal names every problem, as the directory's other changes do.
 */
export function setPickupGroup(
  directory: DirectoryState,
  name: string,
  body: unknown,
): DirectoryChange<PickupGroup> {
  const members = checkMembers(directory, name, body)
  const listed = new Set(members)
  const save: UserAccount[] = []
  for (const account of directory.accounts()) {
    if (account.kind !== 'USER') continue
    const isIn = account.record.pickupGroup === name
    if (listed.has(account.loginName) && !isIn) save.push(inGroup(account, name))
    else if (!listed.has(account.loginName) && isIn) save.push(inGroup(account, undefined))
  }
  const result = { name, members: [...members].sort(compareNames) }
  return save.length === 0 ? noChange(result) : { save, events: [], result }
}

/** Takes every member out of the group `name`, which then no longer exists; NOT_FOUND when none is in it. */
export function deletePickupGroup(directory: DirectoryState, name: string): DirectoryChange<void> {
  const { members } = existingPickupGroup(directory, name)
  const save = members.flatMap((loginName) => {
    const user = directory.findUser(loginName)
    return user === undefined ? [] : [inGroup(user, undefined)]
  })
  return { save, events: [], result: undefined }
}

/** The account with its record in the group `name`, or in none. */
function inGroup(account: UserAccount, name: string | undefined): UserAccount {
  const { pickupGroup: _left, ...record } = account.record
  return { ...account, record: name === undefined ? record : { ...record, pickupGroup: name } }
}

/** The members of a body `{members: [login, ...]}`: the users' login names, at least one, none twice. */
function checkMembers(directory: DirectoryState, name: string, body: unknown): string[] {
  const nameProblem = pickupGroupNameProblem(name)
  if (nameProblem !== undefined)
    throw new PlatformError('BAD_PARAMETER', `pickup group name: ${nameProblem}`)
  const fields = body ?? {}
  if (typeof fields !== 'object' || Array.isArray(fields))
    throw new PlatformError('BAD_PARAMETER', 'The body must be a JSON object: {"members": [...]}')
  const unknown = Object.keys(fields).filter((key) => key !== 'members')
  if (unknown.length > 0)
    throw new PlatformError('BAD_PARAMETER', `${unknown.join(', ')}: not a known field (members)`)
  const members = (fields as { members?: unknown }).members
  if (!Array.isArray(members) || members.length === 0)
    throw new PlatformError(
      'BAD_PARAMETER',
      `members: required, a list of at least one login name (DELETE the group to empty it)`,
    )
  const problems = members.flatMap((member: unknown, index) => {
    const path = ['members', index]
    if (typeof member !== 'string') return [{ path, message: 'must be a login name (a string)' }]
    if (members.indexOf(member) !== index)
      return [{ path, message: `${JSON.stringify(member)} is listed twice` }]
    if (directory.findUser(member) === undefined)
      return [{ path, message: `${JSON.stringify(member)} is not the login name of a user` }]
    return []
  })
  if (problems.length > 0) throw refusal(problems, 'pickup group')
  return members as string[]
}

/** The order of the names' characters (names are ASCII: letters, digits, `.`, `_`, `-`). */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
