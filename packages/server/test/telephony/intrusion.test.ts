/**
 * Intrusion (operations/intrusion.ts; docs/call-model.md, "Call features"): a user calling a busy user joins
 * the call that user talks in, a three-party call, given the `intrusion` feature and no protection on that
 * call's users; the events each involved user receives, the resulting state, and the refusals that change
 * nothing.
 */
import type { CallData } from '@openness/wire'
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import type {
  CallFeatures,
  TelephonyDirectory,
} from '../../src/platform/telephony/telephony-directory.js'
import {
  ALICE_SOFTPHONE,
  connections,
  eventsOf,
  FEATURES,
  FeatureWorld,
  featureDirectory,
  OUTSIDE,
  OUTSIDE_PREFIX,
  seen,
  VOICEMAIL,
} from './support.js'

/** alice may intrude; dave is protected against intrusion; bob and carol neither. */
const RIGHTS: Record<string, CallFeatures> = {
  ...FEATURES,
  alice: { ...FEATURES['alice'], intrusion: true },
  dave: { ...FEATURES['dave'], intrusionProtection: true },
}
const intrusionDirectory: TelephonyDirectory = {
  ...featureDirectory,
  featuresOf: (loginName) => RIGHTS[loginName] ?? {},
}

/** bob (1002) talks to carol (1003); alice (1001) calls bob, whose device rings (a call waiting). */
function callingBusyBob(world: FeatureWorld): { busy: string; waiting: string } {
  const busy = world.call('bob', '1003', 'carol')
  const waiting = world.call('alice', '1002')
  return { busy, waiting }
}

describe('intrusion', () => {
  it("joins the caller to the busy user's call, which becomes a three-party call", () => {
    const world = new FeatureWorld({}, intrusionDirectory)
    const { busy, waiting } = callingBusyBob(world)
    expect(connections(world.state, waiting)).toEqual([
      '1001:RINGING_OUTGOING',
      '1002:RINGING_INCOMING',
    ])
    const result = world.run({ type: 'intrusion', loginName: 'alice', deviceId: '1001' })
    // alice's call is replaced by bob's: one OnCallModified with previousCallRef, no OnCallRemoved.
    expect(seen(result.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: busy,
        previousCallRef: waiting,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        legs: ['1001:ACTIVE'],
        added: ['1003'],
      },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    expect(seen(result.events, 'bob')).toEqual([
      { eventName: 'OnCallRemoved', callRef: waiting, cause: 'CONFERENCED' },
      {
        eventName: 'OnCallModified',
        callRef: busy,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        added: ['1001'],
      },
    ])
    expect(seen(result.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: busy,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        added: ['1001'],
      },
    ])
    expect(allCalls(result.state).map((call) => call.callRef)).toEqual([busy])
    expect(connections(result.state, busy)).toEqual(['1002:ACTIVE', '1003:ACTIVE', '1001:ACTIVE'])
    // bob's ringing timeout went with the call waiting.
    expect(result.state.timers).toEqual([])
    // A conference like any: bob leaving leaves alice and carol talking.
    const left = world.run({ type: 'dropMe', loginName: 'bob', callRef: busy })
    expect(seen(left.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: busy,
        cause: 'PARTICIPANT_LEFT',
        callState: 'ACTIVE',
        removed: ['1002'],
      },
    ])
    expect(connections(left.state, busy)).toEqual(['1003:ACTIVE', '1001:ACTIVE'])
  })

  it('joins a call with an outside party too (only directory users can be protected)', () => {
    const world = new FeatureWorld({}, intrusionDirectory)
    const busy = world.call('bob', `${OUTSIDE_PREFIX}${OUTSIDE}`)
    world.run({ type: 'outsidePartyAnswers', number: OUTSIDE })
    world.call('alice', '1002')
    const result = world.run({ type: 'intrusion', loginName: 'alice', deviceId: '1001' })
    expect(connections(result.state, busy)).toEqual([
      '1002:ACTIVE',
      `${OUTSIDE}:ACTIVE`,
      '1001:ACTIVE',
    ])
  })

  it('is refused without the intrusion feature, and into a call of a protected user (NOT_ALLOWED)', () => {
    const world = new FeatureWorld({}, intrusionDirectory)
    // carol has no intrusion right.
    world.call('bob', '1001', 'alice')
    world.call('carol', '1002')
    world.refuses({ type: 'intrusion', loginName: 'carol', deviceId: '1003' }, 'NOT_ALLOWED')
    // dave is protected: neither his call with bob nor dave himself can be intruded.
    const protectedCall = new FeatureWorld({}, intrusionDirectory)
    protectedCall.call('dave', '1002', 'bob')
    protectedCall.call('alice', '1002')
    protectedCall.refuses(
      { type: 'intrusion', loginName: 'alice', deviceId: '1001' },
      'NOT_ALLOWED',
    )
    const protectedUser = new FeatureWorld({}, intrusionDirectory)
    protectedUser.call('dave', '1002', 'bob')
    protectedUser.call('alice', '1004')
    protectedUser.refuses(
      { type: 'intrusion', loginName: 'alice', deviceId: '1001' },
      'NOT_ALLOWED',
    )
  })

  it("shows the intrusion capability on the caller's call exactly while intrusion is possible", () => {
    const world = new FeatureWorld({}, intrusionDirectory)
    const capable = (events: readonly PlatformEvent[], login: string, callRef: string) =>
      eventsOf(events, login)
        .filter((event) => event['callRef'] === callRef && event.eventName !== 'OnCallRemoved')
        .map((event) => (event['callData'] as CallData).capabilities?.intrusion === true)
    // alice calls bob while he is free: nothing to intrude into.
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    const waiting = made.callRef ?? ''
    expect(capable(made.events, 'alice', waiting)).toEqual([false])
    // bob, still rung, calls carol, who answers: bob talks, alice may intrude; bob is not told.
    const busy = world.call('bob', '1003')
    const answered = world.run({ type: 'answer', loginName: 'carol', callRef: busy })
    expect(capable(answered.events, 'alice', waiting)).toEqual([true])
    expect(capable(answered.events, 'bob', waiting)).toEqual([])
    // carol hangs up: bob talks no more.
    const released = world.run({ type: 'release', loginName: 'carol', callRef: busy })
    expect(capable(released.events, 'alice', waiting)).toEqual([false])
    // Neither without the right (carol) nor into a protected user's call (dave's).
    const other = new FeatureWorld({}, intrusionDirectory)
    other.call('bob', '1004', 'dave')
    const withoutRight = other.run({
      type: 'makeCall',
      loginName: 'carol',
      deviceId: '1003',
      callee: '1002',
      autoAnswer: true,
    })
    expect(capable(withoutRight.events, 'carol', withoutRight.callRef ?? '')).toEqual([false])
    const intoProtected = other.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    expect(capable(intoProtected.events, 'alice', intoProtected.callRef ?? '')).toEqual([false])
  })

  it("is refused on an unknown device or another user's", () => {
    const world = new FeatureWorld({}, intrusionDirectory)
    callingBusyBob(world)
    world.refuses({ type: 'intrusion', loginName: 'alice', deviceId: '7777' }, 'NOT_FOUND')
    world.refuses({ type: 'intrusion', loginName: 'alice', deviceId: '1002' }, 'NOT_ALLOWED')
  })

  it('is refused, changing nothing, unless the device is calling a user who talks in another call', () => {
    const refused = (setUp: (world: FeatureWorld) => void) => {
      const world = new FeatureWorld({}, intrusionDirectory)
      setUp(world)
      world.refuses({ type: 'intrusion', loginName: 'alice', deviceId: '1001' }, 'NOT_EXPECTED')
    }
    // In no call at all; calling an idle user; calling an outside number; talking to bob already.
    refused(() => undefined)
    refused((world) => world.call('alice', '1002'))
    refused((world) => world.call('alice', `${OUTSIDE_PREFIX}${OUTSIDE}`))
    refused((world) => world.call('alice', '1002', 'bob'))
    // bob is busy with a held call only: he talks to nobody.
    refused((world) => {
      const busy = world.call('bob', '1003', 'carol')
      world.run({ type: 'hold', loginName: 'bob', callRef: busy })
      world.call('alice', '1002')
    })
    // bob listens to his voice mail: no person to talk to.
    refused((world) => {
      world.call('bob', VOICEMAIL)
      world.call('alice', '1002')
    })
    // bob talks to alice herself, on her softphone.
    refused((world) => {
      world.call('bob', ALICE_SOFTPHONE, 'alice')
      world.call('alice', '1002')
    })
    // alice's device talks in another call meanwhile: it would be ACTIVE in two calls.
    refused((world) => {
      callingBusyBob(world)
      world.call('dave', '1001', 'alice')
    })
  })
})
