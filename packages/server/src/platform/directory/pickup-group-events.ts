/**
 * The groups events of a directory change that moves users between pickup groups (docs/groups.md, "The groups
 * resource"): a user a pickup group now has and had not gets OnGroupCreated, one it had and has not
 * OnGroupRemoved, the members who stay OnGroupModified. Only a change that saves or deletes an account whose
 * pickup group differs looks at the groups at all.
 */

import type { PlatformEvent } from '../events.js'
import { pickupGroupId, pickupGroupView } from '../groups/user-groups.js'
import type { DirectoryChange, DirectoryState } from './directory-change.js'
import { pickupGroupsOf } from './pickup-groups.js'

/** The members of each named pickup group in the directory as it is. */
function membersOf(directory: DirectoryState, names: ReadonlySet<string>): Map<string, string[]> {
  const members = new Map<string, string[]>([...names].map((name) => [name, []]))
  for (const group of pickupGroupsOf(directory))
    if (names.has(group.name)) members.set(group.name, group.members)
  return members
}

/**
 * Called with the change as planned, before it is carried out: returns what to call once it is, which gives the
 * events of the pickup groups it changed.
 */
export function pickupGroupEvents(
  directory: DirectoryState,
  change: DirectoryChange<unknown>,
): () => PlatformEvent[] {
  const names = new Set<string>()
  const groupOf = (loginName: string) => directory.findUser(loginName)?.record.pickupGroup
  if (change.delete !== undefined) {
    const name = groupOf(change.delete)
    if (name !== undefined) names.add(name)
  }
  for (const account of change.save) {
    if (account.kind !== 'USER') continue
    const was = groupOf(account.loginName)
    const is = account.record.pickupGroup
    if (was === is) continue
    if (was !== undefined) names.add(was)
    if (is !== undefined) names.add(is)
  }
  if (names.size === 0) return () => []
  const before = membersOf(directory, names)
  return () => {
    const after = membersOf(directory, names)
    const events: PlatformEvent[] = []
    for (const name of [...names].sort()) {
      const was = before.get(name) ?? []
      const is = after.get(name) ?? []
      const group = pickupGroupView({ name, members: is })
      for (const loginName of is)
        events.push({
          eventName: was.includes(loginName) ? 'OnGroupModified' : 'OnGroupCreated',
          loginName,
          group,
        })
      // A deleted user is told nothing more (OnUserDeleted said it all).
      for (const loginName of was)
        if (!is.includes(loginName) && loginName !== change.delete)
          events.push({ eventName: 'OnGroupRemoved', loginName, groupId: pickupGroupId(name) })
    }
    return events
  }
}
