/**
 * Automatic call distribution in the engine (docs/contact-center.md, "Distribution"): calls to a pilot queue, go
 * to the agent ready longest whose skills match, ring out to PAUSE, end in wrap-up and tickets; closed, forwarded,
 * blocked and saturated pilots; the pilot's events while monitored.
 */
import { describe, expect, it } from 'vitest'
import type {
  ContactCenterDefinition,
  PilotDefinition,
} from '../../src/platform/acd/contact-center.js'
import { serviceReached } from '../../src/platform/telephony/operations/destinations.js'
import {
  AcdWorld,
  agentStates,
  contactCenter,
  FRENCH_PILOT,
  NO_ANSWER_MS,
  PILOT,
  pilotEvents,
  QUEUE,
  WRAP_UP_MS,
} from './acd-world.js'
import { connections, namesOf } from './support.js'

const CALLER = '0555123456'

describe('a call to a pilot', () => {
  it('queues, is offered to the ready agent, answered, then wrap-up and READY again, with a SERVED ticket', () => {
    const w = new AcdWorld()
    w.run({ type: 'acdMonitor', pilot: PILOT, loginName: 'dave', start: true })
    expect(agentStates(w.logOn('bob', '1002'))).toEqual(['bob:READY'])
    const placed = w.run({ type: 'incomingCall', from: CALLER, to: PILOT })
    const callRef = placed.callRef ?? ''
    expect(pilotEvents(placed.events)).toEqual([
      'OnPilotCallCreated:ACD_ENTER_DISTRIBUTION',
      'OnPilotCallQueued:ACD_ENTER_DISTRIBUTION',
    ])
    expect(namesOf(placed.events, 'bob')).toEqual([
      'OnCallCreated:DISTRIBUTED',
      'OnAgentStateChanged',
    ])
    expect(agentStates(placed.events)).toEqual(['bob:BUSY'])
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:RINGING_OUTGOING`,
      `${PILOT}:RINGING_INCOMING`,
      '1002:RINGING_INCOMING',
    ])
    expect(w.state.acd?.queues[QUEUE]).toEqual([])

    const answered = w.run({ type: 'answer', loginName: 'bob', callRef })
    expect(pilotEvents(answered.events)).toEqual(['OnPilotCallRemoved:DISTRIBUTED'])
    expect(connections(w.state, callRef)).toEqual([`${CALLER}:ACTIVE`, '1002:ACTIVE'])
    expect(agentStates(answered.events)).toEqual([])

    const released = w.run({ type: 'release', loginName: 'bob', callRef })
    expect(agentStates(released.events)).toEqual(['bob:WRAPUP'])
    expect(w.tickets()).toEqual([])
    const wrapUp = w.advance(WRAP_UP_MS)
    expect(agentStates(wrapUp)).toEqual(['bob:READY'])
    const [ticket] = w.tickets()
    expect(ticket).toMatchObject({
      pilot: PILOT,
      queue: QUEUE,
      processingGroup: '3200',
      caller: CALLER,
      callRef,
      agent: 'bob',
      offers: 1,
      refusals: 0,
      waitMs: 1_000,
      handlingMs: 1_000,
      wrapUpMs: WRAP_UP_MS,
      outcome: 'SERVED',
    })
  })

  it('waits when no agent is free, and goes to the first agent who becomes ready', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const callRef = w.incoming(PILOT, CALLER)
    expect(w.state.acd?.queues[QUEUE]).toEqual([callRef])
    const ready = w.run({ type: 'acdReady', loginName: 'bob' })
    expect(agentStates(ready.events)).toEqual(['bob:BUSY'])
    expect(connections(w.state, callRef)).toContain('1002:RINGING_INCOMING')
  })

  it('is offered to the agent ready longest first', () => {
    const w = new AcdWorld()
    w.logOn('carol', '1003')
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, CALLER)
    expect(connections(w.state, callRef)).toContain('1003:RINGING_INCOMING')
    const second = w.incoming(PILOT, '0555000002')
    expect(connections(w.state, second)).toContain('1002:RINGING_INCOMING')
  })

  it('goes only to an agent with the skills it needs', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.incoming(FRENCH_PILOT, CALLER)
    expect(connections(w.state, callRef)).not.toContain('1002:RINGING_INCOMING')
    w.logOn('carol', '1003')
    expect(connections(w.state, callRef)).toContain('1003:RINGING_INCOMING')
  })

  it('rings out: the agent goes to PAUSE and the call to the next agent, the ticket counts the refusal', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, CALLER)
    w.logOn('carol', '1003')
    const events = w.advance(NO_ANSWER_MS)
    expect(agentStates(events)).toEqual(['bob:PAUSE', 'carol:BUSY'])
    expect(namesOf(events, 'bob')).toContain('OnCallRemoved:NOT_ANSWERED')
    expect(connections(w.state, callRef)).toContain('1003:RINGING_INCOMING')
    w.run({ type: 'answer', loginName: 'carol', callRef })
    w.run({ type: 'release', loginName: 'carol', callRef })
    w.advance(WRAP_UP_MS)
    expect(w.tickets()[0]).toMatchObject({
      agent: 'carol',
      offers: 2,
      refusals: 1,
      outcome: 'SERVED',
    })
  })

  it('declined by the agent: PAUSE, and the call waits again at the head of its queue', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const first = w.incoming(PILOT, CALLER)
    const second = w.incoming(PILOT, '0555000002')
    w.run({ type: 'release', loginName: 'bob', callRef: first })
    expect(w.place('bob')).toBe('PAUSE')
    expect(w.state.acd?.queues[QUEUE]).toEqual([first, second])
    expect(connections(w.state, first)).toEqual([
      `${CALLER}:RINGING_OUTGOING`,
      `${PILOT}:RINGING_INCOMING`,
    ])
  })

  it('abandoned by the caller while waiting: out of the queue, an ABANDONED ticket, the pilot told', () => {
    const w = new AcdWorld()
    w.run({ type: 'acdMonitor', pilot: PILOT, loginName: 'dave', start: true })
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const callRef = w.incoming(PILOT, CALLER)
    const gone = w.run({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(pilotEvents(gone.events)).toEqual(['OnPilotCallRemoved:ABANDONED'])
    expect(w.state.acd?.queues[QUEUE]).toEqual([])
    expect(w.tickets()).toMatchObject([{ callRef, outcome: 'ABANDONED', offers: 0 }])
  })

  it('abandoned while ringing an agent: the agent is READY again', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.incoming(PILOT, CALLER)
    const gone = w.run({ type: 'outsidePartyHangsUp', number: CALLER })
    expect(agentStates(gone.events)).toEqual(['bob:READY'])
    expect(w.tickets()).toMatchObject([{ outcome: 'ABANDONED', offers: 1 }])
  })

  it('to a closed pilot: dissuaded', () => {
    const w = new AcdWorld()
    w.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
    w.logOn('bob', '1002')
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: PILOT,
      autoAnswer: true,
    })
    expect(namesOf(placed.events, 'alice')).toEqual([
      'OnCallCreated',
      'OnCallModified:DESTINATION_NOT_OBTAINABLE',
      'OnCallRemoved:DESTINATION_NOT_OBTAINABLE',
    ])
    expect(w.tickets()).toMatchObject([{ outcome: 'DISSUADED' }])
  })

  it('to a pilot with nobody logged on: blocked, to its overflow', () => {
    const w = new AcdWorld({})
    const pilots = w.state.acd?.definition.pilots ?? {}
    w.run({
      type: 'provisionContactCenter',
      definition: {
        ...contactCenterWith({ overflowTo: '1001' }),
      },
    })
    expect(pilots).toBeDefined()
    const callRef = w.incoming(PILOT, CALLER)
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:RINGING_OUTGOING`,
      '1001:RINGING_INCOMING',
    ])
    expect(w.tickets()).toMatchObject([{ outcome: 'OVERFLOWED', overflowTo: '1001' }])
  })

  it('when the queue is full: dissuaded BUSY', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    for (const n of [1, 2, 3]) w.incoming(PILOT, `055500000${n}`)
    const full = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: PILOT,
      autoAnswer: true,
    })
    expect(namesOf(full.events, 'alice')).toContain('OnCallRemoved:BUSY')
    expect(w.state.acd?.queues[QUEUE]).toHaveLength(3)
    expect(w.tickets().map((ticket) => ticket.outcome)).toEqual(['DISSUADED'])
  })

  it('overflows after waiting as long as the pilot lets it', () => {
    const w = new AcdWorld()
    w.run({
      type: 'provisionContactCenter',
      definition: contactCenterWith({ overflowTo: '1001', overflowAfterMs: 30_000 }),
    })
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const callRef = w.incoming(PILOT, CALLER)
    w.advance(30_000)
    expect(connections(w.state, callRef)).toEqual([
      `${CALLER}:RINGING_OUTGOING`,
      '1001:RINGING_INCOMING',
    ])
    expect(w.tickets()).toMatchObject([{ outcome: 'OVERFLOWED', queueWaitMs: 30_000 }])
  })
})

describe('an agent in ACD calls', () => {
  it('a private call makes a READY agent BUSY until it ends', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.call('bob', '1001', 'alice')
    expect(w.place('bob')).toBe('BUSY')
    const hungUp = w.run({ type: 'release', loginName: 'bob', callRef })
    expect(agentStates(hungUp.events)).toEqual(['bob:READY'])
  })

  it('ready during a call of its own: BUSY until the call ends, then READY', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const callRef = w.call('bob', '1001', 'alice')
    expect(w.place('bob')).toBe('PAUSE')
    expect(agentStates(w.run({ type: 'acdReady', loginName: 'bob' }).events)).toEqual(['bob:BUSY'])
    expect(agentStates(w.run({ type: 'release', loginName: 'bob', callRef }).events)).toEqual([
      'bob:READY',
    ])
  })

  it('a group with transaction codes: TRANSACTION_CODE_INPUT after the call, the code goes on the ticket', () => {
    const w = new AcdWorld()
    const definition = contactCenterWith({})
    definition.processingGroups = definition.processingGroups.map((group) => ({
      ...group,
      transactionCode: true,
    }))
    w.run({ type: 'provisionContactCenter', definition })
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, CALLER)
    w.run({ type: 'answer', loginName: 'bob', callRef })
    w.run({ type: 'release', loginName: 'bob', callRef })
    expect(w.place('bob')).toBe('TRANSACTION_CODE_INPUT')
    const coded = w.run({ type: 'acdAccountInfo', loginName: 'bob', callRef, code: '4711' })
    expect(agentStates(coded.events)).toEqual(['bob:WRAPUP'])
    w.advance(WRAP_UP_MS)
    expect(w.tickets()).toMatchObject([{ transactionCode: '4711', outcome: 'SERVED' }])
  })
})

/** The test contact center with pilot 3000 changed. */
function contactCenterWith(change: Partial<PilotDefinition>): ContactCenterDefinition {
  const definition = contactCenter()
  definition.pilots = definition.pilots.map((pilot) =>
    pilot.number === PILOT ? { ...pilot, ...change } : pilot,
  )
  return definition
}

describe('a new definition', () => {
  it('dissuades the calls waiting at a pilot it drops, with their tickets; the others keep waiting', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const stranded = w.incoming(FRENCH_PILOT, CALLER)
    const kept = w.incoming(PILOT, '0555000002')
    const definition = contactCenterWith({})
    definition.pilots = definition.pilots.filter((pilot) => pilot.number !== FRENCH_PILOT)
    definition.queues = definition.queues.filter((queue) => queue.number !== '3101')
    const changed = w.run({ type: 'provisionContactCenter', definition })
    expect(connections(w.state, stranded)).toBeUndefined()
    expect(w.state.acd?.queues[QUEUE]).toEqual([kept])
    expect(w.tickets()).toMatchObject([{ callRef: stranded, outcome: 'DISSUADED' }])
    expect(changed.events.some((event) => event.eventName === 'OnCallRemoved')).toBe(false)
  })
})

describe('keys a request gives', () => {
  it('names such as toString or constructor are no pilot (404), operator (403) or group (404)', () => {
    const w = new AcdWorld()
    for (const name of ['toString', 'constructor', '__proto__']) {
      w.refuses({ type: 'acdMonitor', pilot: name, loginName: 'dave', start: true }, 'NOT_FOUND')
      w.refuses({ type: 'acdLogOn', loginName: name, proAcdDeviceNumber: '1002' }, 'NOT_ALLOWED')
      w.refuses({ type: 'acdEnter', loginName: 'bob', pg: name }, 'NOT_FOUND')
      expect(serviceReached(w.state, name)).toBeUndefined()
    }
  })
})

describe('the CONTACTCENTER_AGENT licenses', () => {
  it('bound the operators logged on at once: one more is refused NOT_ALLOWED until one logs off', () => {
    const w = new AcdWorld({ agentLicenses: 1 })
    w.logOn('bob', '1002')
    w.refuses({ type: 'acdLogOn', loginName: 'carol', proAcdDeviceNumber: '1003' }, 'NOT_ALLOWED')
    w.run({ type: 'acdLogOff', loginName: 'bob' })
    expect(agentStates(w.logOn('carol', '1003'))).toEqual(['carol:READY'])
  })
})
