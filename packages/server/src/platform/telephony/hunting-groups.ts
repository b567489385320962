/**
 * Hunting groups as the call engine holds them (docs/groups.md): a number of the plan, its members in hunt
 * order, its policy and settings, and what the engine remembers between calls (who is logged off, who was
 * served last, since when each member is idle, which calls wait). Data only, in the engine's state, so that a
 * group call is as durable, deterministic and replayable as any call; the operations are in
 * operations/hunting.ts.
 */
import type { Group } from '@openness/wire'

/** How a call to the group is offered to its members. */
export const HUNT_POLICIES = ['PARALLEL', 'SEQUENTIAL', 'CIRCULAR', 'LONGEST_IDLE'] as const
export type HuntPolicy = (typeof HUNT_POLICIES)[number]

/** What a call does when no member can be offered it on arrival. */
export const WHEN_BUSY = ['QUEUE', 'OVERFLOW', 'BUSY'] as const
export type WhenBusy = (typeof WHEN_BUSY)[number]

/** Where an overflow sends the call: a number of the plan or outside, or a user's voice mail. */
export type HuntOverflow = { number: string } | { voicemailOf: string }

/** A hunting group's definition: what the directory file, the control plane and the API set. */
export interface HuntingGroupDefinition {
  /** The group's number in the numbering plan: a call to it is distributed. */
  number: string
  name: string
  policy: HuntPolicy
  /** Login names, in hunt order (SEQUENTIAL, CIRCULAR; LONGEST_IDLE's order among equals). */
  members: string[]
  /** How long a member rings before the call moves on. */
  noAnswerMs: number
  whenBusy: WhenBusy
  /** QUEUE: how many calls may wait at most (then the overflow, else busy). */
  queueSize: number
  /** QUEUE: how long a call waits at most before the overflow (else NOT_ANSWERED); absent: no limit. */
  queueTimeoutMs?: number
  /** Where a call goes when no member answers, or none can take it and it may not wait. */
  overflow?: HuntOverflow
  /** Whether users may join and leave the group themselves (POST/DELETE /telephony/huntingGroupMember). */
  selfJoin: boolean
}

/** A hunting group in the engine: its definition and what the engine remembers between calls. */
export interface HuntingGroup extends HuntingGroupDefinition {
  /** The members logged off: not offered calls. A member joins logged on. */
  loggedOff: string[]
  /** CIRCULAR: the member who answered last; the next call starts after them. */
  lastServed?: string
  /** LONGEST_IDLE: when each member's last call ended (a member never seen busy counts as idle since 0). */
  idleSince: Record<string, number>
  /** The callRefs of the calls waiting for a free member, oldest first. */
  queue: string[]
}

/** What a call remembers while its group distributes it. */
export interface Hunt {
  /** The group's number. */
  group: string
  /** The members offered the call in this round, in the order they were. */
  tried: string[]
  /** Set while the call waits in the group's queue (when it started waiting). */
  queuedAt?: number
}

/** The groups by number. */
export type HuntingGroups = Readonly<Record<string, HuntingGroup>>

/** A group as the engine starts it from its definition: everyone logged on, nobody served yet, no call waiting. */
export function newHuntingGroup(definition: HuntingGroupDefinition): HuntingGroup {
  return { ...structuredClone(definition), loggedOff: [], idleSince: {}, queue: [] }
}

/** The group `loginName` is a member of (a user is in one hunting group at most). */
export function groupOfMember(
  groups: HuntingGroups | undefined,
  loginName: string,
): HuntingGroup | undefined {
  if (groups === undefined) return undefined
  for (const number in groups) {
    const group = groups[number]
    if (group?.members.includes(loginName)) return group
  }
  return undefined
}

/** Whether the member is logged on in the group. */
export function isLoggedOn(group: HuntingGroup, loginName: string): boolean {
  return group.members.includes(loginName) && !group.loggedOff.includes(loginName)
}

/** The default time a member rings before the call moves on. */
export const DEFAULT_NO_ANSWER_MS = 15_000
/** The default number of calls that may wait. */
export const DEFAULT_QUEUE_SIZE = 10
/** The most members a group has (a parallel group rings them all at once). */
export const MAX_MEMBERS = 100
/** The most groups the engine holds (their definitions are stored with every batch: docs/groups.md). */
export const MAX_GROUPS = 200

/** The id of a hunting group in the groups resource (docs/groups.md, "The groups resource"). */
export function huntingGroupId(number: string): string {
  return `hunting-${number}`
}

/** A hunting group as the groups resource and its events show it: its members AGENTs, logged on or not. */
export function huntingGroupView(group: HuntingGroup): Group {
  return {
    groupId: huntingGroupId(group.number),
    type: 'HUNTING_GROUP',
    name: group.name,
    number: group.number,
    policy: group.policy,
    members: group.members.map((loginName) => ({
      loginName,
      role: 'AGENT' as const,
      logon: !group.loggedOff.includes(loginName),
    })),
  }
}
