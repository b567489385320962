/**
 * The contact center on the control plane (docs/contact-center-control.md): the floor as it runs (pilots with their
 * mode, rule and queue, queues with their waiting calls, agents with their states, processing groups), its
 * definition, an agent's actions on the operator's behalf (the engine's commands the agent's desktop runs: same
 * checks, same events), pilots opened and closed, traffic generators and simulated agents (a floor that runs
 * without people), and the tickets of the ticket store. Each change is a command of the call engine.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { enumeration } from '@openness/wire'
import { errorResponses } from '../../gateway/error-responses.js'
import type { AcdSimulation, TrafficGenerator } from '../../platform/acd/acd-simulation.js'
import type { AcdState } from '../../platform/acd/acd-state.js'
import { TICKET_OUTCOMES } from '../../platform/acd/acd-ticket.js'
import {
  type AcdTicketStore,
  MAX_TICKET_LIMIT,
  type TicketQuery,
} from '../../platform/acd/acd-ticket-store.js'
import { operatorStateOf } from '../../platform/acd/agent-state.js'
import type { DirectoryContactCenter } from '../../platform/directory/contact-center-file-schema.js'
import type { Directory } from '../../platform/directory/directory.js'
import { contactCenterOfFile } from '../../platform/directory/directory-import.js'
import { PlatformError } from '../../platform/platform-error.js'
import { pilotCondition } from '../../platform/telephony/operations/acd-distribution.js'
import { callerOf } from '../../platform/telephony/operations/acd-support.js'
import type { CallRecord, EngineCommand } from '../../platform/telephony/telephony-state.js'
import {
  ControlContactCenterDefinition,
  findDefinitionProblems,
  shownDefinition,
} from './contact-center-definition.js'
import {
  bodyOf,
  type ControlTelephony,
  DONE,
  isoTime,
  MAX_SECONDS,
  optionalStringField,
} from './route-support.js'

const tags = ['contact center']
const PATH = '/contactCenter'

const Seconds = (description: string) =>
  Type.Number({ minimum: 0, maximum: MAX_SECONDS, description })
const Instant = (description: string) => Type.String({ format: 'date-time', description })

const ControlPilot = Type.Object(
  {
    number: Type.String(),
    name: Type.String(),
    state: Type.String({ description: 'Opened, Closed or Blocked (acdmanagement)' }),
    status: Type.String({ description: 'OPEN, BLOCKED, BLOCKED_ON_RULE or GENERAL_FORWARDING' }),
    mode: Type.String({ description: 'the mode in force: normal, closed or forward' }),
    ruleNumber: Type.Integer({ description: 'the rule in force' }),
    rule: Type.Optional(Type.String({ description: "the rule's name" })),
    queue: Type.Optional(Type.String({ description: "the rule's queue" })),
    waiting: Type.Integer({ description: 'the calls waiting in that queue' }),
    monitoredBy: Type.Array(Type.String(), { description: 'the logins monitoring the pilot' }),
  },
  { title: 'ControlPilot' },
)
const WaitingCall = Type.Object(
  {
    callRef: Type.String(),
    pilot: Type.String(),
    caller: Type.String(),
    since: Instant('when it started waiting this time'),
  },
  { title: 'ControlWaitingCall' },
)
const ControlQueue = Type.Object(
  {
    number: Type.String(),
    name: Type.String(),
    processingGroup: Type.String(),
    size: Type.Integer({ description: 'the calls it holds at most' }),
    waiting: Type.Array(WaitingCall, { description: 'oldest first, as they are served' }),
    handlingSeconds: Type.Optional(
      Type.Number({ description: 'the moving mean of its served calls' }),
    ),
  },
  { title: 'ControlQueue' },
)
const SimulatedAgentSettings = Type.Object(
  {
    answerAfterSeconds: Seconds('how long its set rings before it answers an ACD call'),
    talkSeconds: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_SECONDS,
      description: 'how long after answering it hangs up',
    }),
    wrapUpSeconds: Type.Optional(
      Seconds("its wrap-up, when shorter than its group's (absent: the group's)"),
    ),
  },
  { additionalProperties: false, title: 'ControlSimulatedAgentSettings' },
)
const ControlAgent = Type.Object(
  {
    loginName: Type.String(),
    type: Type.String({ description: 'AGENT or SUPERVISOR' }),
    mainState: Type.String({ description: 'LOG_ON or LOG_OFF' }),
    subState: Type.Optional(
      Type.String({
        description:
          'READY, OUT_OF_PG, BUSY, TRANSACTION_CODE_INPUT, WRAPUP, PAUSE or WITHDRAW (logged on)',
      }),
    ),
    set: Type.Optional(Type.String({ description: 'the set it is logged on at' })),
    processingGroup: Type.Optional(Type.String()),
    withdrawReason: Type.Optional(Type.Integer()),
    call: Type.Optional(
      Type.String({ description: 'the ACD call offered to it or taken, until its wrap-up ends' }),
    ),
    readySince: Type.Optional(
      Instant('READY: since when (the one ready longest is offered first)'),
    ),
    simulated: Type.Optional(SimulatedAgentSettings),
  },
  { title: 'ControlAgent' },
)
const ControlProcessingGroup = Type.Object(
  {
    number: Type.String(),
    name: Type.String(),
    noAnswerSeconds: Type.Number(),
    wrapUpSeconds: Type.Number(),
    transactionCode: Type.Boolean(),
    withdrawReasons: Type.Array(Type.Object({ index: Type.Integer(), label: Type.String() })),
    agents: Type.Array(Type.String(), { description: 'the agents logged on in it' }),
  },
  { title: 'ControlProcessingGroup' },
)
const ControlContactCenter = Type.Object(
  {
    pilots: Type.Array(ControlPilot),
    queues: Type.Array(ControlQueue),
    processingGroups: Type.Array(ControlProcessingGroup),
    agents: Type.Array(ControlAgent, { description: 'every operator, by login name' }),
    ticketsPending: Type.Integer({
      description: 'tickets closed that the ticket store does not hold yet',
    }),
    droppedTickets: Type.Optional(Type.Integer()),
  },
  { title: 'ControlContactCenter' },
)
const LogOn = Type.Object(
  {
    set: Type.Optional(
      Type.String({ description: "one of the operator's sets (default: its main device)" }),
    ),
    processingGroup: Type.Optional(
      Type.String({ description: 'the group to serve (default: its preferred one)' }),
    ),
    headset: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'ControlAgentLogOn' },
)
const Withdraw = Type.Object(
  { reason: Type.Integer({ description: "the index of one of its group's withdraw reasons" }) },
  { additionalProperties: false, title: 'ControlAgentWithdraw' },
)
const TrafficSettings = Type.Object(
  {
    callsPerMinute: Type.Number({
      exclusiveMinimum: 0,
      maximum: 600,
      description: 'the mean rate (exponential times between arrivals)',
    }),
    patienceSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_SECONDS,
        description: 'a caller nobody answered hangs up after this long (absent: never)',
      }),
    ),
    talkSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_SECONDS,
        description: 'a caller hangs up this long after an agent answers (absent: the agent ends)',
      }),
    ),
    from: Type.Optional(
      Type.String({
        description:
          "the callers' numbers' prefix, 1 to 12 digits (0590): 0590000001, 0590000002...",
      }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 4_294_967_295,
        description: 'starts the arrivals anew from this seed (the same seed, the same arrivals)',
      }),
    ),
  },
  { additionalProperties: false, title: 'ControlTrafficSettings' },
)
const ControlTraffic = Type.Object(
  {
    pilot: Type.String(),
    callsPerMinute: Type.Number(),
    patienceSeconds: Type.Optional(Type.Number()),
    talkSeconds: Type.Optional(Type.Number()),
    from: Type.String(),
    seed: Type.Integer({ description: 'the seed the arrivals are drawn from' }),
    startedAt: Instant('when it started'),
    nextArrivalAt: Instant('when the next caller arrives'),
    calls: Type.Integer({ description: 'the callers placed so far' }),
    skipped: Type.Integer({
      description: 'arrivals skipped: 500 generated calls were in progress',
    }),
    inProgress: Type.Integer({ description: 'its calls in progress' }),
  },
  { title: 'ControlTraffic' },
)
const ControlTrafficList = Type.Object(
  { generators: Type.Array(ControlTraffic, { description: 'by pilot' }) },
  { title: 'ControlTrafficList' },
)
const ControlSimulatedAgent = Type.Object(
  { loginName: Type.String(), ...SimulatedAgentSettings.properties },
  { title: 'ControlSimulatedAgent' },
)
const ControlSimulatedAgents = Type.Object(
  { agents: Type.Array(ControlSimulatedAgent, { description: 'by login name' }) },
  { title: 'ControlSimulatedAgents' },
)
const TicketsQuery = Type.Object({
  from: Type.Optional(Instant('the earliest closedAt (included; default: any)')),
  to: Type.Optional(Instant('the closedAt the tickets are before (default: any)')),
  pilot: Type.Optional(Type.String({ description: 'only its tickets (repeat for several)' })),
  agent: Type.Optional(Type.String({ description: 'only the tickets it served (repeat)' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_TICKET_LIMIT, description: 'at most (1000)' }),
  ),
  after: Type.Optional(Type.String({ description: 'the ticketId of the last ticket of a page' })),
})
const ControlTicket = Type.Object(
  {
    ticketId: Type.String(),
    pilot: Type.String(),
    queue: Type.Optional(Type.String()),
    processingGroup: Type.Optional(Type.String()),
    caller: Type.String(),
    callRef: Type.String(),
    arrivedAt: Type.Number({ description: 'ms since the epoch, as every time of a ticket' }),
    queuedAt: Type.Optional(Type.Number()),
    answeredAt: Type.Optional(Type.Number()),
    endedAt: Type.Number(),
    closedAt: Type.Number(),
    agent: Type.Optional(Type.String()),
    offers: Type.Integer(),
    refusals: Type.Integer(),
    waitMs: Type.Number(),
    queueWaitMs: Type.Number(),
    handlingMs: Type.Number(),
    wrapUpMs: Type.Number(),
    outcome: enumeration(TICKET_OUTCOMES),
    overflowTo: Type.Optional(Type.String()),
    transactionCode: Type.Optional(Type.String()),
  },
  { title: 'ControlTicket' },
)
const ControlTickets = Type.Object(
  { tickets: Type.Array(ControlTicket, { description: 'by closedAt, then ticketId' }) },
  { title: 'ControlTickets' },
)
const AgentParams = Type.Object({ loginName: Type.String() })
const PilotParams = Type.Object({ number: Type.String() })
const TrafficParams = Type.Object({ pilot: Type.String() })

/** The contact center's floor as the control plane shows it. */
function floorOf(acd: AcdState, simulation: AcdSimulation | undefined, calls: CallRecord[]) {
  const byRef = new Map(calls.map((call) => [call.callRef, call]))
  const { definition } = acd
  const pilots = Object.values(definition.pilots).map((pilot) => {
    const runtime = acd.pilots[pilot.number] ?? {
      ruleNumber: pilot.ruleNumber,
      mode: 'normal' as const,
      calendar: pilot.calendar,
      monitoredBy: [],
    }
    const condition = pilotCondition(acd, pilot, runtime)
    const rule = pilot.rules.find((each) => each.ruleNumber === runtime.ruleNumber)
    const queue = condition.queue ?? rule?.queue
    return {
      number: pilot.number,
      name: pilot.name,
      state: condition.state,
      status: condition.status,
      mode: runtime.mode,
      ruleNumber: runtime.ruleNumber,
      ...(rule !== undefined && { rule: rule.name }),
      ...(queue !== undefined && { queue }),
      waiting: queue === undefined ? 0 : (acd.queues[queue]?.length ?? 0),
      monitoredBy: [...runtime.monitoredBy],
    }
  })
  const queues = Object.values(definition.queues).map((queue) => {
    const handling = acd.handlingMs[queue.number]
    return {
      number: queue.number,
      name: queue.name,
      processingGroup: queue.processingGroup,
      size: queue.size,
      waiting: (acd.queues[queue.number] ?? []).flatMap((callRef) => {
        const call = byRef.get(callRef)
        if (call?.acd === undefined) return []
        return [
          {
            callRef,
            pilot: call.acd.pilot,
            caller: callerOf(call)?.number ?? '',
            since: isoTime(call.acd.queuedAt ?? call.acd.arrivedAt),
          },
        ]
      }),
      ...(handling !== undefined && { handlingSeconds: handling / 1000 }),
    }
  })
  const agents = Object.values(definition.operators)
    .sort((a, b) => (a.loginName < b.loginName ? -1 : 1))
    .map((operator) => {
      const agent = acd.agents.get(operator.loginName)
      const state =
        agent === undefined ? ({ mainState: 'LOG_OFF' } as const) : operatorStateOf(agent)
      const simulated = simulation?.agents[operator.loginName]
      return {
        loginName: operator.loginName,
        type: operator.type,
        mainState: state.mainState,
        ...('subState' in state && state.subState !== undefined && { subState: state.subState }),
        ...(agent?.proAcdDeviceNumber !== undefined && { set: agent.proAcdDeviceNumber }),
        ...(agent?.pg !== undefined && { processingGroup: agent.pg }),
        ...(agent?.place === 'WITHDRAW' &&
          agent.withdrawReason !== undefined && { withdrawReason: agent.withdrawReason }),
        ...(agent?.acdCall !== undefined && { call: agent.acdCall }),
        ...(agent?.place === 'READY' &&
          agent.readySince !== undefined && { readySince: isoTime(agent.readySince) }),
        ...(simulated !== undefined && { simulated: simulatedSettings(simulated) }),
      }
    })
  const processingGroups = Object.values(definition.processingGroups).map((group) => ({
    number: group.number,
    name: group.name,
    noAnswerSeconds: group.noAnswerMs / 1000,
    wrapUpSeconds: group.wrapUpMs / 1000,
    transactionCode: group.transactionCode,
    withdrawReasons: group.withdrawReasons.map((reason) => ({ ...reason })),
    agents: [...acd.agents.values()]
      .filter((agent) => agent.place !== 'LOG_OFF' && agent.pg === group.number)
      .map((agent) => agent.loginName)
      .sort(),
  }))
  return {
    pilots,
    queues,
    processingGroups,
    agents,
    ticketsPending: acd.outbox.length,
    ...(acd.droppedTickets !== undefined && { droppedTickets: acd.droppedTickets }),
  }
}

/** A simulated agent's settings in seconds. */
function simulatedSettings(agent: AcdSimulation['agents'][string]) {
  return {
    answerAfterSeconds: agent.answerAfterMs / 1000,
    talkSeconds: agent.talkMs / 1000,
    ...(agent.wrapUpMs !== undefined && { wrapUpSeconds: agent.wrapUpMs / 1000 }),
  }
}

/** A traffic generator as the control plane shows it. */
function trafficOf(generator: TrafficGenerator, simulation: AcdSimulation) {
  return {
    pilot: generator.pilot,
    callsPerMinute: generator.callsPerMinute,
    ...(generator.patienceMs !== undefined && { patienceSeconds: generator.patienceMs / 1000 }),
    ...(generator.talkMs !== undefined && { talkSeconds: generator.talkMs / 1000 }),
    from: generator.from,
    seed: generator.seed,
    startedAt: isoTime(generator.startedAt),
    nextArrivalAt: isoTime(generator.nextArrivalAt),
    calls: generator.calls,
    skipped: generator.skipped,
    inProgress: Object.values(simulation.calls).filter((call) => call.pilot === generator.pilot)
      .length,
  }
}

/**
 * A number of seconds of a body, in ms: a number from `min` (excluded when `exclusive`) to a day; BAD_PARAMETER
 * naming the field otherwise, undefined when absent and optional.
 */
function msField(
  fields: Record<string, unknown>,
  name: string,
  options: { required: boolean; exclusive: boolean },
): number | undefined {
  const value = fields[name]
  if (value === undefined && !options.required) return undefined
  const low = options.exclusive ? 'more than 0' : '0 or more'
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (options.exclusive && value === 0) ||
    value > MAX_SECONDS
  )
    throw new PlatformError(
      'BAD_PARAMETER',
      `${name}: ${value === undefined ? 'required, ' : ''}a number of seconds, ${low} and at most ${MAX_SECONDS} (a day)`,
    )
  return Math.round(value * 1000)
}

/** The text of a query parameter given once or more, as a list. */
function listParameter(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value]).map(String)
}

/** A query parameter's instant (ISO 8601), in ms; BAD_PARAMETER otherwise. */
function instantParameter(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  const ms = typeof value === 'string' && /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : NaN
  if (Number.isNaN(ms))
    throw new PlatformError(
      'BAD_PARAMETER',
      `${name}: '${String(value)}' is not an ISO 8601 time such as 2026-01-31T09:00:00Z`,
    )
  return ms
}

/** The ticket store's query of GET /contactCenter/tickets' parameters. */
function ticketQueryOf(query: Record<string, unknown>): TicketQuery {
  const known = ['from', 'to', 'pilot', 'agent', 'limit', 'after']
  const unknown = Object.keys(query).filter((key) => !known.includes(key))
  if (unknown.length > 0)
    throw new PlatformError(
      'BAD_PARAMETER',
      `${unknown.join(', ')}: not a parameter of the tickets (${known.join(', ')})`,
    )
  const limitText = query['limit']
  const limit = limitText === undefined ? undefined : Number(limitText)
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0 && limit <= MAX_TICKET_LIMIT))
    throw new PlatformError(
      'BAD_PARAMETER',
      `limit: '${String(limitText)}' is not a whole number from 0 to ${MAX_TICKET_LIMIT}`,
    )
  const pilots = listParameter(query['pilot'])
  const agents = listParameter(query['agent'])
  const after = query['after']
  return {
    from: instantParameter(query['from'], 'from', 0),
    to: instantParameter(query['to'], 'to', Number.MAX_SAFE_INTEGER),
    ...(pilots !== undefined && { pilots }),
    ...(agents !== undefined && { agents }),
    ...(limit !== undefined && { limit }),
    ...(after !== undefined && { after: String(after) }),
  }
}

/** `/contactCenter...`, over the running call engine (and the ticket store, when there is one). */
export const contactCenterRoutes: FastifyPluginAsyncTypebox<{
  telephony: ControlTelephony
  directory: Directory
  acdTickets?: AcdTicketStore
}> = async (app, { telephony, directory, acdTickets }) => {
  const run = (command: EngineCommand) => telephony.execute(command)

  /** The contact center: NOT_FOUND when the platform has none. */
  const contactCenter = (): AcdState => {
    const acd = telephony.queries.acdState()
    if (acd === undefined)
      throw new PlatformError(
        'NOT_FOUND',
        'This platform has no contact center: PUT /contactCenter/definition gives it one',
      )
    return acd
  }

  /** The operator: NOT_FOUND when the contact center has none of that login name. */
  const operator = (loginName: string) => {
    const found = contactCenter().definition.operators[loginName]
    if (found === undefined)
      throw new PlatformError('NOT_FOUND', `No operator '${loginName}' in the contact center`)
    return found
  }

  const floor = () =>
    floorOf(contactCenter(), telephony.queries.acdSimulation(), telephony.queries.liveCalls())

  app.get(
    PATH,
    {
      schema: {
        summary:
          'The contact center as it runs: pilots, queues with their waiting calls, processing groups, agents',
        tags,
        response: { 200: ControlContactCenter, ...errorResponses(401, 404) },
      },
    },
    async () => floor(),
  )

  app.get(
    `${PATH}/definition`,
    {
      schema: {
        summary: "The contact center's definition, in the directory file's contactCenter format",
        tags,
        response: { 200: ControlContactCenterDefinition, ...errorResponses(401, 404) },
      },
    },
    async () => shownDefinition(contactCenter().definition),
  )

  app.put(
    `${PATH}/definition`,
    {
      schema: {
        summary: 'Replace the contact center: pilots, queues, processing groups, operators, skills',
        description:
          "The body is the directory file's contactCenter section (times in seconds, what is left out takes " +
          'its default), checked as a whole: every problem is named. Operators who stay keep their state ' +
          'while their group stays, waiting calls of queues that stay keep waiting; an empty definition ' +
          'removes the contact center. The directory file provides it again after a reset.',
        tags,
        body: ControlContactCenterDefinition,
        response: { 200: ControlContactCenterDefinition, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const body = request.body ?? {}
      const problems = findDefinitionProblems(
        body,
        directory,
        telephony.queries.allHuntingGroups().map((group) => group.number),
      )
      if (problems.length > 0)
        throw new PlatformError(
          'BAD_PARAMETER',
          `The definition has ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.join('; ')}`,
        )
      // The directory file's provision is kept: its contact center comes back when the file changes, or at a reset.
      const provision = telephony.queries.acdState()?.provision
      await run({
        type: 'provisionContactCenter',
        definition: contactCenterOfFile(body as DirectoryContactCenter),
        ...(provision !== undefined && { digest: provision }),
      })
      const acd = telephony.queries.acdState()
      return acd === undefined ? {} : shownDefinition(acd.definition)
    },
  )

  // The agent's actions, on the operator's behalf.
  const agentAction = (
    action: string,
    summary: string,
    command: (loginName: string, body: unknown) => EngineCommand,
    body?: typeof LogOn | typeof Withdraw,
  ) =>
    app.post(
      `${PATH}/agents/:loginName/${action}`,
      {
        schema: {
          summary,
          description:
            "As the agent's desktop (/acd/agent): the same engine command, checks and events; where the agent's " +
            'state does not allow it, 403 NOT_EXPECTED with the reason.',
          tags,
          params: AgentParams,
          ...(body !== undefined && { body }),
          response: DONE,
        },
      },
      async (request, reply) => {
        const { loginName } = request.params
        operator(loginName)
        await run(command(loginName, request.body))
        return reply.code(204).send(null)
      },
    )

  agentAction(
    'logon',
    'Log the operator on at one of its sets (default its main device), in a group (default its preferred one)',
    (loginName, body) => {
      const fields = bodyOf(body, ['set', 'processingGroup', 'headset'])
      const set = optionalStringField(fields, 'set') ?? mainDevice(directory, loginName)
      if (set === undefined)
        throw new PlatformError('BAD_PARAMETER', `set: required, '${loginName}' has no device`)
      const pg = optionalStringField(fields, 'processingGroup')
      const headset = fields['headset']
      if (headset !== undefined && typeof headset !== 'boolean')
        throw new PlatformError('BAD_PARAMETER', 'headset: true or false')
      return {
        type: 'acdLogOn',
        loginName,
        proAcdDeviceNumber: set,
        ...(pg !== undefined && { pg }),
        ...(headset !== undefined && { headset }),
      }
    },
    LogOn,
  )
  agentAction('ready', 'The agent is ready: ACD calls are offered to it', (loginName) => ({
    type: 'acdReady',
    loginName,
  }))
  agentAction('pause', 'The agent pauses: no ACD call is offered to it', (loginName) => ({
    type: 'acdPause',
    loginName,
  }))
  agentAction(
    'withdraw',
    "The agent withdraws, for one of its group's reasons",
    (loginName, body) => {
      const fields = bodyOf(body, ['reason'])
      const reason = fields['reason']
      if (typeof reason !== 'number' || !Number.isInteger(reason))
        throw new PlatformError(
          'BAD_PARAMETER',
          "reason: required, the index of one of the group's withdraw reasons",
        )
      return { type: 'acdWithdraw', loginName, reasonIndex: reason }
    },
    Withdraw,
  )
  agentAction(
    'logoff',
    'Log the operator off (logged off already: nothing changes)',
    (loginName) => ({
      type: 'acdLogOff',
      loginName,
    }),
  )

  for (const [action, open] of [
    ['open', true],
    ['close', false],
  ] as const)
    app.post(
      `${PATH}/pilots/:number/${action}`,
      {
        schema: {
          summary: open
            ? "Open the pilot (its rule in force), until its calendar's next transition"
            : "Close the pilot: its callers are dissuaded, until its calendar's next transition",
          tags,
          params: PilotParams,
          response: DONE,
        },
      },
      async (request, reply) => {
        contactCenter()
        await run({ type: 'acdPilotMode', pilot: request.params.number, open })
        return reply.code(204).send(null)
      },
    )

  // Traffic generators.
  const simulation = () => telephony.queries.acdSimulation()
  const generatorOf = (pilot: string) => {
    const found = simulation()?.generators[pilot]
    if (found === undefined)
      throw new PlatformError('NOT_FOUND', `No traffic generator on pilot '${pilot}'`)
    return trafficOf(found, simulation() as AcdSimulation)
  }

  app.get(
    `${PATH}/traffic`,
    {
      schema: {
        summary: 'The traffic generators: simulated callers dialing pilots at a rate',
        tags,
        response: { 200: ControlTrafficList, ...errorResponses(401) },
      },
    },
    async () => {
      const current = simulation()
      if (current === undefined) return { generators: [] }
      return {
        generators: Object.keys(current.generators)
          .sort()
          .map((pilot) => trafficOf(current.generators[pilot] as TrafficGenerator, current)),
      }
    },
  )

  app.get(
    `${PATH}/traffic/:pilot`,
    {
      schema: {
        summary: "The pilot's traffic generator",
        tags,
        params: TrafficParams,
        response: { 200: ControlTraffic, ...errorResponses(401, 404) },
      },
    },
    async (request) => generatorOf(request.params.pilot),
  )

  app.put(
    `${PATH}/traffic/:pilot`,
    {
      schema: {
        summary: 'Start a traffic generator on the pilot, or change it',
        description:
          'Outside callers (numbered from the prefix) dial the pilot at random times, a mean of ' +
          'callsPerMinute, on the platform clock: the same seed gives the same arrivals. A caller hangs up ' +
          'after patienceSeconds unanswered, and talkSeconds after an agent answers. A change draws the next ' +
          'arrival anew from now; its counters are kept. At most 20 generators; beyond 500 generated calls ' +
          'in progress, arrivals are skipped and counted.',
        tags,
        params: TrafficParams,
        body: TrafficSettings,
        response: { 200: ControlTraffic, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { pilot } = request.params
      const fields = bodyOf(request.body, [
        'callsPerMinute',
        'patienceSeconds',
        'talkSeconds',
        'from',
        'seed',
      ])
      const rate = fields['callsPerMinute']
      if (typeof rate !== 'number' || !(rate > 0 && rate <= 600))
        throw new PlatformError(
          'BAD_PARAMETER',
          'callsPerMinute: required, a number of calls a minute, more than 0 and at most 600',
        )
      const patienceMs = msField(fields, 'patienceSeconds', { required: false, exclusive: true })
      const talkMs = msField(fields, 'talkSeconds', { required: false, exclusive: true })
      const from = fields['from']
      if (from !== undefined && typeof from !== 'string')
        throw new PlatformError('BAD_PARAMETER', 'from: a number prefix, as a string: "0590"')
      const seed = fields['seed']
      if (seed !== undefined && typeof seed !== 'number')
        throw new PlatformError('BAD_PARAMETER', 'seed: a whole number from 0 to 4294967295')
      contactCenter()
      await run({
        type: 'acdTrafficSet',
        pilot,
        callsPerMinute: rate,
        ...(patienceMs !== undefined && { patienceMs }),
        ...(talkMs !== undefined && { talkMs }),
        ...(from !== undefined && { from }),
        ...(seed !== undefined && { seed }),
      })
      return generatorOf(pilot)
    },
  )

  app.delete(
    `${PATH}/traffic/:pilot`,
    {
      schema: {
        summary: 'Stop the traffic generator: no caller arrives any more (those in progress go on)',
        tags,
        params: TrafficParams,
        response: DONE,
      },
    },
    async (request, reply) => {
      await run({ type: 'acdTrafficStop', pilot: request.params.pilot })
      return reply.code(204).send(null)
    },
  )

  // Simulated agents.
  app.get(
    `${PATH}/simulatedAgents`,
    {
      schema: {
        summary: 'The simulated agents: operators who answer, talk and wrap up by themselves',
        tags,
        response: { 200: ControlSimulatedAgents, ...errorResponses(401) },
      },
    },
    async () => {
      const agents = simulation()?.agents ?? {}
      return {
        agents: Object.keys(agents)
          .sort()
          .map((loginName) => ({
            loginName,
            ...simulatedSettings(agents[loginName] as AcdSimulation['agents'][string]),
          })),
      }
    },
  )

  app.put(
    `${PATH}/simulatedAgents/:loginName`,
    {
      schema: {
        summary: 'Make the operator a simulated agent, or change how it works',
        description:
          "An ACD call offered to its set is answered after answerAfterSeconds (less than its groups' " +
          'no-answer time) and released talkSeconds later; it gives the transaction code its group asks for ' +
          "at once; its wrap-up ends by its group's timer, or after wrapUpSeconds when shorter. It does not " +
          'log itself on: log it on (POST /contactCenter/agents/{loginName}/logon).',
        tags,
        params: AgentParams,
        body: SimulatedAgentSettings,
        response: { 200: ControlSimulatedAgent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { loginName } = request.params
      const fields = bodyOf(request.body, ['answerAfterSeconds', 'talkSeconds', 'wrapUpSeconds'])
      const answerAfterMs = msField(fields, 'answerAfterSeconds', {
        required: true,
        exclusive: false,
      }) as number
      const talkMs = msField(fields, 'talkSeconds', { required: true, exclusive: true }) as number
      const wrapUpMs = msField(fields, 'wrapUpSeconds', { required: false, exclusive: false })
      operator(loginName)
      await run({
        type: 'acdSimulatedAgentSet',
        loginName,
        answerAfterMs,
        talkMs,
        ...(wrapUpMs !== undefined && { wrapUpMs }),
      }).catch((error: unknown) => {
        throw secondsNamed(error)
      })
      const agent = simulation()?.agents[loginName] as AcdSimulation['agents'][string]
      return { loginName, ...simulatedSettings(agent) }
    },
  )

  app.delete(
    `${PATH}/simulatedAgents/:loginName`,
    {
      schema: {
        summary:
          'The operator is a person again: it stays where it is (in its call, its wrap-up...)',
        tags,
        params: AgentParams,
        response: DONE,
      },
    },
    async (request, reply) => {
      await run({ type: 'acdSimulatedAgentRemove', loginName: request.params.loginName })
      return reply.code(204).send(null)
    },
  )

  if (acdTickets !== undefined)
    app.get(
      `${PATH}/tickets`,
      {
        schema: {
          summary: "The ACD calls' tickets in the ticket store, by closedAt",
          description:
            'Those closed in [from, to), of the pilots and agents named, after the `after` cursor, at most ' +
            '`limit` (1000; 10000 at most). A ticket reaches the store shortly after it closes ' +
            '(GET /contactCenter counts those not there yet: ticketsPending). Times in ms since the epoch, ' +
            'durations in ms, as the store keeps them.',
          tags,
          querystring: TicketsQuery,
          response: { 200: ControlTickets, ...errorResponses(400, 401) },
        },
      },
      async (request) => ({
        tickets: await acdTickets.list(ticketQueryOf(request.query as Record<string, unknown>)),
      }),
    )
}

/**
 * The engine's refusal of a simulated agent's duration (`answerAfterMs: 15000 is not less than the 15000 ms...`) in
 * the route's words: the field and its values in seconds.
 */
function secondsNamed(error: unknown): unknown {
  if (!(error instanceof PlatformError)) return error
  const match = /^(answerAfter|talk|wrapUp)Ms: (.*)$/.exec(error.message)
  if (match === null) return error
  const [, field, rest = ''] = match
  const seconds = (ms: string) => String(Number(ms) / 1000)
  const inSeconds = rest
    .replace(/^(\d+) is/, (_, ms: string) => `${seconds(ms)} is`)
    .replace(/(\d+) ms\b/g, (_, ms: string) => `${seconds(ms)} s`)
  return new PlatformError(error.type, `${field}Seconds: ${inSeconds}`, error.innerMessage)
}

/** The operator's main device in the directory, else its first one. */
function mainDevice(directory: Directory, loginName: string): string | undefined {
  const devices = directory.findUser(loginName)?.record.devices ?? []
  return (
    devices.find((device) => device.role === 'MAIN' && device.id) ??
    devices.find((device) => device.id)
  )?.id
}
