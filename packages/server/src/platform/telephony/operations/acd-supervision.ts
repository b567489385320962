/**
 * Supervisors in their agents' calls (docs/contact-center.md, "Supervision"): permanent listening, where the
 * supervisor's set joins each call the agent talks in, unseen, from the request until it stops; and intrusion
 * into the agent's current call, NORMAL (a three-party call everyone sees), RESTRICTED (the supervisor talks with
 * the agent, whom the caller does not know to be joined) or DISCRETE (listening, unseen), whose mode changes and
 * which STOP ends. The supervisor joins from its logged-on set, else its main device; it leaves when the agent
 * does (acd-distribution.ts `settleAcd`).
 */
import type { CallCause } from '@openness/wire'
import { PlatformError } from '../../platform-error.js'
import type { EngineContext, Operation } from '../engine-operation.js'
import { moveConnection, newConnection } from '../media-state-machine.js'
import type { CallRecord, Endpoint, EngineCommand, SupervisionMode } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { agentAt, putAgent, requireAcd, requireOperator } from './acd-support.js'
import { releaseCall } from './guards.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The cause of the steps where a supervisor joins, by mode. */
const JOIN_CAUSE: Record<SupervisionMode, CallCause> = {
  LISTEN: 'SUPERVISOR_LISTENING',
  DISCRETE: 'SUPERVISOR_LISTENING',
  NORMAL: 'SUPERVISOR_INTRUSION',
  RESTRICTED: 'SUPERVISOR_RESTRICT_INTRUSION',
}

/** The supervisor's endpoint: its logged-on set, else its main device; NOT_EXPECTED when it has none. */
function supervisorEndpoint(
  transaction: Transaction,
  context: EngineContext,
  loginName: string,
): Endpoint {
  const set = transaction.state.acd?.agents.get(loginName)?.proAcdDeviceNumber
  const endpoint = context.directory.resolve(set ?? loginName)
  if (endpoint?.deviceId === undefined || endpoint.loginName !== loginName)
    throw new PlatformError('NOT_EXPECTED', `'${loginName}' has no set to supervise from`)
  return { number: endpoint.number, deviceId: endpoint.deviceId, loginName }
}

/** The logged-on agent at `agentNumber` (its set): NOT_FOUND when no agent is logged on there. */
function agentAtNumber(transaction: Transaction, agentNumber: string): string {
  const acd = requireAcd(transaction)
  for (const [loginName, agent] of acd.agents)
    if (agent.proAcdDeviceNumber === agentNumber) return loginName
  throw new PlatformError('NOT_FOUND', `agentNumber: no agent is logged on at ${agentNumber}`)
}

/** The call the agent talks in now (ACTIVE), copied for change; undefined when it talks in none. */
function talkingCall(transaction: Transaction, agent: string): CallRecord | undefined {
  for (const call of transaction.lookup().ofUser(agent)) {
    const talks = call.connections.some(
      (connection) =>
        connection.endpoint.loginName === agent &&
        connection.endpoint.supervising === undefined &&
        connection.state === 'ACTIVE',
    )
    if (talks) return transaction.call(call.callRef)
  }
  return undefined
}

/** The supervisor's set joins the call, ACTIVE, supervising the agent in `mode`. */
function join(
  transaction: Transaction,
  call: CallRecord,
  supervisor: Endpoint,
  agent: string,
  mode: SupervisionMode,
): void {
  call.connections.push(newConnection({ ...supervisor, supervising: { agent, mode } }, 'ACTIVE'))
  transaction.commit(JOIN_CAUSE[mode])
}

/** The supervisor's connection in a call, if it has one. */
function supervisorIn(call: CallRecord, loginName: string) {
  return call.connections.find(
    (connection) =>
      connection.endpoint.loginName === loginName && connection.endpoint.supervising !== undefined,
  )
}

/** The supervisor leaves the call: the others see nothing when it was unseen by them. */
function leaveCall(transaction: Transaction, call: CallRecord, loginName: string): void {
  const connection = supervisorIn(call, loginName)
  if (connection === undefined) return
  moveConnection(call, connection, 'RELEASING')
  transaction.commit()
  call.connections = call.connections.filter((other) => other !== connection)
  transaction.commit()
}

/** Whether the supervisor is in a call now, supervising anyone. */
function supervisingCall(transaction: Transaction, loginName: string): CallRecord | undefined {
  for (const call of transaction.lookup().ofUser(loginName))
    if (supervisorIn(call, loginName) !== undefined) return transaction.call(call.callRef)
  return undefined
}

/**
 * Permanent listening starts (the supervisor's set joins the agent's current call, unseen, and each call the agent
 * answers from then on) or stops (the supervisor leaves the call it listens to).
 */
const acdListen: Operation<Command<'acdListen'>> = (transaction, command, context) => {
  const operator = requireOperator(transaction, command.loginName)
  if (operator.type !== 'SUPERVISOR')
    throw new PlatformError('NOT_ALLOWED', `'${command.loginName}' is no supervisor`)
  const agentLogin = agentAtNumber(transaction, command.agentNumber)
  const agent = agentAt(transaction, agentLogin)
  if (!command.start) {
    if (agent.listenedBy !== command.loginName)
      throw new PlatformError(
        'NOT_EXPECTED',
        `'${command.loginName}' does not listen to the agent at ${command.agentNumber}`,
      )
    const { listenedBy: _, ...rest } = agent
    putAgent(transaction, rest)
    const call = supervisingCall(transaction, command.loginName)
    if (call !== undefined) leaveCall(transaction, call, command.loginName)
    return undefined
  }
  if (agent.listenedBy !== undefined && agent.listenedBy !== command.loginName)
    throw new PlatformError(
      'NOT_EXPECTED',
      `'${agent.listenedBy}' listens to the agent at ${command.agentNumber} already`,
    )
  const supervisor = supervisorEndpoint(transaction, context, command.loginName)
  putAgent(transaction, { ...agent, listenedBy: command.loginName })
  const call = talkingCall(transaction, agentLogin)
  if (call !== undefined && supervisorIn(call, command.loginName) === undefined)
    join(transaction, call, supervisor, agentLogin, 'LISTEN')
  return undefined
}

/** The supervisor intrudes into the call the agent at `agentNumber` talks in, in `mode`. */
const acdIntrude: Operation<Command<'acdIntrude'>> = (transaction, command, context) => {
  const operator = requireOperator(transaction, command.loginName)
  if (operator.type !== 'SUPERVISOR')
    throw new PlatformError('NOT_ALLOWED', `'${command.loginName}' is no supervisor`)
  const agentLogin = agentAtNumber(transaction, command.agentNumber)
  const supervisor = supervisorEndpoint(transaction, context, command.loginName)
  if (supervisingCall(transaction, command.loginName) !== undefined)
    throw new PlatformError(
      'NOT_EXPECTED',
      `'${command.loginName}' is in an agent's call already: change its mode, or stop`,
    )
  const call = talkingCall(transaction, agentLogin)
  if (call === undefined)
    throw new PlatformError('NOT_EXPECTED', `The agent at ${command.agentNumber} talks in no call`)
  join(transaction, call, supervisor, agentLogin, command.mode)
  return undefined
}

/** The supervisor's intrusion changes mode, or ends (STOP). */
const acdIntrusionMode: Operation<Command<'acdIntrusionMode'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  const call = supervisingCall(transaction, command.loginName)
  const connection = call === undefined ? undefined : supervisorIn(call, command.loginName)
  const supervising = connection?.endpoint.supervising
  if (call === undefined || connection === undefined || supervising === undefined)
    throw new PlatformError('NOT_EXPECTED', `'${command.loginName}' intrudes into no call`)
  if (command.mode === 'STOP') {
    leaveCall(transaction, call, command.loginName)
    return undefined
  }
  if (supervising.mode === command.mode) return undefined
  connection.endpoint.supervising = { ...supervising, mode: command.mode }
  transaction.commit(JOIN_CAUSE[command.mode])
  return undefined
}

/**
 * After a command (acd-distribution.ts `settleAcd`): supervisors leave the calls their agent is no longer in, and
 * one that is left alone with outside parties is released; a supervisor who listens permanently joins the call
 * its agent has just answered.
 */
export function settleSupervisors(
  transaction: Transaction,
  call: CallRecord,
  context: EngineContext,
): void {
  const supervisors = call.connections.filter((c) => c.endpoint.supervising !== undefined)
  for (const connection of supervisors) {
    const agent = connection.endpoint.supervising?.agent
    if (
      call.connections.some(
        (c) => c.endpoint.loginName === agent && c.endpoint.supervising === undefined,
      )
    )
      continue
    const copy = transaction.call(call.callRef)
    if (copy === undefined) return
    copy.connections = copy.connections.filter(
      (c) =>
        c.endpoint.supervising === undefined || c.endpoint.number !== connection.endpoint.number,
    )
    transaction.commit()
    if (copy.connections.length < 2) releaseCall(transaction, copy, 'PARTICIPANT_LEFT')
    return
  }
  const acd = transaction.state.acd
  for (const connection of call.connections) {
    const agent = connection.endpoint.loginName
    const listener = agent === undefined ? undefined : acd?.agents.get(agent)?.listenedBy
    if (
      listener === undefined ||
      connection.state !== 'ACTIVE' ||
      connection.endpoint.supervising !== undefined ||
      call.connections.some((c) => c.endpoint.loginName === listener)
    )
      continue
    try {
      const supervisor = supervisorEndpoint(transaction, context, listener)
      if (transaction.lookup().ofUser(listener).length > 0) continue
      const copy = transaction.call(call.callRef)
      if (copy !== undefined) join(transaction, copy, supervisor, agent as string, 'LISTEN')
    } catch {
      // A supervisor without a set to listen from misses the call; its listening goes on.
    }
  }
}

export const acdSupervisionOperations = { acdListen, acdIntrude, acdIntrusionMode }
