/**
 * The engine rule for calls left with no directory user (docs/call-model.md, "Service parties"): after a
 * diversion, a call of outside parties only is removed at once, but an outside caller with the voice mail it
 * was sent to stays, unseen by any user, until the caller hangs up or the voice mail does (maximum length).
 */
import { describe, expect, it } from 'vitest'
import type { RoutingProfile } from '../../src/platform/routing/routing-profile.js'
import { lookupOf } from '../../src/platform/telephony/call-index.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import {
  connections,
  FEATURES,
  FeatureWorld,
  featureDirectory,
  namesOf,
  OUTSIDE,
  VOICEMAIL,
} from './support.js'

const RINGING_MS = 30_000
/** The outside caller of these tests (not a number of the platform). */
const CALLER = '0698765432'

function worldWith(
  routing: Record<string, Partial<RoutingProfile>> = {},
  noVoicemail: readonly string[] = [],
): FeatureWorld {
  const directory = {
    ...featureDirectory,
    featuresOf: (login: string) => (noVoicemail.includes(login) ? {} : (FEATURES[login] ?? {})),
  }
  return new FeatureWorld({ ringingTimeoutMs: RINGING_MS }, directory, (login) => {
    const profile = routing[login]
    return profile && { dnd: false, remoteExtension: false, ...profile }
  })
}

const toVoicemail = { type: 'VOICEMAIL' as const }
const toOutside = { type: 'NUMBER' as const, number: `0${OUTSIDE}` }

/** Sets up a call; returns its callRef. */
type Setup = (world: FeatureWorld) => string

const incoming =
  (routing: Record<string, Partial<RoutingProfile>>, wait = 0, noVoicemail: string[] = []) =>
  (): { world: FeatureWorld; setup: Setup } => ({
    world: worldWith(routing, noVoicemail),
    setup: (world) => {
      const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
      if (wait > 0) world.advance(wait)
      return callRef
    },
  })

const CASES: [string, () => { world: FeatureWorld; setup: Setup }, string[] | undefined][] = [
  [
    'outside caller, bob forwards immediately to his voice mail: kept',
    incoming({ bob: { forward: { condition: 'IMMEDIATE', target: toVoicemail } } }),
    [`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`],
  ],
  [
    'outside caller, bob forwards on no answer to his voice mail: kept after the ringing time',
    incoming(
      { bob: { forward: { condition: 'BUSY_NO_ANSWER', target: toVoicemail } } },
      RINGING_MS,
    ),
    [`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`],
  ],
  [
    'outside caller, bob in do not disturb with a voice mail: kept',
    incoming({ bob: { dnd: true } }),
    [`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`],
  ],
  [
    'outside caller, bob redirects to VOICEMAIL: kept',
    () => ({
      world: worldWith(),
      setup: (world) => {
        const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
        world.run({ type: 'redirect', loginName: 'bob', callRef, redirectTo: 'VOICEMAIL' })
        return callRef
      },
    }),
    [`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`],
  ],
  [
    'outside caller answered by bob, blind transferred to his voice mail: kept',
    () => ({
      world: worldWith(),
      setup: (world) => {
        const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
        world.run({ type: 'answer', loginName: 'bob', callRef })
        world.run({ type: 'blindTransfer', loginName: 'bob', callRef, transferTo: VOICEMAIL })
        return callRef
      },
    }),
    [`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`],
  ],
  [
    'alice (a user) forwarded to bob’s voice mail: kept, as before (a user is in it)',
    () => ({
      world: worldWith({ bob: { forward: { condition: 'IMMEDIATE', target: toVoicemail } } }),
      setup: (world) => world.call('alice', '1002'),
    }),
    ['1001:ACTIVE', `${VOICEMAIL}:ACTIVE`],
  ],
  [
    'outside caller, bob forwards immediately to an outside number: two outside parties, removed',
    incoming({ bob: { forward: { condition: 'IMMEDIATE', target: toOutside } } }),
    undefined,
  ],
  [
    'outside caller, bob redirects to an outside number: two outside parties, removed',
    () => ({
      world: worldWith(),
      setup: (world) => {
        const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
        world.run({ type: 'redirect', loginName: 'bob', callRef, redirectTo: `0${OUTSIDE}` })
        return callRef
      },
    }),
    undefined,
  ],
  [
    'outside caller, bob in do not disturb without a voice mail: refused, removed',
    incoming({ bob: { dnd: true } }, 0, ['bob']),
    undefined,
  ],
]

describe('a call left with no directory user after a diversion', () => {
  it.each(CASES)('%s', (_, make, expected) => {
    const { world, setup } = make()
    const callRef = setup(world)
    expect(connections(world.state, callRef)).toEqual(expected)
    // bob is in the call no more: he does not see it (GET /telephony/calls reads this index).
    expect(
      lookupOf(world.state)
        .ofUser('bob')
        .map((call) => call.callRef),
    ).toEqual([])
  })

  it('the voice mail answers an outside caller with no event to any user but bob leaving', () => {
    const world = worldWith({
      bob: { forward: { condition: 'BUSY_NO_ANSWER', target: toVoicemail } },
    })
    const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
    const events = world.advance(RINGING_MS)
    expect(namesOf(events, 'bob')).toEqual(['OnCallRemoved:FORWARDED'])
    expect(events.filter((event) => event.loginName !== 'bob')).toEqual([])
    expect(connections(world.state, callRef)).toEqual([`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`])
    // Nothing pending for the call: it waits for the caller (or the voice mail) to hang up.
    expect(world.state.timers).toEqual([])
  })
})

describe('the call of an outside caller with the voice mail ends', () => {
  function atVoicemail(): { world: FeatureWorld; callRef: string } {
    const world = worldWith({ bob: { forward: { condition: 'IMMEDIATE', target: toVoicemail } } })
    const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
    expect(connections(world.state, callRef)).toEqual([`${CALLER}:ACTIVE`, `${VOICEMAIL}:ACTIVE`])
    return { world, callRef }
  }

  it('when the caller hangs up (control plane: no callRef): removed, no event', () => {
    const { world, callRef } = atVoicemail()
    const { events, state } = world.run({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(events).toEqual([])
    expect(callOf(state, callRef)).toBeUndefined()
  })

  it('when the voice mail hangs up at the maximum length (the command names the call): removed', () => {
    const { world, callRef } = atVoicemail()
    const { events, state } = world.run({ type: 'outsidePartyHangsUp', number: CALLER, callRef })
    expect(events).toEqual([])
    expect(callOf(state, callRef)).toBeUndefined()
  })
})

describe('unchanged: transfers that would leave outside parties only', () => {
  it('a transfer between two outside parties is refused (NOT_ALLOWED)', () => {
    const world = worldWith()
    const held = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
    world.run({ type: 'answer', loginName: 'bob', callRef: held })
    const consult = world.call('bob', `0${OUTSIDE}`)
    world.run({ type: 'outsidePartyAnswers', number: OUTSIDE })
    world.refuses(
      { type: 'transfer', loginName: 'bob', callRef: consult, heldCallRef: held },
      'NOT_ALLOWED',
    )
  })

  it('a blind transfer of an outside party to an outside number is refused (NOT_ALLOWED)', () => {
    const world = worldWith()
    const callRef = world.run({ type: 'incomingCall', from: CALLER, to: '1002' }).callRef ?? ''
    world.run({ type: 'answer', loginName: 'bob', callRef })
    world.refuses(
      { type: 'blindTransfer', loginName: 'bob', callRef, transferTo: `0${OUTSIDE}` },
      'NOT_ALLOWED',
    )
  })
})
