/**
 * Outside parties that follow their directory rule (docs/call-model.md, "Outside parties, incoming calls
 * and simulated devices"): answer after a delay, busy, never answer, reject, hang up after a while; and
 * the same parties told what to do (the control plane's commands). Exact events of the internal user.
 */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import type {
  OutsideBehaviour,
  TelephonyDirectory,
} from '../../src/platform/telephony/telephony-directory.js'
import {
  connections,
  FeatureWorld,
  featureDirectory,
  namesOf,
  OUTSIDE_PREFIX,
  seen,
} from './support.js'

/** Outside numbers and their rules. */
const ANSWERS = '0155660003'
const ANSWERS_THEN_HANGS_UP = '0155660004'
const BUSY = '0155660005'
const NEVER = '0155660006'
const REJECTS = '0899123456'
const RULES: Record<string, OutsideBehaviour> = {
  [ANSWERS]: { kind: 'ANSWER', afterMs: 3_000 },
  [ANSWERS_THEN_HANGS_UP]: { kind: 'ANSWER', afterMs: 2_000, hangUpAfterMs: 20_000 },
  [BUSY]: { kind: 'BUSY' },
  [NEVER]: { kind: 'NO_ANSWER' },
}
const outsideDirectory: TelephonyDirectory = {
  ...featureDirectory,
  outsideBehaviour: (number) =>
    RULES[number] ?? (number.startsWith('0899') ? { kind: 'REJECT', afterMs: 1_000 } : undefined),
}

const world = () => new FeatureWorld({}, outsideDirectory)

/** alice calls an outside number (with autoAnswer); answers the callRef and the events of the call. */
function aliceCalls(w: FeatureWorld, number: string) {
  const result = w.run({
    type: 'makeCall',
    loginName: 'alice',
    deviceId: '1001',
    callee: `${OUTSIDE_PREFIX}${number}`,
    autoAnswer: true,
  })
  return { callRef: result.callRef ?? '', events: result.events }
}

describe('an outside party that answers after a delay', () => {
  it('rings for the delay, then answers: alice sees her call ACTIVE and becomes BUSY', () => {
    const w = world()
    const { callRef, events } = aliceCalls(w, ANSWERS)
    expect(seen(events, 'alice')).toEqual([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: [ANSWERS],
      },
    ])
    const participant = events[0]?.['participants'] as { identity: unknown }[]
    expect(participant[0]?.identity).toEqual({
      id: { phoneNumber: ANSWERS },
      type: { main: 'EXTERNAL' },
    })

    expect(w.advance(2_999)).toEqual([])
    const answered = w.advance(1)
    expect(seen(answered, 'alice')).toEqual([
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
      { eventName: 'OnUserStateModified', state: 'BUSY' },
    ])
    expect(connections(w.state, callRef)).toEqual(['1001:ACTIVE', `${ANSWERS}:ACTIVE`])
    // Answered: no ringing timeout left, and the party stays until someone hangs up.
    expect(w.state.timers).toEqual([])
    expect(w.advance(60_000)).toEqual([])
  })

  it('hangs up after a while once answered when its rule says so: alice sees RELEASING, then the end', () => {
    const w = world()
    const { callRef } = aliceCalls(w, ANSWERS_THEN_HANGS_UP)
    w.advance(2_000)
    expect(connections(w.state, callRef)).toEqual([
      '1001:ACTIVE',
      `${ANSWERS_THEN_HANGS_UP}:ACTIVE`,
    ])
    expect(w.advance(19_999)).toEqual([])
    expect(seen(w.advance(1), 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [ANSWERS_THEN_HANGS_UP],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    expect(allCalls(w.state)).toEqual([])
    expect(w.state.timers).toEqual([])
  })

  it('does not answer once alice gave up: her hang-up cancels its timers', () => {
    const w = world()
    const { callRef } = aliceCalls(w, ANSWERS)
    w.run({ type: 'dropMe', loginName: 'alice', callRef })
    expect(w.state.timers).toEqual([])
    expect(w.advance(10_000)).toEqual([])
  })
})

describe('a busy outside party', () => {
  it('releases the call at once: alice sees RELEASING, then OnCallRemoved, both with cause BUSY', () => {
    const w = world()
    const { callRef, events } = aliceCalls(w, BUSY)
    expect(namesOf(events, 'alice')).toEqual(['OnCallCreated'])
    expect(seen(w.advance(0), 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'BUSY',
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [BUSY],
      },
      { eventName: 'OnCallRemoved', callRef, cause: 'BUSY' },
    ])
    expect(allCalls(w.state)).toEqual([])
    expect(w.state.timers).toEqual([])
  })
})

describe('an outside party that never answers', () => {
  it('rings until the ringing timeout: NOT_ANSWERED', () => {
    const w = world()
    const { callRef } = aliceCalls(w, NEVER)
    expect(w.advance(29_999)).toEqual([])
    expect(seen(w.advance(1), 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'NOT_ANSWERED',
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [NEVER],
      },
      { eventName: 'OnCallRemoved', callRef, cause: 'NOT_ANSWERED' },
    ])
  })

  it('is also what a number without a rule does', () => {
    const w = world()
    aliceCalls(w, '0612345678')
    expect(w.advance(29_999)).toEqual([])
    expect(namesOf(w.advance(1), 'alice')).toEqual([
      'OnCallModified:NOT_ANSWERED',
      'OnCallRemoved:NOT_ANSWERED',
    ])
  })
})

describe('an outside party that rejects', () => {
  it('rings, then rejects: cause DESTINATION_NOT_OBTAINABLE', () => {
    const w = world()
    const { callRef } = aliceCalls(w, REJECTS)
    expect(w.advance(999)).toEqual([])
    expect(seen(w.advance(1), 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'DESTINATION_NOT_OBTAINABLE',
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [REJECTS],
      },
      { eventName: 'OnCallRemoved', callRef, cause: 'DESTINATION_NOT_OBTAINABLE' },
    ])
  })

  it('leaves a conference going when it was the added participant (the others see it leave, BUSY)', () => {
    const w = world()
    const callRef = w.call('dave', '1002', 'bob')
    w.run({ type: 'addParticipant', loginName: 'dave', callRef, callee: `0${BUSY}` })
    const events = w.advance(0)
    expect(seen(events, 'dave')).toEqual([
      { eventName: 'OnCallModified', callRef, cause: 'BUSY', callState: 'ACTIVE', removed: [BUSY] },
    ])
    expect(connections(w.state, callRef)).toEqual(['1004:ACTIVE', '1002:ACTIVE'])
  })
})

describe('outside parties told what to do (control plane)', () => {
  it('answers, then hangs up, on command', () => {
    const w = world()
    const { callRef } = aliceCalls(w, NEVER)
    const answered = w.run({ type: 'outsidePartyAnswers', number: NEVER })
    expect(namesOf(answered.events, 'alice')).toEqual(['OnCallModified', 'OnUserStateModified'])
    expect(w.state.timers).toEqual([])
    const hungUp = w.run({ type: 'outsidePartyHangsUp', number: NEVER })
    expect(seen(hungUp.events, 'alice')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removed: [NEVER],
      },
      { eventName: 'OnCallRemoved', callRef },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
  })

  it('rejects on command, busy when asked', () => {
    const w = world()
    const { callRef } = aliceCalls(w, NEVER)
    const rejected = w.run({ type: 'outsidePartyRejects', number: NEVER, cause: 'BUSY' })
    expect(seen(rejected.events, 'alice').at(-1)).toEqual({
      eventName: 'OnCallRemoved',
      callRef,
      cause: 'BUSY',
    })
  })

  it('refuses a number in no call (NOT_FOUND) and an answer of a party that does not ring (NOT_EXPECTED)', () => {
    const w = world()
    w.refuses({ type: 'outsidePartyAnswers', number: NEVER }, 'NOT_FOUND')
    w.refuses({ type: 'outsidePartyHangsUp', number: NEVER }, 'NOT_FOUND')
    aliceCalls(w, NEVER)
    w.run({ type: 'outsidePartyAnswers', number: NEVER })
    w.refuses({ type: 'outsidePartyAnswers', number: NEVER }, 'NOT_EXPECTED')
    w.refuses({ type: 'outsidePartyRejects', number: NEVER }, 'NOT_EXPECTED')
  })
})
