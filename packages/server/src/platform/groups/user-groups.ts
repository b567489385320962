/**
 * The groups a user belongs to, as the groups resource shows them (docs/groups.md, "The groups resource"): its
 * hunting group, from the call engine (members AGENTs, with their log-on), its pickup group, from the directory
 * (members MEMBERs), and the supervision groups it supervises or is supervised in, from the directory file
 * (SUPERVISORs, then the MEMBERs they supervise). A user is in one hunting and one pickup group at most.
 */
import type { Group } from '@openness/wire'
import type { SupervisionGroup } from '../directory/account.js'
import type { PickupGroup } from '../directory/pickup-groups.js'
import { PlatformError } from '../platform-error.js'
import { groupOfMember, type HuntingGroups, huntingGroupView } from '../telephony/hunting-groups.js'

/** The id of a pickup group in the groups resource. */
export function pickupGroupId(name: string): string {
  return `pickup-${name}`
}

/** A pickup group as the groups resource shows it. */
export function pickupGroupView(group: PickupGroup): Group {
  return {
    groupId: pickupGroupId(group.name),
    type: 'PICKUP_GROUP',
    name: group.name,
    members: group.members.map((loginName) => ({ loginName, role: 'MEMBER' as const })),
  }
}

/** The id of a supervision group in the groups resource. */
export function supervisionGroupId(name: string): string {
  return `supervision-${name}`
}

/** A supervision group as the groups resource shows it: its supervisors, then the users they supervise. */
export function supervisionGroupView(group: SupervisionGroup): Group {
  return {
    groupId: supervisionGroupId(group.name),
    type: 'SUPERVISION_GROUP',
    name: group.name,
    members: [
      ...group.supervisors.map((loginName) => ({ loginName, role: 'SUPERVISOR' as const })),
      ...group.supervised.map((loginName) => ({ loginName, role: 'MEMBER' as const })),
    ],
  }
}

/** What the groups of a user are read from. */
export interface GroupSources {
  /** The engine's hunting groups. */
  huntingGroups: HuntingGroups | undefined
  /** The pickup group the user is in, with its members; undefined when none. */
  pickupGroupOf(loginName: string): PickupGroup | undefined
  /** The directory file's supervision groups. */
  supervisionGroups: readonly SupervisionGroup[]
}

/** The groups `loginName` belongs to: its hunting group, its pickup group, then its supervision groups. */
export function groupsOf(sources: GroupSources, loginName: string): Group[] {
  const groups: Group[] = []
  const hunting = groupOfMember(sources.huntingGroups, loginName)
  if (hunting !== undefined) groups.push(huntingGroupView(hunting))
  const pickup = sources.pickupGroupOf(loginName)
  if (pickup !== undefined) groups.push(pickupGroupView(pickup))
  for (const group of sources.supervisionGroups)
    if (group.supervisors.includes(loginName) || group.supervised.includes(loginName))
      groups.push(supervisionGroupView(group))
  return groups
}

/** The group `groupId` among those `loginName` belongs to; NOT_FOUND otherwise. */
export function groupOf(sources: GroupSources, loginName: string, groupId: string): Group {
  const group = groupsOf(sources, loginName).find((each) => each.groupId === groupId)
  if (group === undefined)
    throw new PlatformError('NOT_FOUND', `'${loginName}' is in no group '${groupId}'`)
  return group
}
