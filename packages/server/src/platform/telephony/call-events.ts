/**
 * The events a user receives about a call, derived from the call as the user saw it before a step and
 * after it: OnCallCreated, OnCallModified with only the deltas, OnCallRemoved (wire facts 6). Deriving
 * them keeps every operation simple and the events always consistent with the state.
 */
import type { Call, Leg, Participant } from '@openness/wire'
import type { PlatformEvent } from '../events.js'
import { sameJson } from './same-json.js'
import type { StepCause } from './telephony-state.js'

function byKey<T>(items: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  return new Map((items ?? []).map((item) => [key(item), item]))
}

/** The items of a keyed list that changed from `before` to `after`, in the order of `after`. */
interface Delta<T> {
  modified: T[]
  added: T[]
  /** The items gone, in the order of `before`. */
  removed: Map<string, T>
}

/** The delta from `before` to `after`; takes `before` over (what is left of it is `removed`). */
function delta<T>(before: Map<string, T>, after: ReadonlyMap<string, T>): Delta<T> {
  const modified: T[] = []
  const added: T[] = []
  for (const [key, item] of after) {
    if (!before.has(key)) added.push(item)
    else if (!sameJson(before.get(key), item)) modified.push(item)
    before.delete(key)
  }
  return { modified, added, removed: before }
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
  if (before === undefined || after === undefined || sameJson(before, after)) return undefined
  const legs = delta(
    byKey<Leg>(before.legs, (leg) => leg.deviceId),
    byKey<Leg>(after.legs, (leg) => leg.deviceId),
  )
  const participants = delta(
    byKey<Participant>(before.participants, (part) => part.participantId),
    byKey<Participant>(after.participants, (part) => part.participantId),
  )
  const removedLegs = [...legs.removed.values()]
  const removedParticipantIds = [...participants.removed.keys()]
  return {
    eventName: 'OnCallModified',
    loginName,
    callRef: after.callRef,
    ...(cause && { cause }),
    callData: after.callData,
    modifiedLegs: legs.modified,
    addedLegs: legs.added,
    removedLegs,
    // The Node SDK reads the removed lists under these names (OnCallModifiedJson: `removedLeg` Leg[],
    // `removedParticipants` string[]); the Java and C# SDKs read the names above, which the real server
    // sends (wire facts 6). Both, with the same lists (docs/telephony-api.md, "Events").
    removedLeg: removedLegs,
    modifiedParticipants: participants.modified,
    addedParticipants: participants.added,
    removedParticipantIds,
    removedParticipants: removedParticipantIds,
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
