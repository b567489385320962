// The contact center under load, measured in a process of its own (bench/benchmarks/acd.mjs), a child with IPC
// (bench/lib/ipc.mjs). The contact center: 500 agents (agent0…agent499 on sets 30000…30499), in 10 processing
// groups of 50 (agent i in group 6200 + i % 10, 1 s of wrap-up, 15 s before an offer rings out), 20 pilots
// (6000…6019) each with one rule to a queue of its own (61pp, 500 calls deep), pilot p's queue served by group
// 6200 + p % 10, no overflow, no calendar. With `skills`, pilots 6010…6019 need skill 1 at level 2, which 30 of
// each group's 50 agents have (level 3; the others level 1).
//
// `floor`: the engine alone in memory (`execute` called directly) on a VIRTUAL clock. Calls from distinct outside
// numbers reach the pilots in turn, 20 ms of virtual time apart (50 a second); the agent a call is offered to
// answers it in the next command, talks for 4 to 12 s of virtual time (uniform from a seeded generator, mean 8 s),
// releases; the groups' timers (wrap-up ends) run when the virtual clock reaches them, as TelephonyService runs
// them; the closed tickets are taken out of the outbox 20 at a time, as the ticket recorder does. Each command's
// REAL wall time is measured; those after which an agent's set rings with an ACD call (the call arriving, or a
// release or wrap-up end that frees an agent for a waiting call) are the queue-to-offer decisions.
//   ← { cmd: 'floor', id, calls, skills } → { offerP50, offerP99, offerMax, lost, peakQueue, ... }
//
// `round`: call cycles between two users, as hunting-worker.mjs's pair (make with autoAnswer, answer, release),
// on a state without a contact center and on one with the whole contact center provisioned and its 500 agents
// logged on and READY; on the latter also with agents as the two users (private calls: READY → BUSY → READY).
//   ← { cmd: 'setup', id } → {}
//   ← { cmd: 'round', id, variant, durationMs } → { cyclesPerSecond, cyclesPerCpuSecond, eventsPerSecond }
//   (cyclesPerCpuSecond: by the process's CPU time, which other processes of a shared machine do not take)
//   variant: `${'no-acd' | 'acd' | 'agents'}-${'engine' | 'service'}`
import { execute } from '../../packages/server/dist/platform/telephony/call-engine.js'
import { newCallRefKey } from '../../packages/server/dist/platform/telephony/call-refs.js'
import { DEFAULT_ENGINE_SETTINGS } from '../../packages/server/dist/platform/telephony/engine-operation.js'
import { TelephonyService } from '../../packages/server/dist/platform/telephony/telephony-service.js'
import {
  callCount,
  initialState,
} from '../../packages/server/dist/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../packages/server/dist/storage/memory/memory-call-store.js'
import { onCommands } from '../lib/ipc.mjs'
import { latencySummary } from '../lib/stats.mjs'

const AGENTS = 500
const GROUPS = 10
const PILOTS = 20
const PAIRS = 20
const QUEUE_SIZE = 500
const WRAP_UP_MS = 1_000
const NO_ANSWER_MS = 15_000
/** 50 calls a second. */
const ARRIVAL_GAP_MS = 20
const TALK_MIN_MS = 4_000
const TALK_SPREAD_MS = 8_000
/** The outbox is emptied once it holds this many tickets (and at the end). */
const OUTBOX_BATCH = 20
/** A Monday, 09:00 UTC: the virtual clock's start. */
const T0 = Date.UTC(2026, 0, 5, 9)

const pilotNumber = (p) => String(6000 + p)
const queueNumber = (p) => String(6100 + p)
const groupNumber = (g) => String(6200 + g)
const agentLogin = (i) => `agent${i}`
const agentDevice = (i) => String(30000 + i)

const people = new Map()
for (let i = 0; i < PAIRS; i++) {
  people.set(String(40000 + i), { loginName: `caller${i}`, firstName: 'Caller', lastName: `${i}` })
  people.set(String(20000 + i), { loginName: `callee${i}`, firstName: 'Callee', lastName: `${i}` })
}
for (let i = 0; i < AGENTS; i++)
  people.set(agentDevice(i), { loginName: agentLogin(i), firstName: 'Agent', lastName: `${i}` })
const agentLogins = new Set(Array.from({ length: AGENTS }, (_, i) => agentLogin(i)))
const login = (deviceId) => people.get(deviceId).loginName
/** A login name's device, as the directory's index finds it (DirectoryTelephony.resolve). */
const deviceByLogin = new Map([...people].map(([deviceId, person]) => [person.loginName, deviceId]))
const directory = {
  ownerOfDevice: (deviceId) => people.get(deviceId),
  resolve: (dialed) => {
    const person = people.get(dialed)
    if (person) return { number: dialed, deviceId: dialed, loginName: person.loginName }
    const deviceId = deviceByLogin.get(dialed)
    return deviceId === undefined ? undefined : { number: deviceId, deviceId, loginName: dialed }
  },
}
const context = { directory, settings: DEFAULT_ENGINE_SETTINGS }
const devices = () =>
  [...people].map(([deviceId, person]) => ({
    deviceId,
    loginName: person.loginName,
    state: 'IN_SERVICE',
    mutable: true,
    muted: false,
  }))

/** The skilled pilots' need, and who has it: 30 of each group's 50 agents. */
const SKILL_NEED = { number: 1, level: 2 }
const skilled = (i) => Math.floor(i / GROUPS) % 5 < 3

/** The contact center (docs/contact-center.md, "The model"). */
function contactCenter({ skills = false } = {}) {
  return {
    pilots: Array.from({ length: PILOTS }, (_, p) => ({
      number: pilotNumber(p),
      name: `Pilot ${p}`,
      rules: [
        {
          ruleNumber: 1,
          name: 'Day',
          queue: queueNumber(p),
          ...(skills && p >= PILOTS / 2 && { skills: [SKILL_NEED] }),
        },
      ],
      ruleNumber: 1,
      open: true,
      possibleTransfer: true,
      supervisedTransfer: false,
      calendar: { normal: {}, exceptions: {} },
    })),
    queues: Array.from({ length: PILOTS }, (_, p) => ({
      number: queueNumber(p),
      name: `Queue ${p}`,
      processingGroup: groupNumber(p % GROUPS),
      size: QUEUE_SIZE,
    })),
    processingGroups: Array.from({ length: GROUPS }, (_, g) => ({
      number: groupNumber(g),
      name: `Group ${g}`,
      noAnswerMs: NO_ANSWER_MS,
      wrapUpMs: WRAP_UP_MS,
      transactionCode: false,
      withdrawReasons: [],
    })),
    operators: Array.from({ length: AGENTS }, (_, i) => ({
      loginName: agentLogin(i),
      type: 'AGENT',
      processingGroups: [groupNumber(i % GROUPS)],
      skills: skills ? [{ number: 1, level: skilled(i) ? 3 : 1, active: true }] : [],
      selfAssign: false,
      headset: false,
      help: false,
      multiline: false,
    })),
    skills: skills ? [{ number: 1, name: 'Spanish', abvName: 'ES' }] : [],
  }
}

/** The commands that provision the contact center and log every agent on, READY in its group. */
function provisioning(options) {
  return [
    { type: 'provisionContactCenter', definition: contactCenter(options) },
    ...Array.from({ length: AGENTS }, (_, i) => ({
      type: 'acdLogOn',
      loginName: agentLogin(i),
      proAcdDeviceNumber: agentDevice(i),
    })),
  ]
}

/**
 * A full collection (the worker runs with --expose-gc), before each floor and round: the garbage a variant leaves
 * (the service's encoded states) is not collected in the next variant's time.
 */
function collect() {
  globalThis.gc?.()
}

/** A seeded generator (mulberry32): the same talk times at every run. */
function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A min-heap of { at, ... } by `at`, then by insertion order. */
class Agenda {
  items = []
  seq = 0
  get size() {
    return this.items.length
  }
  peek() {
    return this.items[0]
  }
  push(item) {
    item.seq = this.seq++
    const items = this.items
    items.push(item)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(items[i], items[parent])) break
      ;[items[i], items[parent]] = [items[parent], items[i]]
      i = parent
    }
  }
  pop() {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length > 0) {
      items[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < items.length && before(items[l], items[m])) m = l
        if (r < items.length && before(items[r], items[m])) m = r
        if (m === i) break
        ;[items[i], items[m]] = [items[m], items[i]]
        i = m
      }
    }
    return top
  }
}
const before = (a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq)

/** The earliest of the state's timers (the first scheduled among equals), or undefined. */
function dueTimer(state) {
  let due
  for (const timer of state.timers) if (due === undefined || timer.at < due.at) due = timer
  return due
}

/** The calls waiting in all queues. */
function waiting(acd) {
  let count = 0
  for (const number in acd.queues) count += acd.queues[number].length
  return count
}

/**
 * One floor: `calls` calls at 50 a second on a fresh contact center, run to the end (every call released,
 * every wrap-up over, the outbox empty).
 */
function floor({ calls, skills = false }) {
  collect()
  let state = initialState(devices(), newCallRefKey())
  let now = T0 - 10_000
  for (const command of provisioning({ skills })) {
    now += 1
    state = execute(state, command, now, context).state
  }
  const talk = random(35)
  const offerMs = []
  const offerCpuMs = []
  const allMs = []
  /** Offers by the command that made them: the call's arrival, or another (a release, a wrap-up end). */
  let offeredOnArrival = 0
  let offeredFromQueue = 0
  let peakQueue = 0
  let errors = 0
  let firstError
  let commands = 0
  let engineMs = 0
  const outcomes = {}
  /** The longest a call waited in its queue, in virtual ms (its ticket's queueWaitMs). */
  let queueWaitMax = 0
  /** The agents to answer in the next command: { loginName, callRef }. */
  const answers = []
  const releases = new Agenda()
  let answered = 0

  const run = (command, at) => {
    const cpuStarted = process.cpuUsage()
    const started = performance.now()
    let result
    try {
      result = execute(state, command, at, context)
    } catch (error) {
      errors += 1
      firstError ??= `${command.type}: ${error?.message ?? error}`
      return undefined
    }
    const ms = performance.now() - started
    const cpu = process.cpuUsage(cpuStarted)
    const cpuMs = (cpu.user + cpu.system) / 1000
    state = result.state
    commands += 1
    engineMs += ms
    allMs.push(ms)
    let offers = 0
    for (const event of result.events)
      if (
        event.eventName === 'OnCallCreated' &&
        event.cause === 'DISTRIBUTED' &&
        agentLogins.has(event.loginName)
      ) {
        answers.push({ loginName: event.loginName, callRef: event.callRef })
        offers += 1
      }
    if (offers > 0) {
      offerMs.push(ms)
      offerCpuMs.push(cpuMs)
      if (command.type === 'incomingCall') offeredOnArrival += offers
      else offeredFromQueue += offers
    }
    const queued = waiting(state.acd)
    if (queued > peakQueue) peakQueue = queued
    return result
  }
  const drain = (at) => {
    const outbox = state.acd.outbox
    if (outbox.length === 0) return
    for (const ticket of outbox) {
      outcomes[ticket.outcome] = (outcomes[ticket.outcome] ?? 0) + 1
      if (ticket.queueWaitMs > queueWaitMax) queueWaitMax = ticket.queueWaitMs
    }
    run({ type: 'acdTicketsStored', ticketIds: outbox.map((ticket) => ticket.ticketId) }, at)
  }

  const wallStarted = performance.now()
  let arrived = 0
  now = T0
  for (;;) {
    const offered = answers.shift()
    if (offered !== undefined) {
      if (run({ type: 'answer', ...offered }, now) !== undefined) {
        answered += 1
        releases.push({
          at: now + TALK_MIN_MS + Math.floor(talk() * TALK_SPREAD_MS),
          ...offered,
        })
      }
      continue
    }
    const arrival = arrived < calls ? T0 + arrived * ARRIVAL_GAP_MS : Number.POSITIVE_INFINITY
    const release = releases.peek()?.at ?? Number.POSITIVE_INFINITY
    const timer = dueTimer(state)
    const at = Math.min(arrival, release, timer?.at ?? Number.POSITIVE_INFINITY)
    if (at === Number.POSITIVE_INFINITY) break
    now = at
    // At the same instant: the engine's timers (wrap-up ends), then releases, then the arrival.
    if (timer !== undefined && timer.at === at) {
      state = { ...state, timers: state.timers.filter((other) => other !== timer) }
      run(timer.command, at)
    } else if (release === at) {
      const { loginName, callRef } = releases.pop()
      run({ type: 'release', loginName, callRef }, at)
    } else {
      const from = `0555${String(arrived).padStart(6, '0')}`
      run({ type: 'incomingCall', from, to: pilotNumber(arrived % PILOTS) }, at)
      arrived += 1
    }
    if (state.acd.outbox.length >= OUTBOX_BATCH) drain(at)
  }
  drain(now)
  const wallMs = performance.now() - wallStarted
  const served = outcomes.SERVED ?? 0
  const offer = latencySummary(offerMs)
  const all = latencySummary(allMs)
  const offerCpu = latencySummary(offerCpuMs)
  return {
    offerP50: offer.p50,
    offerP99: offer.p99,
    offerMax: offer.max,
    offers: offer.count,
    offerCpuP50: offerCpu.p50,
    offerCpuP99: offerCpu.p99,
    offerCpuMax: offerCpu.max,
    offeredOnArrival,
    offeredFromQueue,
    commandP99: all.p99,
    lost: calls - served,
    outcomes,
    answered,
    callsLeft: callCount(state),
    peakQueue,
    queueWaitMax,
    errors,
    ...(firstError !== undefined && { firstError }),
    commands,
    engineMs,
    wallMs,
    commandsPerSecond: commands / (engineMs / 1000),
    virtualSeconds: (now - T0) / 1000,
  }
}

// ---------------------------------------------------------------------------------------------------------
// Call cycles, as hunting-worker.mjs's pair.

let clock = 1_000_000
let events = 0
const variants = {}

/** The two users of cycle i: caller i calls callee i (20 pairs), or agent i calls agent 250 + i. */
function pairOf(i, agents) {
  const k = i % PAIRS
  return agents
    ? { caller: agentDevice(k), callee: agentDevice(AGENTS / 2 + k) }
    : { caller: String(40000 + k), callee: String(20000 + k) }
}

/** The member a call rings. */
function ringing(call) {
  return call.connections.find(
    (c) => c.state === 'RINGING_INCOMING' && c.endpoint.loginName !== undefined,
  ).endpoint
}

function engineVariant({ acd, agents }) {
  const holder = { state: initialState(devices(), newCallRefKey()) }
  const run = (command) => {
    clock += 10
    const result = execute(holder.state, command, clock, context)
    holder.state = result.state
    events += result.events.length
    return result
  }
  if (acd) for (const command of provisioning()) run(command)
  return {
    sync: true,
    calls: () => callCount(holder.state),
    state: () => holder.state,
    cycle(i) {
      const { caller, callee } = pairOf(i, agents)
      const { callRef } = run({
        type: 'makeCall',
        loginName: login(caller),
        deviceId: caller,
        callee,
        autoAnswer: true,
      })
      const member = ringing(holder.state.calls.get(callRef))
      run({ type: 'answer', loginName: member.loginName, callRef })
      run({ type: 'release', loginName: login(caller), callRef })
    },
  }
}

async function serviceVariant({ acd, agents }) {
  const serviceClock = {
    now: () => (clock += 10),
    setTimer: () => ({ cancel() {} }),
    sleep: async () => {},
  }
  const service = await TelephonyService.start({
    store: new MemoryCallStore(),
    directory,
    clock: serviceClock,
    events: { publish: () => events++ },
    devices: devices(),
  })
  if (acd) for (const command of provisioning()) await service.execute(command)
  return {
    calls: () => callCount(service.state),
    state: () => service.state,
    async cycle(i) {
      const { caller, callee } = pairOf(i, agents)
      const { callRef } = await service.execute({
        type: 'makeCall',
        loginName: login(caller),
        deviceId: caller,
        callee,
        autoAnswer: true,
      })
      const member = ringing(service.state.calls.get(callRef))
      await service.execute({ type: 'answer', loginName: member.loginName, callRef })
      await service.execute({ type: 'release', loginName: login(caller), callRef })
    },
    close: () => service.stop(),
  }
}

const SHAPES = {
  'no-acd': { acd: false, agents: false },
  acd: { acd: true, agents: false },
  agents: { acd: true, agents: true },
}

async function setup() {
  for (const [name, shape] of Object.entries(SHAPES)) {
    variants[`${name}-engine`] = engineVariant(shape)
    variants[`${name}-service`] = await serviceVariant(shape)
  }
  return {}
}

/** Whether every agent is logged on and READY, with no call. */
function agentsReady(state) {
  const agents = [...(state.acd?.agents.values() ?? [])]
  return agents.length === AGENTS && agents.every((agent) => agent.place === 'READY')
}

/** Cycles for `durationMs`, checked in batches of 100 (the clock is read between batches). */
async function round({ variant, durationMs }) {
  const measured = variants[variant]
  collect()
  const calls = measured.calls()
  let cycles = 0
  events = 0
  const cpuStarted = process.cpuUsage()
  const start = performance.now()
  let elapsed = 0
  while (elapsed < durationMs) {
    if (measured.sync) for (let i = 0; i < 100; i++, cycles++) measured.cycle(cycles)
    else for (let i = 0; i < 100; i++, cycles++) await measured.cycle(cycles)
    elapsed = performance.now() - start
  }
  if (measured.calls() !== calls) throw new Error(`${variant}: a cycle left a call behind`)
  const state = measured.state()
  if (state.acd !== undefined && !agentsReady(state))
    throw new Error(`${variant}: an agent is not READY after the cycles`)
  const cpu = process.cpuUsage(cpuStarted)
  return {
    cyclesPerSecond: cycles / (elapsed / 1000),
    cyclesPerCpuSecond: cycles / ((cpu.user + cpu.system) / 1e6),
    eventsPerSecond: events / (elapsed / 1000),
  }
}

onCommands({
  floor,
  setup,
  round,
  exit: async () => {
    for (const variant of Object.values(variants)) await variant.close?.()
  },
})
process.send({ type: 'ready' })
