/**
 * A user's routing (docs/routing.md): do not disturb, the remote extension, one forward route and one
 * overflow route. Data only: the routing service stores and changes it, the call engine reads it.
 */
import type { ForwardRoute, ForwardType, OverflowRoute, RoutingState } from '@openness/wire'

/** When a forward applies: IMMEDIATE (the wire's absent `forwardType`) or one of the wire's conditions. */
export type ForwardCondition = 'IMMEDIATE' | ForwardType

/** Where a forward sends calls: the user's voice mail, or a number (a user's device or outside). */
export type ForwardTarget = { type: 'VOICEMAIL' } | { type: 'NUMBER'; number: string }

/** Where an overflow sends calls: the user's voice mail, or the user's associate (another device of theirs). */
export type OverflowTarget = 'VOICEMAIL' | 'ASSOCIATE'

/** What is stored for one user. */
export interface RoutingProfile {
  /** Do not disturb: calls go to the voice mail, or are refused (docs/routing.md, "What the call engine does"). */
  dnd: boolean
  /** The remote extension (presentation route MOBILE `selected`): stored and reported; calls do not use it. */
  remoteExtension: boolean
  forward?: { condition: ForwardCondition; target: ForwardTarget }
  overflow?: { condition: ForwardType; target: OverflowTarget }
}

/** The routing of a user nobody changed. */
export const NO_ROUTING: RoutingProfile = Object.freeze({ dnd: false, remoteExtension: false })

/** The user's routing, by login name; undefined for a user nobody changed (NO_ROUTING). */
export type RoutingLookup = (loginName: string) => RoutingProfile | undefined

/** True when the profile is NO_ROUTING in all but identity (nothing to store). */
export function isNoRouting(profile: RoutingProfile): boolean {
  return (
    !profile.dnd &&
    !profile.remoteExtension &&
    profile.forward === undefined &&
    profile.overflow === undefined
  )
}

/** The ForwardRoute the wire shows: no `forwardType` for an immediate forward (wire facts 8.3). */
export function forwardRouteOf(profile: RoutingProfile): ForwardRoute | undefined {
  const { forward } = profile
  if (forward === undefined) return undefined
  return {
    ...(forward.condition !== 'IMMEDIATE' && { forwardType: forward.condition }),
    destinations: [
      forward.target.type === 'VOICEMAIL'
        ? { type: 'VOICEMAIL' }
        : { type: 'NUMBER', number: forward.target.number },
    ],
  }
}

/** The OverflowRoute the wire shows. */
export function overflowRouteOf(profile: RoutingProfile): OverflowRoute | undefined {
  const { overflow } = profile
  if (overflow === undefined) return undefined
  return { overflowType: overflow.condition, destinations: [{ type: overflow.target }] }
}

/**
 * The RoutingState of GET /routing/state and OnRoutingStateChanged: the presentation route only for a
 * user with a MOBILE device, the forward and overflow routes only when set, the DND state always.
 */
export function routingStateOf(profile: RoutingProfile, hasMobile: boolean): RoutingState {
  const forward = forwardRouteOf(profile)
  const overflow = overflowRouteOf(profile)
  return {
    ...(hasMobile && {
      presentationRoutes: [
        { destinations: [{ type: 'MOBILE', selected: profile.remoteExtension }] },
      ],
    }),
    ...(forward !== undefined && { forwardRoutes: [forward] }),
    ...(overflow !== undefined && { overflowRoutes: [overflow] }),
    dndState: { activate: profile.dnd },
  }
}
