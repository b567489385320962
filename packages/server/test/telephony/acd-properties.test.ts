/**
 * Property-based tests of automatic call distribution (operations/acd-distribution.ts), in the manner of
 * properties.test.ts: random sequences of calls to the two pilots of acd-world.ts (from outside and from alice,
 * some asking for skills), agents logging on and off, ready, pause, withdrawn, wrapping up, in and out of their
 * group, answering, declining and hanging up (or their sets doing it), holding, transferring and redirecting calls,
 * callers hanging up, skills toggled, sets out of service, private calls, pilots closed and opened, and time
 * advancing with the timers it fires; in a contact center whose group has a wrap-up or none, asks for transaction
 * codes or not, and whose pilots overflow or not. After every step (a command or a timer):
 * - no call is offered to two agents, no agent is offered two calls, and an offer rings a logged-on agent whose
 *   ACD call it is;
 * - no READY agent who is free (set in service, in no call) stays idle while a queue its group serves holds a
 *   call its skills match: the dispatch after the command left nothing undone;
 * - within each queue the waiting calls keep their order (a call put back at the head after an agent let it ring
 *   out or declined it excepted), and no call is offered while one that waited ahead of it in its queue, which the
 *   agent could take, still waits;
 * - every call that reached a pilot has exactly one ticket once it is gone and its agent's wrap-up is over, none
 *   before (ticketIds unique);
 * - an agent's `acdCall` names an existing call, or the call of a ticket it is wrapping up.
 * At the end everyone hangs up and finishes wrapping up: every call that reached a pilot has its one ticket. No
 * command changes the state it ran on, and the same sequence gives the same events byte for byte.
 *
 * Runs: `FC_RUNS` (default 200), sequence length `FC_STEPS` (default 40); `FC_SEED` (and `FC_PATH`) replay a
 * failure that fast-check reported.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AgentRuntime } from '../../src/platform/acd/agent-state.js'
import type { SkillNeed } from '../../src/platform/acd/contact-center.js'
import type { PlatformEvent } from '../../src/platform/events.js'
import { PlatformError } from '../../src/platform/platform-error.js'
import { execute } from '../../src/platform/telephony/call-engine.js'
import { allCalls, lookupOf } from '../../src/platform/telephony/call-index.js'
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineContext,
} from '../../src/platform/telephony/engine-operation.js'
import {
  type CallRecord,
  type EngineCommand,
  initialState,
  type TelephonyState,
} from '../../src/platform/telephony/telephony-state.js'
import {
  AcdWorld,
  agentStates,
  contactCenter,
  FRENCH_PILOT,
  NO_ANSWER_MS,
  PG,
  PILOT,
  QUEUE,
  WRAP_UP_MS,
} from './acd-world.js'
import { connections, featureDirectory, namesOf, PEOPLE, TEST_CALL_REF_KEY } from './support.js'

const RUNS = Number(process.env['FC_RUNS'] ?? 200)
const STEPS = Number(process.env['FC_STEPS'] ?? 40)
const SEED = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED'])
const PATH = process.env['FC_PATH']

const context: EngineContext = { directory: featureDirectory, settings: DEFAULT_ENGINE_SETTINGS }
const AGENTS = ['bob', 'carol'] as const
const SETS: Record<string, string> = { bob: '1002', carol: '1003' }
const PILOTS = [PILOT, FRENCH_PILOT]
const OUTSIDE_CALLERS = ['0555000001', '0555000002', '0555000003', '0555000004']
/** What a call alice makes to a pilot may ask for: nothing, English at 3 (bob only), at 2, French at 2 (carol). */
const SKILL_ASKS: (SkillNeed[] | undefined)[] = [
  undefined,
  [{ number: 1, level: 3 }],
  [{ number: 1, level: 2 }],
  [{ number: 2, level: 2 }],
]

/** The contact center of a sequence: the test one, with its group's wrap-up, codes and pilots' overflows as drawn. */
interface Setting {
  wrapUp: boolean
  transactionCode: boolean
  /** Pilot 3000 overflows to pilot 3001 after 20 s (or when blocked, or full), 3001 to dave's set. */
  overflow: boolean
}

function startState(setting: Setting): TelephonyState {
  let state = initialState(
    Object.entries(PEOPLE).map(([deviceId, person]) => ({
      deviceId,
      loginName: person.loginName,
      state: 'IN_SERVICE' as const,
      mutable: true,
      muted: false,
    })),
    TEST_CALL_REF_KEY,
  )
  const definition = contactCenter()
  definition.processingGroups = definition.processingGroups.map((group) => ({
    ...group,
    wrapUpMs: setting.wrapUp ? WRAP_UP_MS : 0,
    transactionCode: setting.transactionCode,
  }))
  if (setting.overflow)
    definition.pilots = definition.pilots.map((pilot) =>
      pilot.number === PILOT
        ? { ...pilot, overflowTo: FRENCH_PILOT, overflowAfterMs: 2 * NO_ANSWER_MS }
        : { ...pilot, overflowTo: '1004' },
    )
  state = execute(state, { type: 'provisionContactCenter', definition }, 0, context).state
  // dave monitors both pilots: every call that reaches one is told (OnPilotCallCreated).
  for (const pilot of PILOTS)
    state = execute(
      state,
      { type: 'acdMonitor', pilot, loginName: 'dave', start: true },
      0,
      context,
    ).state
  return state
}

// ---------------------------------------------------------------------------------------------------------
// Actions: generated data that becomes a command against the state it runs on, or a move of the clock.

interface ActionKind<P> {
  weight: number
  params: fc.Arbitrary<P>
  command(state: TelephonyState, params: P): EngineCommand | undefined
  advance?(state: TelephonyState, now: number, params: P): number
}

const agent = fc.constantFrom(...AGENTS)

/** The users' connections (only those ringing for them when `ringingOnly`), in the calls' order. */
function userConnections(
  state: TelephonyState,
  ringingOnly: boolean,
): { callRef: string; loginName: string }[] {
  return allCalls(state).flatMap((call) =>
    call.connections
      .filter(
        (c) =>
          c.endpoint.loginName !== undefined && (!ringingOnly || c.state === 'RINGING_INCOMING'),
      )
      .map((c) => ({ callRef: call.callRef, loginName: c.endpoint.loginName as string })),
  )
}

/** The outside parties in calls, as numbers with their call. */
function outsideParties(state: TelephonyState): { callRef: string; number: string }[] {
  return allCalls(state).flatMap((call) =>
    call.connections
      .filter((c) => c.endpoint.deviceId === undefined && c.endpoint.service === undefined)
      .map((c) => ({ callRef: call.callRef, number: c.endpoint.number })),
  )
}

const ACTIONS = {
  incoming: {
    weight: 6,
    params: fc.record({ from: fc.nat(OUTSIDE_CALLERS.length - 1), pilot: fc.nat(1) }),
    command: (_state, p) => ({
      type: 'incomingCall',
      from: OUTSIDE_CALLERS[p.from] as string,
      to: PILOTS[p.pilot] as string,
    }),
  } satisfies ActionKind<{ from: number; pilot: number }>,
  aliceCallsPilot: {
    weight: 2,
    params: fc.record({
      pilot: fc.nat(1),
      skills: fc.nat(SKILL_ASKS.length - 1),
      soft: fc.boolean(),
    }),
    command: (_state, p) => {
      const skills = SKILL_ASKS[p.skills]
      return {
        type: 'makeCall',
        loginName: 'alice',
        deviceId: p.soft ? '1011' : '1001',
        callee: PILOTS[p.pilot] as string,
        autoAnswer: true,
        ...(skills !== undefined && { acd: { skills } }),
      }
    },
  } satisfies ActionKind<{ pilot: number; skills: number; soft: boolean }>,
  privateCall: {
    weight: 1,
    params: fc.record({ agent, toAgent: fc.boolean() }),
    command: (_state, p) =>
      p.toAgent
        ? {
            type: 'makeCall',
            loginName: 'alice',
            deviceId: '1001',
            callee: SETS[p.agent] as string,
            autoAnswer: true,
          }
        : {
            type: 'makeCall',
            loginName: p.agent,
            deviceId: SETS[p.agent] as string,
            callee: '1001',
            autoAnswer: true,
          },
  } satisfies ActionKind<{ agent: string; toAgent: boolean }>,
  logOn: {
    weight: 4,
    params: agent,
    command: (_state, who) => ({
      type: 'acdLogOn',
      loginName: who,
      proAcdDeviceNumber: SETS[who] as string,
    }),
  } satisfies ActionKind<string>,
  logOff: {
    weight: 1,
    params: agent,
    command: (_state, who) => ({ type: 'acdLogOff', loginName: who }),
  } satisfies ActionKind<string>,
  agentState: {
    weight: 5,
    params: fc.record({
      agent,
      what: fc.constantFrom('ready', 'ready', 'pause', 'withdraw', 'wrapUp', 'enter', 'exit'),
      reason: fc.constantFrom(1, 2, 9),
    }),
    command: (_state, p): EngineCommand => {
      const loginName = p.agent
      switch (p.what) {
        case 'ready':
          return { type: 'acdReady', loginName }
        case 'pause':
          return { type: 'acdPause', loginName }
        case 'withdraw':
          return { type: 'acdWithdraw', loginName, reasonIndex: p.reason }
        case 'wrapUp':
          return { type: 'acdWrapUp', loginName }
        case 'enter':
          return { type: 'acdEnter', loginName, pg: PG }
        default:
          return { type: 'acdExit', loginName, pg: PG }
      }
    },
  } satisfies ActionKind<{ agent: string; what: string; reason: number }>,
  accountInfo: {
    weight: 1,
    params: fc.record({ agent, code: fc.constantFrom('42', '4711') }),
    command: (state, p) => {
      // Mostly an agent with an ACD call or a ticket to give the code to.
      const acd = state.acd
      const callOf = (login: string) =>
        acd?.agents.get(login)?.acdCall ?? acd?.wrapping[login]?.callRef
      const loginName = AGENTS.find((login) => callOf(login) !== undefined) ?? p.agent
      const callRef = callOf(loginName) ?? 'ffffffffffffffff'
      return { type: 'acdAccountInfo', loginName, callRef, code: p.code }
    },
  } satisfies ActionKind<{ agent: string; code: string }>,
  skills: {
    weight: 2,
    params: fc.record({ agent, skill: fc.constantFrom(1, 2), active: fc.boolean() }),
    // carol has both skills, bob only English: bob's French is a refusal.
    command: (_state, p) => ({
      type: 'acdSkills',
      loginName: p.agent,
      skills: [p.skill],
      active: p.active,
    }),
  } satisfies ActionKind<{ agent: string; skill: number; active: boolean }>,
  answer: {
    weight: 6,
    params: fc.nat(7),
    command: (state, index) => {
      const ringing = userConnections(state, true)
      const pick = ringing[index % Math.max(1, ringing.length)]
      return pick === undefined ? undefined : { type: 'answer', ...pick }
    },
  } satisfies ActionKind<number>,
  release: {
    weight: 4,
    params: fc.nat(7),
    command: (state, index) => {
      const parties = userConnections(state, false)
      const pick = parties[index % Math.max(1, parties.length)]
      return pick === undefined ? undefined : { type: 'release', ...pick }
    },
  } satisfies ActionKind<number>,
  callerHangsUp: {
    weight: 3,
    params: fc.nat(7),
    command: (state, index) => {
      const parties = outsideParties(state)
      const pick = parties[index % Math.max(1, parties.length)]
      return pick === undefined ? undefined : { type: 'outsidePartyHangsUp', ...pick }
    },
  } satisfies ActionKind<number>,
  /** A user in a call sends it on: blind transfer (to a pilot, alice or dave), or redirect while it rings. */
  sendOn: {
    weight: 2,
    params: fc.record({
      party: fc.nat(7),
      to: fc.constantFrom(PILOT, FRENCH_PILOT, '1001', '1004'),
      redirect: fc.boolean(),
    }),
    command: (state, p) => {
      const parties = userConnections(state, p.redirect)
      const pick = parties[p.party % Math.max(1, parties.length)]
      if (pick === undefined) return undefined
      return p.redirect
        ? { type: 'redirect', ...pick, redirectTo: p.to }
        : { type: 'blindTransfer', ...pick, transferTo: p.to }
    },
  } satisfies ActionKind<{ party: number; to: string; redirect: boolean }>,
  /** An agent consults (calls alice or dave from its set, its other call held), or transfers one call to the other. */
  consult: {
    weight: 4,
    params: fc.record({ agent, transfer: fc.boolean(), to: fc.constantFrom('1001', '1004') }),
    command: (state, p) => {
      const calls = userConnections(state, false).filter((c) => c.loginName === p.agent)
      const [first, second] = calls
      if (!p.transfer)
        return {
          type: 'makeCall',
          loginName: p.agent,
          deviceId: SETS[p.agent] as string,
          callee: p.to,
          autoAnswer: true,
        }
      return first === undefined || second === undefined
        ? undefined
        : { type: 'transfer', ...second, heldCallRef: first.callRef }
    },
  } satisfies ActionKind<{ agent: string; transfer: boolean; to: string }>,
  /** A user holds, retrieves, or leaves a call it is in. */
  onCall: {
    weight: 2,
    params: fc.record({ party: fc.nat(7), what: fc.constantFrom('hold', 'retrieve', 'dropMe') }),
    command: (state, p) => {
      const parties = userConnections(state, false)
      const pick = parties[p.party % Math.max(1, parties.length)]
      if (pick === undefined) return undefined
      return { type: p.what as 'hold' | 'retrieve' | 'dropMe', ...pick }
    },
  } satisfies ActionKind<{ party: number; what: string }>,
  /** An agent's set answers or hangs up by itself (the phone's own keys). */
  device: {
    weight: 2,
    params: fc.record({ agent, answer: fc.boolean() }),
    command: (_state, p) =>
      p.answer
        ? { type: 'deviceAnswers', deviceId: SETS[p.agent] as string }
        : { type: 'deviceHangsUp', deviceId: SETS[p.agent] as string },
  } satisfies ActionKind<{ agent: string; answer: boolean }>,
  setDevice: {
    weight: 1,
    params: fc.record({ agent, inService: fc.constantFrom(true, true, false) }),
    command: (_state, p) => ({
      type: 'setDevice',
      deviceId: SETS[p.agent] as string,
      state: p.inService ? 'IN_SERVICE' : 'OUT_OF_SERVICE',
    }),
  } satisfies ActionKind<{ agent: string; inService: boolean }>,
  pilotMode: {
    weight: 1,
    params: fc.record({ pilot: fc.nat(1), open: fc.constantFrom(true, true, false) }),
    command: (_state, p) => ({
      type: 'acdPilotMode',
      pilot: PILOTS[p.pilot] as string,
      open: p.open,
    }),
  } satisfies ActionKind<{ pilot: number; open: boolean }>,
  /** The clock moves on by a while (around the no-answer and wrap-up times); the timers due meanwhile fire. */
  wait: {
    weight: 3,
    params: fc.constantFrom(1_000, WRAP_UP_MS, NO_ANSWER_MS - 1, NO_ANSWER_MS, 3 * NO_ANSWER_MS),
    command: () => undefined,
    advance: (_state, now, ms) => now + ms,
  } satisfies ActionKind<number>,
  /** The clock moves to the next pending timer, which fires. */
  nextTimer: {
    weight: 2,
    params: fc.constant(null),
    command: () => undefined,
    advance: (state, now) =>
      state.timers.length === 0 ? now : Math.max(now, Math.min(...state.timers.map((t) => t.at))),
  } satisfies ActionKind<null>,
}

type Kinds = typeof ACTIONS
type ActionName = keyof Kinds
type Action = {
  [K in ActionName]: {
    kind: K
    params: Kinds[K]['params'] extends fc.Arbitrary<infer P> ? P : never
  }
}[ActionName]

const action: fc.Arbitrary<Action> = fc.oneof(
  ...(Object.entries(ACTIONS) as [ActionName, ActionKind<unknown>][]).map(([kind, spec]) => ({
    weight: spec.weight,
    arbitrary: spec.params.map((params) => ({ kind, params }) as Action),
  })),
)
const setting: fc.Arbitrary<Setting> = fc.record({
  wrapUp: fc.boolean(),
  transactionCode: fc.boolean(),
  overflow: fc.boolean(),
})

// ---------------------------------------------------------------------------------------------------------
// The checks.

/** Whether the agent has every skill the call needs, active and at its level at least. */
function matches(agent: AgentRuntime, needs: readonly SkillNeed[] | undefined): boolean {
  return (needs ?? []).every((need) =>
    agent.skills.some(
      (skill) => skill.number === need.number && skill.active && skill.level >= need.level,
    ),
  )
}

/** The users' connections that ring for a pilot: the offers. */
function offers(call: CallRecord) {
  return call.connections.filter(
    (c) => c.endpoint.offeredBy !== undefined && c.endpoint.service === undefined,
  )
}

class Checker {
  /** How many times each call reached a pilot (OnPilotCallCreated). */
  readonly reached = new Map<string, number>()
  readonly seen = new Set<string>()

  /** Everything checked after one step: `before` and `after` the command, its events. */
  step(
    before: TelephonyState,
    after: TelephonyState,
    events: PlatformEvent[],
    where: () => string,
  ) {
    for (const event of events)
      if (event.eventName === 'OnPilotCallCreated') {
        const callRef = String(event['callRef'])
        this.reached.set(callRef, (this.reached.get(callRef) ?? 0) + 1)
      }
    this.checkOffers(after, where)
    this.checkNoneIdle(after, where)
    this.checkQueues(before, after, where)
    this.checkTickets(after, where)
    this.checkAcdCalls(after, where)
  }

  /** No call offered to two agents, no agent offered two calls; an offer rings a logged-on agent whose ACD call it is. */
  private checkOffers(state: TelephonyState, where: () => string): void {
    const offeredTo = new Map<string, string>()
    for (const call of allCalls(state)) {
      const offered = offers(call)
      expect(
        offered.length,
        `${call.callRef} offered to two agents; ${where()}`,
      ).toBeLessThanOrEqual(1)
      for (const { endpoint, state: media } of offered) {
        const login = endpoint.loginName ?? endpoint.number
        expect(media, `offer of ${call.callRef} not ringing; ${where()}`).toBe('RINGING_INCOMING')
        expect(
          offeredTo.get(login),
          `${login} offered ${call.callRef} and ${offeredTo.get(login)}; ${where()}`,
        ).toBeUndefined()
        offeredTo.set(login, call.callRef)
        this.seen.add('offered')
        expect(call.acd?.offeredTo, `${call.callRef} rings ${login}; ${where()}`).toBe(login)
        const agent = state.acd?.agents.get(login)
        expect(agent?.place, `${call.callRef} rings ${login}; ${where()}`).toBe('BUSY')
        expect(agent?.acdCall, `${call.callRef} rings ${login}; ${where()}`).toBe(call.callRef)
      }
      if (call.acd?.offeredTo !== undefined)
        expect(offered.length, `${call.callRef} offered to nobody's set; ${where()}`).toBe(1)
    }
  }

  /** No READY agent free for a waiting call it matches in a queue of its group. */
  private checkNoneIdle(state: TelephonyState, where: () => string): void {
    const acd = state.acd
    if (acd === undefined) return
    const lookup = lookupOf(state)
    for (const agent of acd.agents.values()) {
      if (agent.place !== 'READY' || agent.pg === undefined || agent.acdCall !== undefined) continue
      const device = agent.proAcdDeviceNumber ?? ''
      if (state.devices[device]?.state !== 'IN_SERVICE') continue
      if (lookup.ofUser(agent.loginName).length > 0) continue
      for (const [queue, waiting] of Object.entries(acd.queues)) {
        if (acd.definition.queues[queue]?.processingGroup !== agent.pg) continue
        for (const callRef of waiting)
          expect(
            matches(agent, state.calls.get(callRef)?.acd?.skills),
            `${agent.loginName} READY and free while ${callRef} waits in ${queue}; ${where()}`,
          ).toBe(false)
      }
    }
  }

  /**
   * Each queue keeps its order: after a step it is the calls put back at the head (they rang an agent before),
   * the calls that waited before in their order, then the calls that arrived. A call offered in the step was not
   * behind a call still waiting that its agent could take.
   */
  private checkQueues(before: TelephonyState, after: TelephonyState, where: () => string): void {
    const queues = new Set([
      ...Object.keys(before.acd?.queues ?? {}),
      ...Object.keys(after.acd?.queues ?? {}),
    ])
    for (const queue of queues) {
      const was = before.acd?.queues[queue] ?? []
      const is = after.acd?.queues[queue] ?? []
      for (const callRef of is)
        expect(after.calls.get(callRef)?.acd?.queue, `${callRef} in ${queue}; ${where()}`).toBe(
          queue,
        )
      if (is.length > 1) this.seen.add('queued')
      // Put back: it rang an agent for this queue, in the same passage through a pilot.
      const returned = (callRef: string) => {
        const then = before.calls.get(callRef)?.acd
        return (
          !was.includes(callRef) &&
          then?.offeredTo !== undefined &&
          then.queue === queue &&
          then.ticketId === after.calls.get(callRef)?.acd?.ticketId
        )
      }
      let at = 0
      while (at < is.length && returned(is[at] as string)) at += 1
      if (at > 0) this.seen.add('put back')
      const kept = was.filter((callRef) => is.includes(callRef))
      expect(
        is.slice(at, at + kept.length),
        `order of ${queue}: ${was} -> ${is}; ${where()}`,
      ).toEqual(kept)
      for (const callRef of is.slice(at + kept.length))
        expect(
          returned(callRef) || was.includes(callRef),
          `${callRef} overtook in ${queue}; ${where()}`,
        ).toBe(false)
      // No call taken from the queue in the step passed a call still waiting that its agent could take.
      const taken = allCalls(after).filter((call) => {
        const then = before.calls.get(call.callRef)?.acd
        return (
          call.acd?.queue === queue &&
          call.acd.offeredTo !== undefined &&
          (then?.offeredTo === undefined || then.ticketId !== call.acd.ticketId)
        )
      })
      for (const call of taken) {
        const agent = after.acd?.agents.get(call.acd?.offeredTo ?? '')
        if (agent === undefined) continue
        const position = was.indexOf(call.callRef)
        const ahead = position >= 0 ? was.slice(0, position) : was
        for (const other of ahead)
          if (is.includes(other))
            expect(
              matches(agent, after.calls.get(other)?.acd?.skills),
              `${call.callRef} offered to ${agent.loginName} before ${other} in ${queue}; ${where()}`,
            ).toBe(false)
      }
    }
  }

  /**
   * Tickets: unique; none for a call still at a pilot or with its agent; for a call gone, one per time it reached
   * a pilot, counting the one its agent still wraps up.
   */
  private checkTickets(state: TelephonyState, where: () => string): void {
    const acd = state.acd
    const outbox = acd?.outbox ?? []
    const ids = outbox.map((ticket) => ticket.ticketId)
    expect(new Set(ids).size, `ticketIds not unique: ${ids}; ${where()}`).toBe(ids.length)
    const wrapping = Object.values(acd?.wrapping ?? {})
    for (const ticket of wrapping)
      expect(ids, `ticket ${ticket.ticketId} wrapped up and closed; ${where()}`).not.toContain(
        ticket.ticketId,
      )
    for (const call of allCalls(state))
      if (call.acd !== undefined)
        expect(ids, `${call.callRef} at its pilot has a ticket; ${where()}`).not.toContain(
          call.acd.ticketId,
        )
    for (const [callRef, times] of this.reached) {
      if (state.calls.has(callRef)) continue
      const closed = outbox.filter((ticket) => ticket.callRef === callRef).length
      const open = wrapping.filter((ticket) => ticket.callRef === callRef).length
      expect(closed + open, `${callRef} reached a pilot ${times} times; ${where()}`).toBe(times)
    }
    if (outbox.length > 0) this.seen.add('ticket')
    if (wrapping.length > 0) this.seen.add('wrapping')
  }

  /** An agent's ACD call exists, or is the call of the ticket it wraps up. */
  private checkAcdCalls(state: TelephonyState, where: () => string): void {
    for (const agent of state.acd?.agents.values() ?? []) {
      if (agent.acdCall === undefined) continue
      const known =
        state.calls.has(agent.acdCall) ||
        state.acd?.wrapping[agent.loginName]?.callRef === agent.acdCall
      expect(known, `${agent.loginName}'s acdCall ${agent.acdCall}; ${where()}`).toBe(true)
    }
  }

  /** Once everyone hung up and finished wrapping up: one ticket per time a call reached a pilot, nothing left. */
  end(state: TelephonyState, where: string): void {
    expect(allCalls(state), where).toEqual([])
    expect(state.acd?.wrapping, where).toEqual({})
    for (const waiting of Object.values(state.acd?.queues ?? {})) expect(waiting, where).toEqual([])
    const outbox = state.acd?.outbox ?? []
    for (const [callRef, times] of this.reached)
      expect(
        outbox.filter((ticket) => ticket.callRef === callRef).length,
        `${callRef}; ${where}`,
      ).toBe(times)
    const reached = [...this.reached.values()].reduce((sum, times) => sum + times, 0)
    expect(outbox.length, `tickets of calls that never reached a pilot; ${where}`).toBe(reached)
  }
}

// ---------------------------------------------------------------------------------------------------------
// Running a sequence.

/** The engine driven like the service drives it: commands at a time, timers fired when due. */
class Driver {
  state: TelephonyState
  now = 1_000
  readonly events: PlatformEvent[] = []
  readonly steps: string[] = []

  constructor(
    setting: Setting,
    private readonly checker?: Checker,
  ) {
    this.state = startState(setting)
    this.steps.push(JSON.stringify(setting))
  }

  private where = () => `after ${this.steps.length} steps:\n${this.steps.join('\n')}`

  /** Runs a command; a PlatformError refusal is part of the model, anything else is a bug. */
  run(command: EngineCommand, label = JSON.stringify(command)): void {
    const before = this.state
    const json = JSON.stringify(before)
    this.steps.push(`${this.now} ${label}`)
    try {
      const result = execute(before, command, this.now, context)
      // The engine is a pure function: the state it ran on is left as it was.
      expect(JSON.stringify(before), `${label} changed the state it ran on`).toBe(json)
      this.state = result.state
      this.events.push(...result.events)
      this.checker?.step(before, result.state, result.events, this.where)
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error
      expect(JSON.stringify(before), `${label} refused but changed the state`).toBe(json)
      this.events.push({
        eventName: 'Refused',
        loginName: '',
        type: `${command.type} ${error.type}`,
      })
      this.steps.push(`  refused ${error.type}`)
    }
  }

  /** Moves the clock to `to`, firing every timer due by then, earliest first, each at its own time. */
  advance(to: number): void {
    for (let fired = 0; ; fired++) {
      if (fired > 1000) throw new Error('timers keep firing')
      const due = this.state.timers
        .filter((timer) => timer.at <= to)
        .reduce<TelephonyState['timers'][number] | undefined>(
          (first, timer) => (first === undefined || timer.at < first.at ? timer : first),
          undefined,
        )
      if (due === undefined) break
      this.state = {
        ...this.state,
        timers: this.state.timers.filter((timer) => timer.timerId !== due.timerId),
      }
      this.now = Math.max(this.now, due.at)
      this.run(due.command, `timer ${JSON.stringify(due.command)}`)
    }
    this.now = Math.max(this.now, to)
  }

  act(step: Action): void {
    const spec = ACTIONS[step.kind] as ActionKind<unknown>
    const command = spec.command(this.state, step.params)
    if (command !== undefined) this.run(command)
    if (spec.advance) this.advance(spec.advance(this.state, this.now, step.params))
    this.advance(this.now + 100)
  }

  /**
   * The end: every caller hangs up (the outside party, or the user who called), the wrap-ups run out, and the
   * agents whose wrap-up waits for them end it.
   */
  finish(): void {
    for (let round = 0; allCalls(this.state).length > 0; round++) {
      if (round > 100) throw new Error(`calls survive their release; ${this.where()}`)
      const call = allCalls(this.state)[0] as CallRecord
      const caller = call.connections.find(
        (c) => c.endpoint.service === undefined && c.endpoint.offeredBy === undefined,
      )
      if (caller === undefined) throw new Error(`${call.callRef} has no caller; ${this.where()}`)
      if (caller.endpoint.loginName === undefined)
        this.run({
          type: 'outsidePartyHangsUp',
          number: caller.endpoint.number,
          callRef: call.callRef,
        })
      else
        this.run({ type: 'release', loginName: caller.endpoint.loginName, callRef: call.callRef })
      this.advance(this.now + 100)
    }
    // The wrap-ups with a time run out; the others (a code awaited, a wrap-up asked for in a group with no
    // wrap-up time) last until the agent is ready.
    this.advance(this.now + WRAP_UP_MS)
    for (const loginName of AGENTS) {
      const place = this.state.acd?.agents.get(loginName)?.place
      if (place === 'TRANSACTION_CODE_INPUT' || place === 'WRAPUP')
        this.run({ type: 'acdReady', loginName })
    }
  }
}

function runSequence(setting: Setting, actions: readonly Action[], checker?: Checker): Driver {
  const driver = new Driver(setting, checker)
  for (const step of actions) driver.act(step)
  driver.finish()
  checker?.end(driver.state, driver.steps.join('\n'))
  return driver
}

/** What the sequences reached: offers, several calls waiting, calls put back, tickets, wrap-ups. */
const reached = new Set<string>()

describe('automatic call distribution under random sequences', () => {
  it(`offers each call once, leaves no ready agent idle, keeps each queue's order and leaves one ticket per call (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        setting,
        fc.array(action, { minLength: 1, maxLength: STEPS, size: 'max' }),
        (drawn, actions) => {
          const checker = new Checker()
          const checked = runSequence(drawn, actions, checker)
          for (const what of checker.seen) reached.add(what)
          const again = runSequence(drawn, actions)
          expect(JSON.stringify(again.events)).toBe(JSON.stringify(checked.events))
        },
      ),
      {
        numRuns: RUNS,
        ...(SEED !== undefined && { seed: SEED }),
        ...(PATH !== undefined && { path: PATH }),
      },
    )
    // The sequences reach the distribution's states, not only calls dissuaded.
    if (RUNS >= 100)
      expect([...reached].sort()).toEqual(['offered', 'put back', 'queued', 'ticket', 'wrapping'])
  }, 120_000)
})

/** The cases the properties found, kept as examples (acd-world.ts's contact center). */
describe('what the properties found', () => {
  it('a command leaves the state it ran on as it was: the ACD call is copied on write', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, '0555000001')
    const before = w.state
    const json = JSON.stringify(before)
    w.advance(NO_ANSWER_MS)
    expect(w.state.calls.get(callRef)?.acd).toMatchObject({ refusals: 1 })
    expect(JSON.stringify(before)).toBe(json)
  })

  it('an agent who logs off while an ACD call rings it: the ringing stops, the call goes to the next agent', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, '0555000001')
    w.logOn('carol', '1003')
    const off = w.run({ type: 'acdLogOff', loginName: 'bob' })
    expect(namesOf(off.events, 'bob')).toEqual([
      'OnCallRemoved:NOT_ANSWERED',
      'OnAgentStateChanged',
    ])
    expect(agentStates(off.events)).toEqual(['bob:LOG_OFF', 'carol:BUSY'])
    expect(connections(w.state, callRef)).toEqual([
      '0555000001:RINGING_OUTGOING',
      `${PILOT}:RINGING_INCOMING`,
      '1003:RINGING_INCOMING',
    ])
    // Nobody else free: it waits at the head of its queue.
    w.run({ type: 'acdLogOff', loginName: 'carol' })
    expect(w.state.acd?.queues[QUEUE]).toEqual([callRef])
    expect(w.state.calls.get(callRef)?.acd).toMatchObject({ offers: 2, refusals: 2 })
    expect(w.state.timers.filter((timer) => timer.command.type === 'acdNoAnswer')).toEqual([])
  })

  it('an agent who transfers its ACD call to a pilot: its part ends with its ticket, the new passage has its own', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, '0555000001')
    w.run({ type: 'answer', loginName: 'bob', callRef })
    const transferred = w.run({
      type: 'blindTransfer',
      loginName: 'bob',
      callRef,
      transferTo: PILOT,
    })
    expect(agentStates(transferred.events)).toEqual(['bob:WRAPUP'])
    expect(w.state.acd?.wrapping['bob']).toMatchObject({ callRef, agent: 'bob', outcome: 'SERVED' })
    const first = w.state.acd?.wrapping['bob']?.ticketId
    expect(w.state.acd?.queues[QUEUE]).toEqual([callRef])
    w.advance(WRAP_UP_MS)
    // bob is ready again, and the call that waited for an agent rings him.
    expect(connections(w.state, callRef)).toContain('1002:RINGING_INCOMING')
    w.run({ type: 'outsidePartyHangsUp', number: '0555000001' })
    expect(w.tickets().map((ticket) => [ticket.ticketId === first, ticket.outcome])).toEqual([
      [true, 'SERVED'],
      [false, 'ABANDONED'],
    ])
  })

  it('a party transfers away a call a pilot is distributing: NOT_EXPECTED', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    // carol talks with alice, and transfers alice to the pilot: it rings bob for her.
    const callRef = w.call('carol', '1001', 'alice')
    w.run({ type: 'blindTransfer', loginName: 'carol', callRef, transferTo: PILOT })
    expect(connections(w.state, callRef)).toEqual([
      '1001:ACTIVE',
      `${PILOT}:RINGING_INCOMING`,
      '1002:RINGING_INCOMING',
    ])
    w.refuses(
      { type: 'blindTransfer', loginName: 'alice', callRef, transferTo: FRENCH_PILOT },
      'NOT_EXPECTED',
    )
  })
})
