/**
 * The events a user receives about a call, derived from the call as the user saw it before a step and
 * after it: OnCallCreated, OnCallModified with only the deltas, OnCallRemoved (wire facts 6). Deriving
 * them keeps every operation simple and the events always consistent with the state.
 */
import type { Call, Leg, Participant } from '@openness/wire'
import type { PlatformEvent } from '../ports.js'
import type { StepCause } from './telephony-state.js'

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

function byKey<T>(items: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  return new Map((items ?? []).map((item) => [key(item), item]))
}

/** The event, if any, that takes `loginName` from `before` to `after` for one call. */
export function callEvent(
  loginName: string,
  before: Call | undefined,
  after: Call | undefined,
  cause: StepCause,
): PlatformEvent | undefined {
  if (before === undefined && after === undefined) return undefined
  if (before === undefined && after !== undefined) {
    return {
      eventName: 'OnCallCreated',
      loginName,
      callRef: after.callRef,
      ...(cause && { cause }),
      callData: after.callData,
      legs: after.legs,
      participants: after.participants,
      // The devices of the user in the call, with what they can do (wire facts 6).
      deviceCapabilities: (after.legs ?? []).map((leg) => ({
        deviceId: leg.deviceId,
        makeCall: true,
        makeBusinessCall: true,
        unParkCall: true,
      })),
    }
  }
  if (after === undefined && before !== undefined) {
    return {
      eventName: 'OnCallRemoved',
      loginName,
      callRef: before.callRef,
      ...(cause && { cause }),
      deviceCapabilities: [],
    }
  }
  if (before === undefined || after === undefined || same(before, after)) return undefined
  const legsBefore = byKey<Leg>(before.legs, (leg) => leg.deviceId)
  const legsAfter = byKey<Leg>(after.legs, (leg) => leg.deviceId)
  const partsBefore = byKey<Participant>(before.participants, (part) => part.participantId)
  const partsAfter = byKey<Participant>(after.participants, (part) => part.participantId)
  return {
    eventName: 'OnCallModified',
    loginName,
    callRef: after.callRef,
    ...(cause && { cause }),
    callData: after.callData,
    modifiedLegs: [...legsAfter]
      .filter(([id, leg]) => legsBefore.has(id) && !same(legsBefore.get(id), leg))
      .map(([, leg]) => leg),
    addedLegs: [...legsAfter].filter(([id]) => !legsBefore.has(id)).map(([, leg]) => leg),
    removedLegs: [...legsBefore].filter(([id]) => !legsAfter.has(id)).map(([, leg]) => leg),
    modifiedParticipants: [...partsAfter]
      .filter(([id, part]) => partsBefore.has(id) && !same(partsBefore.get(id), part))
      .map(([, part]) => part),
    addedParticipants: [...partsAfter]
      .filter(([id]) => !partsBefore.has(id))
      .map(([, part]) => part),
    removedParticipantIds: [...partsBefore.keys()].filter((id) => !partsAfter.has(id)),
    deviceCapabilities: [],
  }
}

/**
 * OnCallAppeared: "a new call for a mobile device exists" (specification, "Events"; since 2.5). A user
 * receives it, after the step's OnCallCreated or OnCallModified, when one of its MOBILE devices gets a leg in
 * the call, with the shape of OnCallCreated (wire facts 6 suggests it; no SDK parses it): the call as the
 * user sees it, its legs limited to the new mobile ones. docs/telephony-api.md, "Events".
 */
export function callAppeared(
  loginName: string,
  before: Call | undefined,
  after: Call | undefined,
  cause: StepCause,
  isMobile: ((deviceId: string) => boolean) | undefined,
): PlatformEvent | undefined {
  if (after === undefined || isMobile === undefined) return undefined
  const had = new Set((before?.legs ?? []).map((leg) => leg.deviceId))
  const appeared = (after.legs ?? []).filter(
    (leg) => !had.has(leg.deviceId) && isMobile(leg.deviceId),
  )
  if (appeared.length === 0) return undefined
  return {
    eventName: 'OnCallAppeared',
    loginName,
    callRef: after.callRef,
    ...(cause && { cause }),
    callData: after.callData,
    legs: appeared,
    participants: after.participants,
  }
}
