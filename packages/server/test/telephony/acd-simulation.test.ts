/**
 * The simulated floor in the engine (docs/contact-center-control.md, "Traffic and simulated agents"): traffic
 * generators (the same seed gives the same arrivals; the rate; patience and talk times; the bounds) and simulated
 * agents (answer, talk, wrap-up, transaction codes), and a floor of three simulated agents under traffic for ten
 * virtual minutes, where every call ends with a ticket and no agent is left stuck; snapshot and restore carry it.
 */
import { describe, expect, it } from 'vitest'
import type { AcdTicket } from '../../src/platform/acd/acd-ticket.js'
import type { ContactCenterDefinition } from '../../src/platform/acd/contact-center.js'
import { portableState } from '../../src/platform/telephony/restored-state.js'
import { callCount } from '../../src/platform/telephony/telephony-state.js'
import { AcdWorld, agentStates, contactCenter, PG, PILOT, QUEUE, WRAP_UP_MS } from './acd-world.js'
import { connections } from './support.js'

const MINUTE = 60_000

/** The test contact center with a bigger queue and alice as a third agent of the group. */
function floor(change: Partial<ContactCenterDefinition> = {}): Partial<ContactCenterDefinition> {
  const base = contactCenter()
  const [bob] = base.operators
  return {
    queues: base.queues.map((queue) => ({ ...queue, size: 50 })),
    operators: [...base.operators, { ...(bob as NonNullable<typeof bob>), loginName: 'alice' }],
    ...change,
  }
}

/** What a ticket says of the caller's story, without the identifiers a restore renumbers. */
function story(ticket: AcdTicket): string {
  return `${ticket.arrivedAt} ${ticket.caller} ${ticket.outcome} ${ticket.agent ?? '-'} ${ticket.endedAt}`
}

describe('a traffic generator', () => {
  /** A world where bob is logged on but paused: callers wait in the queue until their patience ends. */
  function waitingWorld(seed: number): AcdWorld {
    const w = new AcdWorld(floor())
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    w.run({ type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 6, patienceMs: 20_000, seed })
    w.advance(10 * MINUTE)
    return w
  }

  it('makes the same arrivals from the same seed, others from another one', () => {
    const first = waitingWorld(42)
    const second = waitingWorld(42)
    const other = waitingWorld(43)
    const arrivals = (w: AcdWorld) => w.tickets().map((ticket) => ticket.arrivedAt)
    expect(arrivals(first).length).toBeGreaterThan(30)
    expect(arrivals(first)).toEqual(arrivals(second))
    expect(first.tickets().map(story)).toEqual(second.tickets().map(story))
    expect(arrivals(other)).not.toEqual(arrivals(first))
  })

  it('makes each caller a distinct outside number after its prefix, who hangs up after its patience: ABANDONED', () => {
    const w = waitingWorld(7)
    const tickets = w.tickets()
    expect(tickets.every((ticket) => ticket.outcome === 'ABANDONED')).toBe(true)
    expect(tickets.every((ticket) => ticket.waitMs === 20_000)).toBe(true)
    const callers = tickets.map((ticket) => ticket.caller)
    expect(new Set(callers).size).toBe(callers.length)
    expect(callers.slice(0, 3)).toEqual(['0590000001', '0590000002', '0590000003'])
    const generator = w.state.acdSimulation?.generators[PILOT]
    expect(generator).toMatchObject({ callsPerMinute: 6, seed: 7, skipped: 0 })
    // The callers of the last 20 s still wait.
    expect(generator?.calls).toBe(tickets.length + (w.state.acd?.queues[QUEUE]?.length ?? 0))
  })

  it('keeps its mean rate: about 30 calls a minute for 20 minutes', () => {
    const w = new AcdWorld(floor())
    w.run({ type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 30, seed: 1 })
    w.advance(20 * MINUTE)
    // Nobody logged on: the pilot is blocked and every call dissuaded at once.
    const calls = w.state.acdSimulation?.generators[PILOT]?.calls ?? 0
    expect(calls).toBeGreaterThan(540)
    expect(calls).toBeLessThan(660)
    expect(w.tickets()).toHaveLength(calls)
    expect(w.tickets().every((ticket) => ticket.outcome === 'DISSUADED')).toBe(true)
    // Between two arrivals: a mean of 2 s, and no two at once.
    const times = w.tickets().map((ticket) => ticket.arrivedAt)
    const gaps = times.slice(1).map((time, index) => time - (times[index] ?? 0))
    expect(Math.min(...gaps)).toBeGreaterThan(0)
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length
    expect(mean).toBeGreaterThan(1_800)
    expect(mean).toBeLessThan(2_200)
  })

  it('makes an answered caller hang up after its talk time, and not after its patience', () => {
    const w = new AcdWorld(floor())
    w.logOn('bob', '1002')
    w.run({
      type: 'acdTrafficSet',
      pilot: PILOT,
      callsPerMinute: 1,
      patienceMs: 30_000,
      talkMs: 45_000,
      seed: 3,
    })
    const at = w.state.acdSimulation?.generators[PILOT]?.nextArrivalAt ?? 0
    w.advance(at - w.now)
    const [callRef] = w.state.callsByUser.get('bob') ?? []
    expect(callRef).toBeDefined()
    expect(connections(w.state, callRef ?? '')).toEqual([
      '0590000001:RINGING_OUTGOING',
      `${PILOT}:RINGING_INCOMING`,
      '1002:RINGING_INCOMING',
    ])
    w.run({ type: 'acdTrafficStop', pilot: PILOT })
    w.run({ type: 'answer', loginName: 'bob', callRef: callRef ?? '' })
    w.advance(44_000)
    expect(connections(w.state, callRef ?? '')).toEqual(['0590000001:ACTIVE', '1002:ACTIVE'])
    const ended = w.advance(1_000)
    expect(agentStates(ended)).toEqual(['bob:WRAPUP'])
    expect(callCount(w.state)).toBe(0)
    w.advance(WRAP_UP_MS)
    expect(w.tickets()).toMatchObject([
      { caller: '0590000001', outcome: 'SERVED', agent: 'bob', handlingMs: 45_000 },
    ])
    expect(w.state.acdSimulation).toBeUndefined()
  })

  it('changes its rate with its sequence going on, and stops: no caller arrives any more', () => {
    const w = new AcdWorld(floor())
    w.run({ type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 2, seed: 9 })
    w.advance(5 * MINUTE)
    const slow = w.state.acdSimulation?.generators[PILOT]?.calls ?? 0
    w.run({ type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 20 })
    expect(w.state.acdSimulation?.generators[PILOT]).toMatchObject({ seed: 9, calls: slow })
    w.advance(5 * MINUTE)
    const fast = (w.state.acdSimulation?.generators[PILOT]?.calls ?? 0) - slow
    expect(fast).toBeGreaterThan(slow * 3)
    w.run({ type: 'acdTrafficStop', pilot: PILOT })
    const tickets = w.tickets().length
    w.advance(10 * MINUTE)
    expect(w.tickets()).toHaveLength(tickets)
    expect(w.state.timers.filter((timer) => timer.command.type.startsWith('acdTraffic'))).toEqual(
      [],
    )
  })

  it('skips the arrivals beyond 500 generated calls in progress, and counts them', () => {
    // bob paused: the callers, who never give up, wait in a queue long enough for all of them.
    const w = new AcdWorld(
      floor({ queues: contactCenter().queues.map((queue) => ({ ...queue, size: 1_000 })) }),
    )
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    w.run({ type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 600, seed: 5 })
    w.advance(70_000)
    const generator = w.state.acdSimulation?.generators[PILOT]
    expect(callCount(w.state)).toBe(500)
    expect(Object.keys(w.state.acdSimulation?.calls ?? {})).toHaveLength(500)
    expect(generator?.calls).toBe(500)
    expect(generator?.skipped).toBeGreaterThan(50)
  })

  it('refuses bad settings and changes nothing', () => {
    const w = new AcdWorld(floor())
    const set = { type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 6 } as const
    for (const callsPerMinute of [0, -1, 601, Number.NaN])
      w.refuses({ ...set, callsPerMinute }, 'BAD_PARAMETER')
    for (const patienceMs of [0, -5, 1.5, 86_400_001])
      w.refuses({ ...set, patienceMs }, 'BAD_PARAMETER')
    w.refuses({ ...set, talkMs: 0 }, 'BAD_PARAMETER')
    for (const from of ['', 'abc', '+', '1234567890123'])
      w.refuses({ ...set, from }, 'BAD_PARAMETER')
    for (const seed of [-1, 2 ** 32, 0.5]) w.refuses({ ...set, seed }, 'BAD_PARAMETER')
    w.refuses({ ...set, pilot: '3999' }, 'NOT_FOUND')
    w.refuses({ type: 'acdTrafficStop', pilot: PILOT }, 'NOT_FOUND')
    const bare = new AcdWorld({ pilots: [], operators: [] })
    bare.state = { ...bare.state }
    delete bare.state.acd
    bare.refuses(set, 'NOT_FOUND')
  })

  it('runs on 20 pilots at most', () => {
    const [sales] = contactCenter().pilots
    const pilots = Array.from({ length: 21 }, (_, index) => ({
      ...(sales as NonNullable<typeof sales>),
      number: String(4000 + index),
    }))
    const w = new AcdWorld(floor({ pilots }))
    for (const pilot of pilots.slice(0, 20))
      w.run({ type: 'acdTrafficSet', pilot: pilot.number, callsPerMinute: 1 })
    w.refuses({ type: 'acdTrafficSet', pilot: '4020', callsPerMinute: 1 }, 'BAD_PARAMETER')
    // Changing one of the 20 is no new generator.
    w.run({ type: 'acdTrafficSet', pilot: '4000', callsPerMinute: 2 })
  })

  it('stops by itself when its pilot is provisioned away', () => {
    const w = new AcdWorld(floor())
    w.run({ type: 'acdTrafficSet', pilot: PILOT, callsPerMinute: 6, seed: 2 })
    w.run({
      type: 'provisionContactCenter',
      definition: contactCenter({ pilots: contactCenter().pilots.slice(1) }),
    })
    w.advance(5 * MINUTE)
    expect(w.state.acdSimulation).toBeUndefined()
    expect(w.tickets()).toEqual([])
  })
})

describe('a simulated agent', () => {
  it('answers after answerAfterMs, hangs up after talkMs, and wraps up by its group', () => {
    const w = new AcdWorld(floor())
    w.run({
      type: 'acdSimulatedAgentSet',
      loginName: 'bob',
      answerAfterMs: 3_000,
      talkMs: 20_000,
    })
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, '0555000001')
    const answered = w.advance(3_000)
    expect(answered.map((event) => event.eventName)).toContain('OnCallModified')
    expect(connections(w.state, callRef)).toEqual(['0555000001:ACTIVE', '1002:ACTIVE'])
    expect(agentStates(w.advance(20_000))).toEqual(['bob:WRAPUP'])
    expect(agentStates(w.advance(WRAP_UP_MS))).toEqual(['bob:READY'])
    expect(w.tickets()).toMatchObject([
      { outcome: 'SERVED', agent: 'bob', handlingMs: 20_000, wrapUpMs: WRAP_UP_MS },
    ])
  })

  it('ends its wrap-up early with its own wrapUpMs; a caller who hangs up first ends its call', () => {
    const w = new AcdWorld(floor())
    w.run({
      type: 'acdSimulatedAgentSet',
      loginName: 'bob',
      answerAfterMs: 1_000,
      talkMs: 60_000,
      wrapUpMs: 2_000,
    })
    w.logOn('bob', '1002')
    w.incoming(PILOT, '0555000001')
    w.advance(10_000)
    w.run({ type: 'outsidePartyHangsUp', number: '0555000001' })
    expect(w.place('bob')).toBe('WRAPUP')
    expect(agentStates(w.advance(2_000))).toEqual(['bob:READY'])
    expect(w.tickets()).toMatchObject([{ outcome: 'SERVED', wrapUpMs: 2_000 }])
    // The release it had planned is gone with the call.
    expect(w.state.timers).toEqual([])
  })

  it('gives the transaction code its group asks for', () => {
    const base = contactCenter()
    const w = new AcdWorld(
      floor({
        processingGroups: base.processingGroups.map((group) => ({
          ...group,
          transactionCode: true,
        })),
      }),
    )
    w.run({ type: 'acdSimulatedAgentSet', loginName: 'bob', answerAfterMs: 0, talkMs: 5_000 })
    w.logOn('bob', '1002')
    w.incoming(PILOT, '0555000001')
    w.advance(5_000)
    expect(w.place('bob')).toBe('WRAPUP')
    w.advance(WRAP_UP_MS)
    expect(w.place('bob')).toBe('READY')
    expect(w.tickets()).toMatchObject([{ outcome: 'SERVED', transactionCode: '0' }])
  })

  it('takes over a call already ringing on its set, and becomes a person again', () => {
    const w = new AcdWorld(floor())
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, '0555000001')
    w.run({ type: 'acdSimulatedAgentSet', loginName: 'bob', answerAfterMs: 2_000, talkMs: 9_000 })
    w.advance(2_000)
    expect(connections(w.state, callRef)).toEqual(['0555000001:ACTIVE', '1002:ACTIVE'])
    w.run({ type: 'acdSimulatedAgentRemove', loginName: 'bob' })
    w.advance(60_000)
    expect(connections(w.state, callRef)).toEqual(['0555000001:ACTIVE', '1002:ACTIVE'])
    expect(w.state.acdSimulation).toBeUndefined()
  })

  it('refuses what cannot work and changes nothing', () => {
    const w = new AcdWorld(floor())
    const set = {
      type: 'acdSimulatedAgentSet',
      loginName: 'bob',
      answerAfterMs: 1_000,
      talkMs: 1_000,
    } as const
    w.refuses({ ...set, loginName: 'erin' }, 'NOT_FOUND')
    // The group's agents ring 10 s: answering after 10 s would let every call ring out.
    w.refuses({ ...set, answerAfterMs: 10_000 }, 'BAD_PARAMETER')
    w.refuses({ ...set, answerAfterMs: -1 }, 'BAD_PARAMETER')
    w.refuses({ ...set, talkMs: 0 }, 'BAD_PARAMETER')
    w.refuses({ ...set, wrapUpMs: 0.5 }, 'BAD_PARAMETER')
    w.refuses({ type: 'acdSimulatedAgentRemove', loginName: 'bob' }, 'NOT_FOUND')
  })
})

describe('a floor of three simulated agents under traffic', () => {
  /** alice, bob and carol simulated and logged on; callers at 4 a minute who wait a minute at most. */
  function busyFloor(): AcdWorld {
    const w = new AcdWorld(floor())
    for (const [loginName, device, talkMs] of [
      ['alice', '1001', 35_000],
      ['bob', '1002', 40_000],
      ['carol', '1003', 30_000],
    ] as const) {
      w.run({ type: 'acdSimulatedAgentSet', loginName, answerAfterMs: 4_000, talkMs })
      w.logOn(loginName, device)
    }
    w.run({
      type: 'acdTrafficSet',
      pilot: PILOT,
      callsPerMinute: 4,
      patienceMs: 60_000,
      talkMs: 50_000,
      seed: 2024,
    })
    return w
  }

  it('runs 10 virtual minutes: every call ends with a ticket, most SERVED, no agent stuck', () => {
    const w = busyFloor()
    w.advance(10 * MINUTE)
    const placed = w.state.acdSimulation?.generators[PILOT]?.calls ?? 0
    expect(placed).toBeGreaterThan(30)
    w.run({ type: 'acdTrafficStop', pilot: PILOT })
    expect(w.state.acdSimulation?.generators[PILOT]).toBeUndefined()
    // Long enough for the last callers' patience or talk, and the agents' wrap-ups.
    w.advance(3 * MINUTE)
    expect(callCount(w.state)).toBe(0)
    expect(w.state.acd?.queues[QUEUE]).toEqual([])
    expect(w.state.acdSimulation).toMatchObject({ calls: {} })
    for (const agent of ['alice', 'bob', 'carol']) expect(w.place(agent)).toBe('READY')
    expect(w.state.acd?.wrapping).toEqual({})
    const tickets = w.tickets()
    expect(tickets).toHaveLength(placed)
    expect(new Set(tickets.map((ticket) => ticket.callRef)).size).toBe(tickets.length)
    const served = tickets.filter((ticket) => ticket.outcome === 'SERVED')
    expect(served.length).toBeGreaterThan(tickets.length / 2)
    expect(
      tickets.every((ticket) => ticket.outcome === 'SERVED' || ticket.outcome === 'ABANDONED'),
    ).toBe(true)
    expect(new Set(served.map((ticket) => ticket.agent))).toEqual(
      new Set(['alice', 'bob', 'carol']),
    )
    expect(
      served.every((ticket) => ticket.processingGroup === PG && ticket.wrapUpMs === WRAP_UP_MS),
    ).toBe(true)
    // Simulated agents' talk times are shorter than the callers': the agents end every served call.
    expect(served.every((ticket) => ticket.handlingMs <= 40_000)).toBe(true)
    expect(w.state.timers).toEqual([])
  })

  it('is carried by a snapshot: restored, it goes on as it went the first time', () => {
    const w = busyFloor()
    w.advance(4 * MINUTE)
    const snapshot = structuredClone(portableState(w.state))
    const at = w.now
    w.advance(4 * MINUTE)
    const first = w.tickets().map(story)
    w.run({ type: 'restoreState', target: snapshot })
    w.now = at
    w.advance(4 * MINUTE)
    expect(w.tickets().map(story)).toEqual(first)
    expect(JSON.parse(JSON.stringify(w.state.acdSimulation))).toEqual(w.state.acdSimulation)
  })
})
