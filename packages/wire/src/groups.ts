/**
 * Groups (service `Groups`, `/groups`; docs/groups.md, "The groups resource"): the specification names the
 * `groups` feature, its events and the values GroupType HUNTING_GROUP and GroupMemberRole AGENT, and shows no
 * payload; these records are the platform's own, in the family's conventions.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'

export const GROUP_TYPES = ['HUNTING_GROUP', 'PICKUP_GROUP', 'SUPERVISION_GROUP'] as const
export const GroupType = enumeration(GROUP_TYPES, { title: 'GroupType' })
export type GroupType = (typeof GROUP_TYPES)[number]

export const GROUP_MEMBER_ROLES = ['MEMBER', 'AGENT', 'SUPERVISOR'] as const
export const GroupMemberRole = enumeration(GROUP_MEMBER_ROLES, { title: 'GroupMemberRole' })
export type GroupMemberRole = (typeof GROUP_MEMBER_ROLES)[number]

/** A member of a group. */
export const GroupMember = Type.Object(
  {
    loginName: Type.String(),
    role: GroupMemberRole,
    logon: Type.Optional(
      Type.Boolean({
        description: 'HUNTING_GROUP: whether the member is logged on (offered calls)',
      }),
    ),
  },
  { title: 'GroupMember' },
)
export type GroupMember = Static<typeof GroupMember>

/** A group a user belongs to. */
export const Group = Type.Object(
  {
    groupId: Type.String({
      description:
        'hunting-{number} for a hunting group, pickup-{name} for a pickup group, supervision-{name} for a supervision group',
    }),
    type: GroupType,
    name: Type.String(),
    number: Type.Optional(Type.String({ description: "HUNTING_GROUP: the group's number" })),
    policy: Type.Optional(
      Type.String({
        description: 'HUNTING_GROUP: PARALLEL, SEQUENTIAL, CIRCULAR or LONGEST_IDLE',
      }),
    ),
    members: Type.Array(GroupMember, { description: 'in hunt order for a hunting group' }),
  },
  { title: 'Group' },
)
export type Group = Static<typeof Group>

/** GET /groups. */
export const Groups = Type.Object({ groups: Type.Array(Group) }, { title: 'Groups' })
export type Groups = Static<typeof Groups>
