/**
 * The agent's state machine through the engine (platform/acd/agent-state.ts, operations/acd-agents.ts): from every
 * place an agent reaches by real commands, every request of the agent's API, with where it leaves the agent and
 * what the agent is told, or how it is refused. The expectations are written out here from what the places mean
 * (agent-state.ts's doc comments and `refusalOf`), not read back from AGENT_TRANSITIONS: a request is refused
 * NOT_EXPECTED where the agent's place does not allow it (logged off, in no group, busy in a call); a request whose
 * effect already holds changes nothing and tells nothing; the agent is told OnAgentStateChanged exactly when the
 * state the SDKs read changed. Then the bad inputs, skills, the state snapshot and help requests.
 */
import { describe, expect, it } from 'vitest'
import type { AgentPlace } from '../../src/platform/acd/agent-state.js'
import type { PlatformError } from '../../src/platform/platform-error.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import {
  AcdWorld,
  agentStates,
  contactCenter,
  FRENCH_PILOT,
  FRENCH_QUEUE,
  PG,
  PILOT,
  WRAP_UP_MS,
} from './acd-world.js'
import { connections, namesOf } from './support.js'

const CALLER = '0555123456'
/** A second processing group: nobody's, and served by no queue. */
const OTHER_PG = '3201'

/** The test contact center, with processing group 3200 asking its agents for transaction codes. */
function withTransactionCodes(): ConstructorParameters<typeof AcdWorld>[0] {
  return {
    processingGroups: contactCenter().processingGroups.map((group) => ({
      ...group,
      transactionCode: true,
    })),
  }
}

/** The places an agent starts from in the table, and the real commands that bring bob (set 1002) there. */
const START: Record<AgentPlace, () => AcdWorld> = {
  LOG_OFF: () => new AcdWorld(),
  OUT_OF_PG: () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdExit', loginName: 'bob', pg: PG })
    return w
  },
  READY: () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    return w
  },
  PAUSE: () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    return w
  },
  WITHDRAW: () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdWithdraw', loginName: 'bob', reasonIndex: 1 })
    return w
  },
  WRAPUP: () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdWrapUp', loginName: 'bob' })
    return w
  },
  BUSY: () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.call('bob', '1001', 'alice')
    return w
  },
  TRANSACTION_CODE_INPUT: () => {
    const w = new AcdWorld(withTransactionCodes())
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, CALLER)
    w.run({ type: 'answer', loginName: 'bob', callRef })
    w.run({ type: 'release', loginName: 'bob', callRef })
    return w
  },
}

/** The requests of the agent's API, as bob makes them (withdraw: reason 2, so that from WITHDRAW 1 it changes). */
const ACTIONS = {
  acdLogOn: { type: 'acdLogOn', loginName: 'bob', proAcdDeviceNumber: '1002' },
  acdLogOff: { type: 'acdLogOff', loginName: 'bob' },
  acdEnter: { type: 'acdEnter', loginName: 'bob', pg: PG },
  acdExit: { type: 'acdExit', loginName: 'bob', pg: PG },
  acdReady: { type: 'acdReady', loginName: 'bob' },
  acdPause: { type: 'acdPause', loginName: 'bob' },
  acdWithdraw: { type: 'acdWithdraw', loginName: 'bob', reasonIndex: 2 },
  acdWrapUp: { type: 'acdWrapUp', loginName: 'bob' },
} satisfies Record<string, EngineCommand>
type Action = keyof typeof ACTIONS

/** What a request does: moves the agent (told its new state), leaves it where it is (told nothing), or is refused. */
type Outcome =
  | { kind: 'moves'; to: AgentPlace }
  | { kind: 'stays' }
  | { kind: 'refused'; type: PlatformError['type'] }
const moves = (to: AgentPlace): Outcome => ({ kind: 'moves', to })
const stays: Outcome = { kind: 'stays' }
const refused = (type: PlatformError['type']): Outcome => ({ kind: 'refused', type })
const NOT_EXPECTED = refused('NOT_EXPECTED')

/**
 * THE TABLE, by starting place then request. The reasons, place by place:
 * - LOG_OFF: only logging on (to READY in the preferred group) and logging off (already done) are possible.
 * - OUT_OF_PG: logged on in no group; entering the group makes it READY; a request that needs a group is refused;
 *   exiting a group it is not in is a bad parameter (the group named is not its).
 * - READY, PAUSE, WITHDRAW: the agent moves freely among them, to a wrap-up, out of its group; entering its group
 *   makes it READY.
 * - WRAPUP: it may end its wrap-up by ready, pause or withdraw, or leave the group; it may not enter a group.
 * - BUSY (in a call): only logging off; a wrap-up asked for follows the call (it stays BUSY meanwhile).
 * - TRANSACTION_CODE_INPUT: like WRAPUP, but it may not leave its group before the code or the wrap-up.
 * Logging on again at the same set changes nothing.
 */
const TABLE: Record<AgentPlace, Record<Action, Outcome>> = {
  LOG_OFF: {
    acdLogOn: moves('READY'),
    acdLogOff: stays,
    acdEnter: NOT_EXPECTED,
    acdExit: NOT_EXPECTED,
    acdReady: NOT_EXPECTED,
    acdPause: NOT_EXPECTED,
    acdWithdraw: NOT_EXPECTED,
    acdWrapUp: NOT_EXPECTED,
  },
  OUT_OF_PG: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: moves('READY'),
    acdExit: refused('BAD_PARAMETER'),
    acdReady: NOT_EXPECTED,
    acdPause: NOT_EXPECTED,
    acdWithdraw: NOT_EXPECTED,
    acdWrapUp: NOT_EXPECTED,
  },
  READY: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: stays,
    acdExit: moves('OUT_OF_PG'),
    acdReady: stays,
    acdPause: moves('PAUSE'),
    acdWithdraw: moves('WITHDRAW'),
    acdWrapUp: moves('WRAPUP'),
  },
  PAUSE: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: moves('READY'),
    acdExit: moves('OUT_OF_PG'),
    acdReady: moves('READY'),
    acdPause: stays,
    acdWithdraw: moves('WITHDRAW'),
    acdWrapUp: moves('WRAPUP'),
  },
  WITHDRAW: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: moves('READY'),
    acdExit: moves('OUT_OF_PG'),
    acdReady: moves('READY'),
    acdPause: moves('PAUSE'),
    // Withdrawn for reason 1, now for reason 2: the same place, a state the SDKs see changed.
    acdWithdraw: moves('WITHDRAW'),
    acdWrapUp: moves('WRAPUP'),
  },
  WRAPUP: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: NOT_EXPECTED,
    acdExit: moves('OUT_OF_PG'),
    acdReady: moves('READY'),
    acdPause: moves('PAUSE'),
    acdWithdraw: moves('WITHDRAW'),
    acdWrapUp: stays,
  },
  BUSY: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: NOT_EXPECTED,
    acdExit: NOT_EXPECTED,
    acdReady: NOT_EXPECTED,
    acdPause: NOT_EXPECTED,
    acdWithdraw: NOT_EXPECTED,
    acdWrapUp: stays,
  },
  TRANSACTION_CODE_INPUT: {
    acdLogOn: stays,
    acdLogOff: moves('LOG_OFF'),
    acdEnter: NOT_EXPECTED,
    acdExit: NOT_EXPECTED,
    acdReady: moves('READY'),
    acdPause: moves('PAUSE'),
    acdWithdraw: moves('WITHDRAW'),
    acdWrapUp: moves('WRAPUP'),
  },
}

const describeOutcome = (outcome: Outcome): string =>
  outcome.kind === 'moves'
    ? `moves to ${outcome.to}`
    : outcome.kind === 'stays'
      ? 'changes nothing'
      : `is refused ${outcome.type}`

const ROWS = (Object.entries(TABLE) as [AgentPlace, Record<Action, Outcome>][]).flatMap(
  ([from, row]) =>
    (Object.entries(row) as [Action, Outcome][]).map(([action, outcome]) => ({
      from,
      action,
      outcome,
      expected: describeOutcome(outcome),
    })),
)

describe('the agent state machine, request by request from every place', () => {
  it('covers every place and every request', () => {
    expect(ROWS).toHaveLength(8 * 8)
  })

  for (const { from, action, outcome, expected } of ROWS)
    it(`${from}, ${action}: ${expected}`, () => {
      const w = START[from]()
      expect(w.place('bob'), 'the starting place').toBe(from)
      const command = ACTIONS[action]
      if (outcome.kind === 'refused') {
        w.refuses(command, outcome.type)
        return
      }
      const before = w.agentState('bob')
      const { events } = w.run(command)
      if (outcome.kind === 'stays') {
        expect(w.place('bob'), describeOutcome(outcome)).toBe(from)
        expect(w.agentState('bob')).toEqual(before)
        expect(agentStates(events)).toEqual([])
        return
      }
      expect(w.place('bob'), describeOutcome(outcome)).toBe(outcome.to)
      expect(agentStates(events)).toEqual([`bob:${outcome.to}`])
      // The event carries the state the SDKs read, as the agent now is.
      const told = events.find((event) => event.eventName === 'OnAgentStateChanged')
      expect(told?.['state']).toEqual(w.agentState('bob'))
    })
})

describe('what the moves carry', () => {
  it('logging on: LOG_ON in the preferred group at the set, READY', () => {
    const w = START.LOG_OFF()
    w.logOn('bob', '1002')
    expect(w.agentState('bob')).toEqual({
      mainState: 'LOG_ON',
      subState: 'READY',
      proAcdDeviceNumber: '1002',
      pgNumber: PG,
      withdraw: false,
      withdrawn: false,
    })
  })

  it('an operator in no group logs on OUT_OF_PG', () => {
    const definition = contactCenter()
    const w = new AcdWorld({
      operators: definition.operators.map((operator) =>
        operator.loginName === 'bob' ? { ...operator, processingGroups: [] } : operator,
      ),
    })
    const { events } = w.run({ type: 'acdLogOn', loginName: 'bob', proAcdDeviceNumber: '1002' })
    expect(agentStates(events)).toEqual(['bob:OUT_OF_PG'])
    expect(w.agentState('bob')?.pgNumber).toBeUndefined()
  })

  it('logging on in a group named, and again with a group while logged on: NOT_EXPECTED', () => {
    const w = START.LOG_OFF()
    w.run({ type: 'acdLogOn', loginName: 'bob', proAcdDeviceNumber: '1002', pg: PG })
    expect(w.agentState('bob')?.pgNumber).toBe(PG)
    w.refuses(
      { type: 'acdLogOn', loginName: 'bob', proAcdDeviceNumber: '1002', pg: PG },
      'NOT_EXPECTED',
    )
  })

  it('leaving the group: OUT_OF_PG without a group number', () => {
    const w = START.OUT_OF_PG()
    expect(w.agentState('bob')).toEqual({
      mainState: 'LOG_ON',
      subState: 'OUT_OF_PG',
      proAcdDeviceNumber: '1002',
      withdraw: false,
      withdrawn: false,
    })
  })

  it('withdrawn: the reason, and withdraw/withdrawn for both SDKs; withdrawn again for the same reason tells nothing', () => {
    const w = START.WITHDRAW()
    expect(w.agentState('bob')).toMatchObject({
      subState: 'WITHDRAW',
      withdrawReason: 1,
      withdraw: true,
      withdrawn: true,
    })
    const again = w.run({ type: 'acdWithdraw', loginName: 'bob', reasonIndex: 1 })
    expect(agentStates(again.events)).toEqual([])
    w.run({ type: 'acdReady', loginName: 'bob' })
    expect(w.agentState('bob')).toMatchObject({ subState: 'READY', withdraw: false })
    expect(w.agentState('bob')?.withdrawReason).toBeUndefined()
  })

  it('a wrap-up asked for lasts the group wrap-up time, then READY', () => {
    const w = START.WRAPUP()
    expect(agentStates(w.advance(WRAP_UP_MS - 1))).toEqual([])
    expect(agentStates(w.advance(1))).toEqual(['bob:READY'])
  })

  it('a wrap-up ended early stops its timer: no READY later', () => {
    const w = START.WRAPUP()
    w.run({ type: 'acdPause', loginName: 'bob' })
    expect(w.state.timers.filter((timer) => timer.command.type === 'acdWrapUpEnd')).toEqual([])
    expect(agentStates(w.advance(WRAP_UP_MS))).toEqual([])
    expect(w.place('bob')).toBe('PAUSE')
  })

  it('busy in a private call, a wrap-up asked for follows the call', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.call('bob', '1001', 'alice')
    w.run({ type: 'acdWrapUp', loginName: 'bob' })
    const ended = w.run({ type: 'release', loginName: 'bob', callRef })
    expect(agentStates(ended.events)).toEqual(['bob:WRAPUP'])
    expect(agentStates(w.advance(WRAP_UP_MS))).toEqual(['bob:READY'])
  })

  it('busy in a private call, logged off: the call goes on, and its end moves nothing', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.call('bob', '1001', 'alice')
    w.run({ type: 'acdLogOff', loginName: 'bob' })
    expect(connections(w.state, callRef)).toEqual(['1002:ACTIVE', '1001:ACTIVE'])
    const ended = w.run({ type: 'release', loginName: 'bob', callRef })
    expect(agentStates(ended.events)).toEqual([])
    expect(w.place('bob')).toBe('LOG_OFF')
  })

  it('leaving TRANSACTION_CODE_INPUT by READY closes the call ticket, with no code', () => {
    const w = START.TRANSACTION_CODE_INPUT()
    expect(w.tickets()).toEqual([])
    w.run({ type: 'acdReady', loginName: 'bob' })
    expect(w.tickets()).toHaveLength(1)
    expect(w.tickets()[0]).toMatchObject({ agent: 'bob', outcome: 'SERVED' })
    expect(w.tickets()[0]?.transactionCode).toBeUndefined()
    expect(w.state.acd?.wrapping).toEqual({})
  })

  it('a wrap-up asked for in TRANSACTION_CODE_INPUT keeps the ticket open until it ends', () => {
    const w = START.TRANSACTION_CODE_INPUT()
    w.run({ type: 'acdWrapUp', loginName: 'bob' })
    expect(w.tickets()).toEqual([])
    w.advance(WRAP_UP_MS)
    expect(w.place('bob')).toBe('READY')
    expect(w.tickets()).toMatchObject([{ agent: 'bob', outcome: 'SERVED' }])
  })

  it('logged off in the wrap-up of an ACD call: the ticket closes then, its wrap-up as long as it lasted', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const callRef = w.incoming(PILOT, CALLER)
    w.run({ type: 'answer', loginName: 'bob', callRef })
    w.run({ type: 'release', loginName: 'bob', callRef })
    expect(w.place('bob')).toBe('WRAPUP')
    w.run({ type: 'acdLogOff', loginName: 'bob' })
    expect(w.tickets()).toMatchObject([{ agent: 'bob', outcome: 'SERVED', wrapUpMs: 1_000 }])
    expect(w.state.timers.filter((timer) => timer.command.type === 'acdWrapUpEnd')).toEqual([])
  })

  it('a group the agent belongs to besides its own: entered from READY, in the new group', () => {
    const definition = contactCenter()
    const w = new AcdWorld({
      processingGroups: [
        ...definition.processingGroups,
        ...definition.processingGroups.map((group) => ({
          ...group,
          number: OTHER_PG,
          name: 'Other',
        })),
      ],
      operators: definition.operators.map((operator) =>
        operator.loginName === 'bob' ? { ...operator, processingGroups: [PG, OTHER_PG] } : operator,
      ),
    })
    w.logOn('bob', '1002')
    const entered = w.run({ type: 'acdEnter', loginName: 'bob', pg: OTHER_PG })
    expect(agentStates(entered.events)).toEqual(['bob:READY'])
    expect(w.agentState('bob')?.pgNumber).toBe(OTHER_PG)
    w.refuses({ type: 'acdExit', loginName: 'bob', pg: PG }, 'BAD_PARAMETER')
  })
})

describe('bad inputs', () => {
  it('logging on at a set that is not the agent own: NOT_ALLOWED', () => {
    new AcdWorld().refuses(
      { type: 'acdLogOn', loginName: 'bob', proAcdDeviceNumber: '1003' },
      'NOT_ALLOWED',
    )
  })

  it('logging on at a set that does not exist: NOT_FOUND', () => {
    new AcdWorld().refuses(
      { type: 'acdLogOn', loginName: 'bob', proAcdDeviceNumber: '1999' },
      'NOT_FOUND',
    )
  })

  it('a user who is no operator: NOT_ALLOWED, whatever the request', () => {
    const w = new AcdWorld()
    w.refuses({ type: 'acdLogOn', loginName: 'alice', proAcdDeviceNumber: '1001' }, 'NOT_ALLOWED')
    w.refuses({ type: 'acdLogOff', loginName: 'alice' }, 'NOT_ALLOWED')
    w.refuses({ type: 'acdReady', loginName: 'alice' }, 'NOT_ALLOWED')
    w.refuses({ type: 'acdAgentSnapshot', loginName: 'alice' }, 'NOT_ALLOWED')
  })

  it('entering a group the agent is not in (and may not assign itself to): NOT_ALLOWED', () => {
    const definition = contactCenter()
    const w = new AcdWorld({
      processingGroups: [
        ...definition.processingGroups,
        ...definition.processingGroups.map((group) => ({
          ...group,
          number: OTHER_PG,
          name: 'Other',
        })),
      ],
    })
    w.logOn('bob', '1002')
    w.refuses({ type: 'acdEnter', loginName: 'bob', pg: OTHER_PG }, 'NOT_ALLOWED')
    w.run({ type: 'acdExit', loginName: 'bob', pg: PG })
    w.refuses({ type: 'acdEnter', loginName: 'bob', pg: OTHER_PG }, 'NOT_ALLOWED')
    w.refuses(
      { type: 'acdLogOn', loginName: 'carol', proAcdDeviceNumber: '1003', pg: OTHER_PG },
      'NOT_ALLOWED',
    )
  })

  it('an operator who may assign itself enters any group', () => {
    const definition = contactCenter()
    const w = new AcdWorld({
      processingGroups: [
        ...definition.processingGroups,
        ...definition.processingGroups.map((group) => ({
          ...group,
          number: OTHER_PG,
          name: 'Other',
        })),
      ],
      operators: definition.operators.map((operator) =>
        operator.loginName === 'bob' ? { ...operator, selfAssign: true } : operator,
      ),
    })
    w.logOn('bob', '1002')
    w.run({ type: 'acdEnter', loginName: 'bob', pg: OTHER_PG })
    expect(w.agentState('bob')).toMatchObject({ subState: 'READY', pgNumber: OTHER_PG })
  })

  it('entering a group that does not exist: NOT_FOUND', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.refuses({ type: 'acdEnter', loginName: 'bob', pg: '3999' }, 'NOT_FOUND')
  })

  it('withdrawing for a reason the group does not have: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.refuses({ type: 'acdWithdraw', loginName: 'bob', reasonIndex: 9 }, 'BAD_PARAMETER')
  })

  it('exiting a group the agent is not in: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.refuses({ type: 'acdExit', loginName: 'bob', pg: OTHER_PG }, 'BAD_PARAMETER')
  })

  it('activating a skill the agent lacks: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.refuses({ type: 'acdSkills', loginName: 'bob', skills: [2], active: true }, 'BAD_PARAMETER')
    w.refuses(
      { type: 'acdSkills', loginName: 'bob', skills: [1, 2], active: false },
      'BAD_PARAMETER',
    )
  })
})

describe('skills', () => {
  it('deactivated and activated: OnAgentSkillChanged with the skills, and which calls the agent gets', () => {
    const w = new AcdWorld()
    w.logOn('carol', '1003')
    const off = w.run({ type: 'acdSkills', loginName: 'carol', skills: [2], active: false })
    expect(off.events).toEqual([
      {
        eventName: 'OnAgentSkillChanged',
        loginName: 'carol',
        skills: [
          { number: 1, level: 2, active: true },
          { number: 2, level: 3, active: false },
        ],
      },
    ])
    // The French call needs skill 2: carol, without it active, is not offered it.
    const callRef = w.incoming(FRENCH_PILOT, CALLER)
    expect(w.state.acd?.queues[FRENCH_QUEUE]).toEqual([callRef])
    expect(w.place('carol')).toBe('READY')
    const on = w.run({ type: 'acdSkills', loginName: 'carol', skills: [2], active: true })
    expect(namesOf(on.events, 'carol')).toEqual([
      'OnAgentSkillChanged',
      'OnCallCreated:DISTRIBUTED',
      'OnAgentStateChanged',
    ])
    expect(connections(w.state, callRef)).toContain('1003:RINGING_INCOMING')
    expect(w.state.acd?.queues[FRENCH_QUEUE]).toEqual([])
  })

  it('deactivating a skill already inactive tells nothing', () => {
    const w = new AcdWorld()
    w.run({ type: 'acdSkills', loginName: 'carol', skills: [2], active: false })
    const again = w.run({ type: 'acdSkills', loginName: 'carol', skills: [2], active: false })
    expect(again.events).toEqual([])
  })

  it('a call that needs no skill goes to an agent whatever skills it deactivated', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdSkills', loginName: 'bob', skills: [1], active: false })
    const callRef = w.incoming(PILOT, CALLER)
    expect(connections(w.state, callRef)).toContain('1002:RINGING_INCOMING')
  })
})

describe('the state snapshot', () => {
  it('tells the agent its state, unchanged', () => {
    const w = START.PAUSE()
    const before = w.state.acd
    const { events } = w.run({ type: 'acdAgentSnapshot', loginName: 'bob' })
    expect(events).toEqual([
      {
        eventName: 'OnAgentStateChanged',
        loginName: 'bob',
        state: {
          mainState: 'LOG_ON',
          subState: 'PAUSE',
          proAcdDeviceNumber: '1002',
          pgNumber: PG,
          withdraw: false,
          withdrawn: false,
        },
      },
    ])
    expect(w.state.acd).toEqual(before)
  })

  it('logged off too', () => {
    const { events } = new AcdWorld().run({ type: 'acdAgentSnapshot', loginName: 'bob' })
    expect(events).toEqual([
      {
        eventName: 'OnAgentStateChanged',
        loginName: 'bob',
        state: { mainState: 'LOG_OFF', withdraw: false, withdrawn: false },
      },
    ])
  })
})

describe('help requests', () => {
  it('an agent asks: the supervisors of its group are told, with its set; cancelled, they are told again', () => {
    const w = START.READY()
    const asked = w.run({ type: 'acdHelp', loginName: 'bob', cancel: false })
    expect(asked.events).toEqual([
      { eventName: 'OnSupervisorHelpRequested', loginName: 'dave', agentNumber: '1002' },
    ])
    const cancelled = w.run({ type: 'acdHelp', loginName: 'bob', cancel: true })
    expect(cancelled.events).toEqual([
      { eventName: 'OnSupervisorHelpCancelled', loginName: 'dave', agentNumber: '1002' },
    ])
    w.refuses({ type: 'acdHelp', loginName: 'bob', cancel: true }, 'NOT_EXPECTED')
  })

  it('a supervisor rejects the request by the agent number: the supervisors are told it is over', () => {
    const w = START.READY()
    w.run({ type: 'acdHelp', loginName: 'bob', cancel: false })
    const rejected = w.run({
      type: 'acdHelp',
      loginName: 'dave',
      cancel: false,
      agentNumber: '1002',
    })
    expect(rejected.events).toEqual([
      { eventName: 'OnSupervisorHelpCancelled', loginName: 'dave', agentNumber: '1002' },
    ])
    expect(w.state.acd?.agents.get('bob')?.helpRequested).toBeUndefined()
    // Nothing left to reject or cancel.
    w.refuses(
      { type: 'acdHelp', loginName: 'dave', cancel: false, agentNumber: '1002' },
      'NOT_FOUND',
    )
    w.refuses({ type: 'acdHelp', loginName: 'bob', cancel: true }, 'NOT_EXPECTED')
  })

  it('refused: an agent rejecting, an agent without help, an agent logged off', () => {
    const w = new AcdWorld()
    w.refuses({ type: 'acdHelp', loginName: 'bob', cancel: false }, 'NOT_EXPECTED')
    w.logOn('bob', '1002')
    w.logOn('carol', '1003')
    w.run({ type: 'acdHelp', loginName: 'bob', cancel: false })
    w.refuses(
      { type: 'acdHelp', loginName: 'carol', cancel: false, agentNumber: '1002' },
      'NOT_ALLOWED',
    )
    w.refuses({ type: 'acdHelp', loginName: 'dave', cancel: false }, 'NOT_ALLOWED')
  })
})
