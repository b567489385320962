/**
 * Supervisors in their agents' calls (docs/contact-center.md, "Supervision"): intrusion in its three modes, seen
 * as each mode says; permanent listening that follows the agent's next calls; the supervisor leaving with the
 * agent; the refusals.
 */

import { describe, expect, it } from 'vitest'
import { callView } from '../../src/platform/telephony/call-view.js'
import { callOf } from '../../src/platform/telephony/telephony-state.js'
import { AcdWorld, PILOT } from './acd-world.js'
import { connections, featureDirectory, namesOf } from './support.js'

const CALLER = '0555123456'

/** A world where bob (1002) talks with an outside caller who called the pilot. */
function talking(): { w: AcdWorld; callRef: string } {
  const w = new AcdWorld()
  w.logOn('bob', '1002')
  const callRef = w.incoming(PILOT, CALLER)
  w.run({ type: 'answer', loginName: 'bob', callRef })
  return { w, callRef }
}

/** The participants' numbers of the call as `loginName` sees it now. */
function seen(w: AcdWorld, callRef: string, loginName: string): string[] {
  const call = callOf(w.state, callRef)
  const view = call === undefined ? undefined : callView(call, loginName, featureDirectory)
  return (view?.participants ?? []).map((participant) => participant.participantId)
}

describe('intrusion', () => {
  it('NORMAL: a three-party call everyone sees, cause SUPERVISOR_INTRUSION', () => {
    const { w, callRef } = talking()
    const joined = w.run({
      type: 'acdIntrude',
      loginName: 'dave',
      agentNumber: '1002',
      mode: 'NORMAL',
    })
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:ACTIVE`,
      '1002:ACTIVE',
      '1004:ACTIVE',
    ])
    expect(namesOf(joined.events, 'bob')).toEqual(['OnCallModified:SUPERVISOR_INTRUSION'])
    expect(namesOf(joined.events, 'dave')).toContain('OnCallCreated:SUPERVISOR_INTRUSION')
    expect(seen(w, callRef, 'bob')).toEqual([CALLER, '1004'])
    expect(seen(w, callRef, 'dave')).toEqual([CALLER, '1002'])
  })

  it('RESTRICTED: the agent sees the supervisor; DISCRETE: nobody does', () => {
    const { w, callRef } = talking()
    const restricted = w.run({
      type: 'acdIntrude',
      loginName: 'dave',
      agentNumber: '1002',
      mode: 'RESTRICTED',
    })
    expect(namesOf(restricted.events, 'bob')).toEqual([
      'OnCallModified:SUPERVISOR_RESTRICT_INTRUSION',
    ])
    expect(seen(w, callRef, 'bob')).toEqual([CALLER, '1004'])
    expect(namesOf(restricted.events, 'alice')).toEqual([])
    const discrete = w.run({ type: 'acdIntrusionMode', loginName: 'dave', mode: 'DISCRETE' })
    expect(namesOf(discrete.events, 'bob')).toEqual(['OnCallModified:SUPERVISOR_LISTENING'])
    expect(seen(w, callRef, 'bob')).toEqual([CALLER])
    expect(seen(w, callRef, 'dave')).toEqual([CALLER, '1002'])
  })

  it('STOP: the supervisor leaves and the call goes on', () => {
    const { w, callRef } = talking()
    w.run({ type: 'acdIntrude', loginName: 'dave', agentNumber: '1002', mode: 'NORMAL' })
    w.run({ type: 'acdIntrusionMode', loginName: 'dave', mode: 'STOP' })
    expect(connections(w.state, callRef)).toEqual([`${CALLER}:ACTIVE`, '1002:ACTIVE'])
  })

  it('the agent leaves: the supervisor leaves with it and the caller is released', () => {
    const { w, callRef } = talking()
    w.run({ type: 'acdIntrude', loginName: 'dave', agentNumber: '1002', mode: 'NORMAL' })
    w.run({ type: 'dropMe', loginName: 'bob', callRef })
    expect(connections(w.state, callRef)).toBeUndefined()
    expect(w.state.acd?.agents.get('bob')?.place).toBe('WRAPUP')
  })

  it('refuses an agent (NOT_ALLOWED), a set where no agent is logged on (NOT_FOUND), an agent in no call (NOT_EXPECTED)', () => {
    const { w } = talking()
    w.refuses(
      { type: 'acdIntrude', loginName: 'carol', agentNumber: '1002', mode: 'NORMAL' },
      'NOT_ALLOWED',
    )
    w.refuses(
      { type: 'acdIntrude', loginName: 'dave', agentNumber: '1003', mode: 'NORMAL' },
      'NOT_FOUND',
    )
    w.logOn('carol', '1003')
    w.refuses(
      { type: 'acdIntrude', loginName: 'dave', agentNumber: '1003', mode: 'NORMAL' },
      'NOT_EXPECTED',
    )
    w.refuses({ type: 'acdIntrusionMode', loginName: 'dave', mode: 'NORMAL' }, 'NOT_EXPECTED')
  })
})

describe('permanent listening', () => {
  it('joins the call the agent talks in and each it answers next, unseen by agent and caller', () => {
    const { w, callRef } = talking()
    const started = w.run({
      type: 'acdListen',
      loginName: 'dave',
      agentNumber: '1002',
      start: true,
    })
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:ACTIVE`,
      '1002:ACTIVE',
      '1004:ACTIVE',
    ])
    expect(namesOf(started.events, 'bob')).toEqual([])
    expect(namesOf(started.events, 'dave')).toContain('OnCallCreated:SUPERVISOR_LISTENING')
    w.run({ type: 'release', loginName: 'bob', callRef })
    w.run({ type: 'acdReady', loginName: 'bob' })
    const next = w.incoming(PILOT, '0555000002')
    w.run({ type: 'answer', loginName: 'bob', callRef: next })
    expect(connections(w.state, next)).toEqual(['0555000002:ACTIVE', '1002:ACTIVE', '1004:ACTIVE'])
    w.run({ type: 'acdListen', loginName: 'dave', agentNumber: '1002', start: false })
    expect(connections(w.state, next)).toEqual(['0555000002:ACTIVE', '1002:ACTIVE'])
    expect(w.state.acd?.agents.get('bob')?.listenedBy).toBeUndefined()
  })

  it('a second supervisor may not listen to the same agent; stopping what one does not do is refused', () => {
    const { w } = talking()
    w.refuses(
      { type: 'acdListen', loginName: 'dave', agentNumber: '1002', start: false },
      'NOT_EXPECTED',
    )
    w.run({ type: 'acdListen', loginName: 'dave', agentNumber: '1002', start: true })
    w.refuses(
      { type: 'acdListen', loginName: 'bob', agentNumber: '1002', start: true },
      'NOT_ALLOWED',
    )
  })
})
