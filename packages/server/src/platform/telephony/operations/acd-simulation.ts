/**
 * The simulated floor of the contact center (docs/contact-center-control.md, "Traffic and simulated agents"):
 * traffic generators and simulated agents, on the platform's clock, in the engine's state (platform/acd/
 * acd-simulation.ts).
 *
 * A generator is a chain of timers: each arrival draws the time to the next one from the generator's own
 * pseudo-random sequence (exponential, with the rate's mean) and schedules it, then a call timer at the same
 * instant places the caller (an outside number from a counter) on the pilot with `incomingCall`, so that a call
 * the engine refuses never breaks the chain. A caller hangs up after its patience unless someone answered, and
 * `talkMs` after an agent answers.
 *
 * A simulated agent answers an ACD call offered to its set after `answerAfterMs` and hangs up `talkMs` later; after
 * the call it gives a transaction code at once when its group asks for one, and its wrap-up ends by the group's
 * timer, or after its own `wrapUpMs` when that is shorter. Each is a timer naming its call, cancelled when the
 * call ends. `followAcdSimulation` (after every command) is what notices offers, answers and ends.
 */
import {
  type AcdSimulation,
  CALLER_PREFIX,
  callerNumber,
  DEFAULT_CALLER_PREFIX,
  drawRandom,
  emptySimulation,
  type GeneratedCall,
  interArrivalMs,
  isEmptySimulation,
  MAX_CALLS_PER_MINUTE,
  MAX_GENERATED_CALLS,
  MAX_SIMULATED_MS,
  MAX_TRAFFIC_GENERATORS,
  SIMULATED_TRANSACTION_CODE,
  type SimulatedAgent,
  seedOf,
  type TrafficGenerator,
} from '../../acd/acd-simulation.js'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import type { CallRecord, EngineCommand } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { acdAgentOperations } from './acd-agents.js'
import { requireAcd, requirePilot } from './acd-support.js'
import { basicOperations } from './basic.js'
import { simulationOperations } from './simulation.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The simulation of the transaction's state (an empty one when there is none). */
function simulationOf(transaction: Transaction): AcdSimulation {
  return transaction.state.acdSimulation ?? emptySimulation()
}

/** Replaces the simulation (a new record: the command's base state keeps its own); an empty one is dropped. */
function putSimulation(transaction: Transaction, simulation: AcdSimulation): void {
  if (isEmptySimulation(simulation)) delete transaction.state.acdSimulation
  else transaction.state.acdSimulation = simulation
}

/** Replaces one generator, or removes it (undefined). */
function putGenerator(
  transaction: Transaction,
  pilot: string,
  generator: TrafficGenerator | undefined,
): void {
  const simulation = simulationOf(transaction)
  const generators = { ...simulation.generators }
  if (generator === undefined) delete generators[pilot]
  else generators[pilot] = generator
  putSimulation(transaction, { ...simulation, generators })
}

/** A duration in ms, a whole number from `min` to a day: BAD_PARAMETER naming `field` otherwise. */
function requireMs(field: string, value: number, min: 0 | 1): number {
  if (!Number.isInteger(value) || value < min || value > MAX_SIMULATED_MS)
    throw new PlatformError(
      'BAD_PARAMETER',
      `${field}: ${String(value)} is not a whole number of ms from ${min} to ${MAX_SIMULATED_MS} (a day)`,
    )
  return value
}

// ---------------------------------------------------------------------------------------------------------
// Traffic generators

/** Draws the time to the generator's next arrival and schedules it: the generator with its sequence moved on. */
function armArrival(transaction: Transaction, generator: TrafficGenerator): TrafficGenerator {
  transaction.cancelTimers(
    (command) => command.type === 'acdTrafficArrival' && command.pilot === generator.pilot,
  )
  const { value, state } = drawRandom(generator.random)
  const delay = interArrivalMs(generator.callsPerMinute, value)
  transaction.schedule(delay, { type: 'acdTrafficArrival', pilot: generator.pilot })
  return { ...generator, random: state, nextArrivalAt: transaction.now + delay }
}

/**
 * Starts a generator on the pilot, or changes the one there: the next arrival is drawn anew from now with the
 * new rate, the sequence going on (or starting again from `seed` when one is given); the counters are kept.
 */
const acdTrafficSet: Operation<Command<'acdTrafficSet'>> = (transaction, command) => {
  requireAcd(transaction)
  requirePilot(transaction, command.pilot)
  const rate = command.callsPerMinute
  if (typeof rate !== 'number' || !(rate > 0 && rate <= MAX_CALLS_PER_MINUTE))
    throw new PlatformError(
      'BAD_PARAMETER',
      `callsPerMinute: ${String(rate)} is not a rate more than 0 and at most ${MAX_CALLS_PER_MINUTE}`,
    )
  if (command.patienceMs !== undefined) requireMs('patienceMs', command.patienceMs, 1)
  if (command.talkMs !== undefined) requireMs('talkMs', command.talkMs, 1)
  const from = command.from ?? DEFAULT_CALLER_PREFIX
  if (!CALLER_PREFIX.test(from))
    throw new PlatformError(
      'BAD_PARAMETER',
      `from: '${from}' is not a number prefix (1 to 12 digits, optionally after +)`,
    )
  if (
    command.seed !== undefined &&
    !(Number.isInteger(command.seed) && command.seed >= 0 && command.seed <= 0xffffffff)
  )
    throw new PlatformError(
      'BAD_PARAMETER',
      `seed: ${String(command.seed)} is not a whole number from 0 to 4294967295`,
    )
  const simulation = simulationOf(transaction)
  const existing = simulation.generators[command.pilot]
  if (existing === undefined && Object.keys(simulation.generators).length >= MAX_TRAFFIC_GENERATORS)
    throw new PlatformError(
      'BAD_PARAMETER',
      `pilot: ${MAX_TRAFFIC_GENERATORS} traffic generators run already, the most there may be: stop one first`,
    )
  const seed = command.seed ?? existing?.seed ?? seedOf(`${command.pilot}@${transaction.now}`)
  const generator: TrafficGenerator = {
    pilot: command.pilot,
    callsPerMinute: rate,
    ...(command.patienceMs !== undefined && { patienceMs: command.patienceMs }),
    ...(command.talkMs !== undefined && { talkMs: command.talkMs }),
    from,
    seed,
    random: command.seed !== undefined || existing === undefined ? seed : existing.random,
    startedAt: existing?.startedAt ?? transaction.now,
    nextArrivalAt: transaction.now,
    calls: existing?.calls ?? 0,
    skipped: existing?.skipped ?? 0,
  }
  putGenerator(transaction, command.pilot, armArrival(transaction, generator))
  return undefined
}

/** Stops the pilot's generator: no caller arrives any more; the callers in progress go on as they were told. */
const acdTrafficStop: Operation<Command<'acdTrafficStop'>> = (transaction, command) => {
  if (transaction.state.acdSimulation?.generators[command.pilot] === undefined)
    throw new PlatformError('NOT_FOUND', `No traffic generator on pilot '${command.pilot}'`)
  transaction.cancelTimers(
    (timer) =>
      (timer.type === 'acdTrafficArrival' || timer.type === 'acdTrafficCall') &&
      timer.pilot === command.pilot,
  )
  putGenerator(transaction, command.pilot, undefined)
  return undefined
}

/**
 * A caller arrives (a timer): the next arrival is scheduled, and the call placed by a timer of its own at this
 * instant. A generator whose pilot is gone (the contact center provisioned anew) stops.
 */
const acdTrafficArrival: Operation<Command<'acdTrafficArrival'>> = (transaction, command) => {
  const generator = transaction.state.acdSimulation?.generators[command.pilot]
  if (generator === undefined) return undefined
  if (transaction.state.acd?.definition.pilots[command.pilot] === undefined) {
    putGenerator(transaction, command.pilot, undefined)
    return undefined
  }
  putGenerator(transaction, command.pilot, armArrival(transaction, generator))
  transaction.schedule(0, { type: 'acdTrafficCall', pilot: command.pilot })
  return undefined
}

/** Whether a number is a device of the platform (a caller must be an outside number). */
function isPlatformNumber(
  transaction: Transaction,
  context: EngineContext,
  number: string,
): boolean {
  return (
    transaction.state.devices[number] !== undefined ||
    context.directory.ownerOfDevice(number) !== undefined
  )
}

/**
 * The arrival's call: the next caller dials the pilot (`incomingCall`), and its patience starts. Skipped, and
 * counted, while MAX_GENERATED_CALLS generated calls are in progress.
 */
const acdTrafficCall: Operation<Command<'acdTrafficCall'>> = (transaction, command, context) => {
  const simulation = transaction.state.acdSimulation
  const generator = simulation?.generators[command.pilot]
  if (simulation === undefined || generator === undefined) return undefined
  if (transaction.state.acd?.definition.pilots[command.pilot] === undefined) return undefined
  if (Object.keys(simulation.calls).length >= MAX_GENERATED_CALLS) {
    putGenerator(transaction, command.pilot, { ...generator, skipped: generator.skipped + 1 })
    return undefined
  }
  let counter = simulation.callers
  let caller: string
  do {
    counter += 1
    caller = callerNumber(generator.from, counter)
  } while (isPlatformNumber(transaction, context, caller) && counter < simulation.callers + 100)
  if (isPlatformNumber(transaction, context, caller)) return undefined
  const callRef = simulationOperations.incomingCall(
    transaction,
    { type: 'incomingCall', from: caller, to: command.pilot },
    context,
  )
  const after = simulationOf(transaction)
  const calls = { ...after.calls }
  if (callRef !== undefined && transaction.state.calls.has(callRef)) {
    const call: GeneratedCall = {
      pilot: command.pilot,
      caller,
      ...(generator.patienceMs !== undefined && { patienceMs: generator.patienceMs }),
      ...(generator.talkMs !== undefined && { talkMs: generator.talkMs }),
    }
    calls[callRef] = call
    if (generator.patienceMs !== undefined)
      transaction.schedule(generator.patienceMs, {
        type: 'acdTrafficPatience',
        callRef,
        number: caller,
      })
  }
  putSimulation(transaction, {
    ...after,
    calls,
    callers: counter,
    generators: {
      ...after.generators,
      [command.pilot]: { ...generator, calls: generator.calls + 1 },
    },
  })
  return callRef
}

/** The caller's patience is over (a timer): it hangs up if nobody answered it (its side still ringing out). */
const acdTrafficPatience: Operation<Command<'acdTrafficPatience'>> = (
  transaction,
  command,
  context,
) => {
  const call = transaction.state.calls.get(command.callRef)
  const side = call?.connections.find(
    (connection) =>
      connection.endpoint.number === command.number &&
      connection.endpoint.deviceId === undefined &&
      connection.endpoint.service === undefined,
  )
  if (side?.state !== 'RINGING_OUTGOING') return undefined
  return simulationOperations.outsidePartyHangsUp(
    transaction,
    { type: 'outsidePartyHangsUp', number: command.number, callRef: command.callRef },
    context,
  )
}

// ---------------------------------------------------------------------------------------------------------
// Simulated agents

/** Whether the timer is one of a simulated agent's. */
function isAgentTimer(command: EngineCommand, loginName: string): boolean {
  return (
    (command.type === 'acdSimulatedAnswer' ||
      command.type === 'acdSimulatedRelease' ||
      command.type === 'acdSimulatedWrapUp') &&
    command.loginName === loginName
  )
}

/**
 * Marks an operator simulated, or changes how it works: from now on it answers the ACD calls offered to its set
 * by itself. A call already ringing there is answered `answerAfterMs` from now, one in progress released `talkMs`
 * from now. `answerAfterMs` must be shorter than the no-answer time of the operator's groups (or every call would
 * ring out, and the agent go to PAUSE).
 */
const acdSimulatedAgentSet: Operation<Command<'acdSimulatedAgentSet'>> = (transaction, command) => {
  const acd = requireAcd(transaction)
  const operator = acd.definition.operators[command.loginName]
  if (operator === undefined)
    throw new PlatformError('NOT_FOUND', `No operator '${command.loginName}' in the contact center`)
  requireMs('answerAfterMs', command.answerAfterMs, 0)
  requireMs('talkMs', command.talkMs, 1)
  if (command.wrapUpMs !== undefined) requireMs('wrapUpMs', command.wrapUpMs, 0)
  for (const number of operator.processingGroups) {
    const group = acd.definition.processingGroups[number]
    if (group !== undefined && command.answerAfterMs >= group.noAnswerMs)
      throw new PlatformError(
        'BAD_PARAMETER',
        `answerAfterMs: ${command.answerAfterMs} is not less than the ${group.noAnswerMs} ms an agent of processing group ${number} rings: every call would ring out`,
      )
  }
  const agent: SimulatedAgent = {
    answerAfterMs: command.answerAfterMs,
    talkMs: command.talkMs,
    ...(command.wrapUpMs !== undefined && { wrapUpMs: command.wrapUpMs }),
  }
  const simulation = simulationOf(transaction)
  putSimulation(transaction, {
    ...simulation,
    agents: { ...simulation.agents, [command.loginName]: agent },
  })
  transaction.cancelTimers((timer) => isAgentTimer(timer, command.loginName))
  takeOver(transaction, command.loginName, agent)
  return undefined
}

/** What a simulated agent does from where it is now: its ringing call, its call in progress, its wrap-up. */
function takeOver(transaction: Transaction, loginName: string, agent: SimulatedAgent): void {
  const runtime = transaction.state.acd?.agents.get(loginName)
  const callRef = runtime?.acdCall
  const call = callRef === undefined ? undefined : transaction.state.calls.get(callRef)
  if (callRef !== undefined && call !== undefined) {
    const own = call.connections.find((connection) => connection.endpoint.loginName === loginName)
    if (own?.state === 'RINGING_INCOMING' && own.endpoint.offeredBy !== undefined)
      transaction.schedule(agent.answerAfterMs, {
        type: 'acdSimulatedAnswer',
        loginName,
        callRef,
      })
    else if (own !== undefined && call.acd?.agent === loginName)
      transaction.schedule(agent.talkMs, { type: 'acdSimulatedRelease', loginName, callRef })
  }
  if (runtime?.place === 'TRANSACTION_CODE_INPUT')
    transaction.schedule(0, { type: 'acdSimulatedWrapUp', loginName })
  else if (runtime?.place === 'WRAPUP' && agent.wrapUpMs !== undefined)
    transaction.schedule(agent.wrapUpMs, { type: 'acdSimulatedWrapUp', loginName })
}

/** The operator is a person again: its timers go; it stays where it is (in its call, wrap-up...). */
const acdSimulatedAgentRemove: Operation<Command<'acdSimulatedAgentRemove'>> = (
  transaction,
  command,
) => {
  const simulation = transaction.state.acdSimulation
  if (simulation?.agents[command.loginName] === undefined)
    throw new PlatformError('NOT_FOUND', `'${command.loginName}' is no simulated agent`)
  const agents = { ...simulation.agents }
  delete agents[command.loginName]
  putSimulation(transaction, { ...simulation, agents })
  transaction.cancelTimers((timer) => isAgentTimer(timer, command.loginName))
  return undefined
}

/** The simulated agent answers the call the pilot offers it (a timer), if it still rings there. */
const acdSimulatedAnswer: Operation<Command<'acdSimulatedAnswer'>> = (
  transaction,
  command,
  context,
) => {
  if (transaction.state.acdSimulation?.agents[command.loginName] === undefined) return undefined
  const call = transaction.state.calls.get(command.callRef)
  const own = call?.connections.find(
    (connection) =>
      connection.endpoint.loginName === command.loginName &&
      connection.endpoint.offeredBy !== undefined &&
      connection.state === 'RINGING_INCOMING',
  )
  if (own === undefined) return undefined
  return basicOperations.answer(
    transaction,
    {
      type: 'answer',
      loginName: command.loginName,
      callRef: command.callRef,
      ...(own.endpoint.deviceId !== undefined && { deviceId: own.endpoint.deviceId }),
    },
    context,
  )
}

/** The simulated agent hangs up its call (a timer), if it is still in it. */
const acdSimulatedRelease: Operation<Command<'acdSimulatedRelease'>> = (
  transaction,
  command,
  context,
) => {
  if (transaction.state.acdSimulation?.agents[command.loginName] === undefined) return undefined
  const call = transaction.state.calls.get(command.callRef)
  if (!call?.connections.some((connection) => connection.endpoint.loginName === command.loginName))
    return undefined
  return basicOperations.release(
    transaction,
    { type: 'release', loginName: command.loginName, callRef: command.callRef },
    context,
  )
}

/**
 * After its call, the simulated agent (a timer): gives the transaction code its group asks for (then wraps up as
 * the group says), and ends its wrap-up when its own `wrapUpMs` is over.
 */
const acdSimulatedWrapUp: Operation<Command<'acdSimulatedWrapUp'>> = (
  transaction,
  command,
  context,
) => {
  const simulated = transaction.state.acdSimulation?.agents[command.loginName]
  const acd = transaction.state.acd
  const agent = acd?.agents.get(command.loginName)
  if (simulated === undefined || acd === undefined || agent === undefined) return undefined
  const { loginName } = command
  if (agent.place === 'TRANSACTION_CODE_INPUT') {
    const ticket = acd.wrapping[loginName]
    if (ticket === undefined) return undefined
    acdAgentOperations.acdAccountInfo(
      transaction,
      {
        type: 'acdAccountInfo',
        loginName,
        callRef: ticket.callRef,
        code: SIMULATED_TRANSACTION_CODE,
      },
      context,
    )
    if (
      transaction.state.acd?.agents.get(loginName)?.place === 'WRAPUP' &&
      simulated.wrapUpMs !== undefined
    )
      transaction.schedule(simulated.wrapUpMs, { type: 'acdSimulatedWrapUp', loginName })
    return undefined
  }
  if (agent.place === 'WRAPUP')
    acdAgentOperations.acdReady(transaction, { type: 'acdReady', loginName }, context)
  return undefined
}

// ---------------------------------------------------------------------------------------------------------
// After every command

/** Whether the agent's set rang for the pilot in the call before the command. */
function wasOffered(call: CallRecord | undefined, loginName: string): boolean {
  return (
    call?.connections.some(
      (connection) =>
        connection.endpoint.loginName === loginName &&
        connection.endpoint.offeredBy !== undefined &&
        connection.state === 'RINGING_INCOMING',
    ) === true
  )
}

/**
 * After every command while a simulation exists (call-engine.ts), once the waiting calls were offered: for each
 * call the command touched, an offer to a simulated agent's set schedules its answer; an agent's answer schedules
 * the generated caller's hang-up and the simulated agent's release, and ends the caller's patience; a simulated
 * agent's part that ended schedules its transaction code or the end of its wrap-up; a call that ended loses its
 * timers and leaves the generated calls. Timers only: what they do is a command of its own.
 */
export function followAcdSimulation(transaction: Transaction): void {
  const simulation = transaction.state.acdSimulation
  if (simulation === undefined) return
  let calls: Record<string, GeneratedCall> | undefined
  for (const callRef of [...transaction.touchedCallRefs()]) {
    const before = transaction.callBefore(callRef)
    const now = transaction.state.calls.get(callRef)
    const generated = simulation.calls[callRef]
    if (now === undefined) {
      if (generated !== undefined) {
        calls ??= { ...simulation.calls }
        delete calls[callRef]
      }
      transaction.cancelTimers(
        (timer) =>
          (timer.type === 'acdSimulatedAnswer' ||
            timer.type === 'acdSimulatedRelease' ||
            timer.type === 'acdTrafficPatience') &&
          timer.callRef === callRef,
      )
    }
    for (const { endpoint, state } of now?.connections ?? []) {
      const loginName = endpoint.loginName
      if (loginName === undefined || endpoint.offeredBy === undefined) continue
      const agent = simulation.agents[loginName]
      if (agent === undefined || state !== 'RINGING_INCOMING' || wasOffered(before, loginName))
        continue
      transaction.schedule(agent.answerAfterMs, { type: 'acdSimulatedAnswer', loginName, callRef })
    }
    const answered = now?.acd?.answeredAt !== undefined && before?.acd?.answeredAt === undefined
    const agentName = now?.acd?.agent
    if (answered && now !== undefined && agentName !== undefined) {
      if (generated !== undefined) {
        transaction.cancelTimers(
          (timer) => timer.type === 'acdTrafficPatience' && timer.callRef === callRef,
        )
        if (generated.talkMs !== undefined)
          transaction.schedule(generated.talkMs, {
            type: 'outsidePartyHangsUp',
            number: generated.caller,
            callRef,
          })
      }
      const agent = simulation.agents[agentName]
      if (agent !== undefined)
        transaction.schedule(agent.talkMs, {
          type: 'acdSimulatedRelease',
          loginName: agentName,
          callRef,
        })
    }
    const served = before?.acd?.answeredAt !== undefined ? before.acd.agent : undefined
    if (served !== undefined && now?.acd?.agent !== served)
      agentPartEnded(transaction, served, callRef)
  }
  if (calls !== undefined) putSimulation(transaction, { ...simulationOf(transaction), calls })
}

/** A simulated agent's part in its call ended: its release goes; its code or the end of its wrap-up is scheduled. */
function agentPartEnded(transaction: Transaction, loginName: string, callRef: string): void {
  const agent = transaction.state.acdSimulation?.agents[loginName]
  if (agent === undefined) return
  // Its release in that call, and a wrap-up timer of an earlier call the group's timer ended first.
  transaction.cancelTimers(
    (timer) =>
      (timer.type === 'acdSimulatedRelease' &&
        timer.loginName === loginName &&
        timer.callRef === callRef) ||
      (timer.type === 'acdSimulatedWrapUp' && timer.loginName === loginName),
  )
  const place = transaction.state.acd?.agents.get(loginName)?.place
  if (place === 'TRANSACTION_CODE_INPUT')
    transaction.schedule(0, { type: 'acdSimulatedWrapUp', loginName })
  else if (place === 'WRAPUP' && agent.wrapUpMs !== undefined)
    transaction.schedule(agent.wrapUpMs, { type: 'acdSimulatedWrapUp', loginName })
}

export const acdSimulationOperations = {
  acdTrafficSet,
  acdTrafficStop,
  acdTrafficArrival,
  acdTrafficCall,
  acdTrafficPatience,
  acdSimulatedAgentSet,
  acdSimulatedAgentRemove,
  acdSimulatedAnswer,
  acdSimulatedRelease,
  acdSimulatedWrapUp,
}
