/**
 * The agent's desktop in the engine (docs/contact-center.md, "The agent's states"): log on at a set of its own
 * and off, enter and leave processing groups, ready, pause, withdraw with a reason, wrap up, skills activated and
 * deactivated, the transaction code of a call, help asked of the supervisors; and the wrap-up timer. Each moves
 * the agent through agent-state.ts's table, and is refused with its reason where the table refuses it.
 */

import { operatorStateOf } from '../../acd/agent-state.js'
import { ownEntry } from '../../own-entry.js'
import { PlatformError } from '../../platform-error.js'
import type { Operation } from '../engine-operation.js'
import type { EngineCommand } from '../telephony-state.js'
import { withdrawOffer } from './acd-distribution.js'
import {
  agentAt,
  changeAcd,
  moveAgent,
  putAgent,
  requireAcd,
  requireOperator,
} from './acd-support.js'

type Command<T extends EngineCommand['type']> = Extract<EngineCommand, { type: T }>

/** The processing group `pg` for the operator: NOT_FOUND unknown, NOT_ALLOWED when not its own (nor self-assigned). */
function requireGroupFor(
  transaction: Parameters<Operation>[0],
  loginName: string,
  pg: string,
): void {
  const acd = requireAcd(transaction)
  if (ownEntry(acd.definition.processingGroups, pg) === undefined)
    throw new PlatformError('NOT_FOUND', `No processing group '${pg}'`)
  const operator = requireOperator(transaction, loginName)
  if (!operator.processingGroups.includes(pg) && !operator.selfAssign)
    throw new PlatformError(
      'NOT_ALLOWED',
      `'${loginName}' is not in processing group ${pg} (and may not assign itself)`,
    )
}

const acdLogOn: Operation<Command<'acdLogOn'>> = (transaction, command, context) => {
  const operator = requireOperator(transaction, command.loginName)
  const owner = context.directory.ownerOfDevice(command.proAcdDeviceNumber)
  if (owner === undefined)
    throw new PlatformError(
      'NOT_FOUND',
      `proAcdDeviceNumber: no set '${command.proAcdDeviceNumber}'`,
    )
  if (owner.loginName !== command.loginName)
    throw new PlatformError(
      'NOT_ALLOWED',
      `proAcdDeviceNumber: set ${command.proAcdDeviceNumber} is not a set of '${command.loginName}'`,
    )
  if (command.pg !== undefined) requireGroupFor(transaction, command.loginName, command.pg)
  const agent = agentAt(transaction, command.loginName)
  if (agent.place !== 'LOG_OFF') {
    // Logging on again at the same set changes nothing; at another one, the agent logs off first.
    if (agent.proAcdDeviceNumber === command.proAcdDeviceNumber && command.pg === undefined)
      return undefined
    throw new PlatformError(
      'NOT_EXPECTED',
      `'${command.loginName}' is logged on at ${agent.proAcdDeviceNumber} already: log off first`,
    )
  }
  const licenses = requireAcd(transaction).definition.agentLicenses
  if (licenses !== undefined) {
    const agents = requireAcd(transaction).agents
    let loggedOn = 0
    for (const agent of agents.values()) if (agent.place !== 'LOG_OFF') loggedOn += 1
    if (loggedOn >= licenses)
      throw new PlatformError(
        'NOT_ALLOWED',
        `All ${licenses} CONTACTCENTER_AGENT licenses are in use: ${loggedOn} operators are logged on`,
      )
  }
  const pg = command.pg ?? operator.processingGroups[0]
  moveAgent(
    transaction,
    agent,
    'logon',
    {
      proAcdDeviceNumber: command.proAcdDeviceNumber,
      ...(pg !== undefined && { pg }),
      headset: command.headset === true,
    },
    pg === undefined ? 'OUT_OF_PG' : 'READY',
  )
  return undefined
}

const acdLogOff: Operation<Command<'acdLogOff'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  const agent = agentAt(transaction, command.loginName)
  if (agent.place === 'LOG_OFF') return undefined
  withdrawOffer(transaction, command.loginName)
  moveAgent(transaction, agentAt(transaction, command.loginName), 'logoff')
  return undefined
}

const acdEnter: Operation<Command<'acdEnter'>> = (transaction, command) => {
  requireGroupFor(transaction, command.loginName, command.pg)
  // Even into the group the agent is in: PAUSE and WITHDRAW become READY, a wrap-up or a call refuses it.
  moveAgent(transaction, agentAt(transaction, command.loginName), 'enter', { pg: command.pg })
  return undefined
}

const acdExit: Operation<Command<'acdExit'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  const agent = agentAt(transaction, command.loginName)
  if (agent.place !== 'LOG_OFF' && agent.pg !== command.pg)
    throw new PlatformError(
      'BAD_PARAMETER',
      `pgGroupNumber: '${command.loginName}' is not in processing group ${command.pg}`,
    )
  moveAgent(transaction, agent, 'exit')
  return undefined
}

const acdReady: Operation<Command<'acdReady'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  moveAgent(transaction, agentAt(transaction, command.loginName), 'ready')
  return undefined
}

const acdPause: Operation<Command<'acdPause'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  moveAgent(transaction, agentAt(transaction, command.loginName), 'pause')
  return undefined
}

const acdWrapUp: Operation<Command<'acdWrapUp'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  const agent = agentAt(transaction, command.loginName)
  if (agent.place === 'BUSY') {
    // Busy: the wrap-up follows the call.
    moveAgent(transaction, agent, 'wrapUp', { wrapUpAfterCall: true })
    return undefined
  }
  if (agent.place === 'WRAPUP') return undefined
  moveAgent(transaction, agent, 'wrapUp')
  const group =
    agent.pg === undefined
      ? undefined
      : requireAcd(transaction).definition.processingGroups[agent.pg]
  if ((group?.wrapUpMs ?? 0) > 0)
    transaction.schedule(group?.wrapUpMs ?? 0, {
      type: 'acdWrapUpEnd',
      loginName: command.loginName,
    })
  return undefined
}

const acdWithdraw: Operation<Command<'acdWithdraw'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  const agent = agentAt(transaction, command.loginName)
  const group =
    agent.pg === undefined
      ? undefined
      : requireAcd(transaction).definition.processingGroups[agent.pg]
  if (
    group !== undefined &&
    !group.withdrawReasons.some((reason) => reason.index === command.reasonIndex)
  )
    throw new PlatformError(
      'BAD_PARAMETER',
      `reasonIndex: processing group ${group.number} has no withdraw reason ${command.reasonIndex}`,
    )
  moveAgent(transaction, agent, 'withdraw', { withdrawReason: command.reasonIndex })
  return undefined
}

const acdWrapUpEnd: Operation<Command<'acdWrapUpEnd'>> = (transaction, command) => {
  const agent = transaction.state.acd?.agents.get(command.loginName)
  if (agent?.place !== 'WRAPUP') return undefined
  moveAgent(transaction, agent, 'wrapUpEnded')
  return undefined
}

const acdSkills: Operation<Command<'acdSkills'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  const agent = agentAt(transaction, command.loginName)
  const unknown = command.skills.find(
    (number) => !agent.skills.some((skill) => skill.number === number),
  )
  if (unknown !== undefined)
    throw new PlatformError(
      'BAD_PARAMETER',
      `skills: '${command.loginName}' has no skill ${unknown}`,
    )
  const skills = agent.skills.map((skill) =>
    command.skills.includes(skill.number) ? { ...skill, active: command.active } : skill,
  )
  if (skills.every((skill, index) => skill.active === agent.skills[index]?.active)) return undefined
  putAgent(transaction, { ...agent, skills })
  transaction.events.push({
    eventName: 'OnAgentSkillChanged',
    loginName: command.loginName,
    skills: skills.map((skill) => ({ ...skill })),
  })
  return undefined
}

/**
 * The transaction code of a call (sendaccountinfo): during a call the user is in, the call shows it (CallData
 * `accountInfo`) and an ACD call's ticket keeps it; after an ACD call, in TRANSACTION_CODE_INPUT, it goes on the
 * ticket and ends that state (the wrap-up follows, or READY).
 */
const acdAccountInfo: Operation<Command<'acdAccountInfo'>> = (transaction, command) => {
  const live = transaction.state.calls.get(command.callRef)
  if (live?.connections.some((connection) => connection.endpoint.loginName === command.loginName)) {
    const call = transaction.call(command.callRef)
    if (call === undefined) return undefined
    call.accountInfo = command.code
    if (call.acd?.agent === command.loginName) call.acd.transactionCode = command.code
    return undefined
  }
  const acd = transaction.state.acd
  const ticket = acd?.wrapping[command.loginName]
  if (acd === undefined || ticket === undefined || ticket.callRef !== command.callRef)
    throw new PlatformError(
      'NOT_FOUND',
      `No call '${command.callRef}' of '${command.loginName}' to give a transaction code to`,
    )
  changeAcd(transaction, {
    wrapping: {
      ...acd.wrapping,
      [command.loginName]: { ...ticket, transactionCode: command.code },
    },
  })
  const agent = agentAt(transaction, command.loginName)
  if (agent.place !== 'TRANSACTION_CODE_INPUT') return undefined
  const group = agent.pg === undefined ? undefined : acd.definition.processingGroups[agent.pg]
  const wrapUpMs = group?.wrapUpMs ?? 0
  moveAgent(transaction, agent, 'transactionCode', {}, wrapUpMs > 0 ? 'WRAPUP' : 'READY')
  if (wrapUpMs > 0)
    transaction.schedule(wrapUpMs, { type: 'acdWrapUpEnd', loginName: command.loginName })
  return undefined
}

/** The agent's state told again (POST /state/snapshot): an OnAgentStateChanged with no change. */
const acdAgentSnapshot: Operation<Command<'acdAgentSnapshot'>> = (transaction, command) => {
  requireOperator(transaction, command.loginName)
  transaction.events.push({
    eventName: 'OnAgentStateChanged',
    loginName: command.loginName,
    state: operatorStateOf(agentAt(transaction, command.loginName)),
  })
  return undefined
}

/**
 * Help between an agent and the supervisors of its processing group: the agent asks (each supervisor is told
 * OnSupervisorHelpRequested) or cancels; a supervisor rejects an agent's request (`agentNumber`, the agent's
 * set). Either end tells the supervisors OnSupervisorHelpCancelled.
 */
const acdHelp: Operation<Command<'acdHelp'>> = (transaction, command) => {
  const operator = requireOperator(transaction, command.loginName)
  const acd = requireAcd(transaction)
  if (command.agentNumber !== undefined) {
    if (operator.type !== 'SUPERVISOR')
      throw new PlatformError('NOT_ALLOWED', `'${command.loginName}' is no supervisor`)
    const agent = acd.agents.find(
      (one) => one.proAcdDeviceNumber === command.agentNumber && one.helpRequested !== undefined,
    )
    if (agent === undefined)
      throw new PlatformError('NOT_FOUND', `No help request from agent ${command.agentNumber}`)
    cancelHelp(transaction, agent.loginName)
    return undefined
  }
  const agent = agentAt(transaction, command.loginName)
  if (command.cancel) {
    if (agent.helpRequested !== undefined) {
      cancelHelp(transaction, command.loginName)
      return undefined
    }
    // A supervisor who names no agent (the Java SDK's DELETE /intrusion) rejects the one request made to it.
    const asked = [...acd.agents.values()].filter((one) =>
      one.helpRequested?.includes(command.loginName),
    )
    const [only] = asked
    if (operator.type !== 'SUPERVISOR' || only === undefined)
      throw new PlatformError('NOT_EXPECTED', `'${command.loginName}' has no help request to end`)
    if (asked.length > 1)
      throw new PlatformError(
        'BAD_PARAMETER',
        `${asked.length} agents asked '${command.loginName}' for help: name the agent (DELETE /supervisorHelp?other=)`,
      )
    cancelHelp(transaction, only.loginName)
    return undefined
  }
  if (!operator.help)
    throw new PlatformError('NOT_ALLOWED', `'${command.loginName}' may not ask for help`)
  if (agent.place === 'LOG_OFF' || agent.proAcdDeviceNumber === undefined)
    throw new PlatformError('NOT_EXPECTED', `'${command.loginName}' is logged off: log on first`)
  const supervisors = Object.values(acd.definition.operators)
    .filter(
      (one) =>
        one.type === 'SUPERVISOR' &&
        one.loginName !== command.loginName &&
        (agent.pg === undefined || one.processingGroups.includes(agent.pg)),
    )
    .map((one) => one.loginName)
    .sort()
  if (supervisors.length === 0)
    throw new PlatformError('NOT_EXPECTED', `No supervisor for '${command.loginName}' to ask`)
  putAgent(transaction, { ...agent, helpRequested: supervisors })
  for (const loginName of supervisors)
    transaction.events.push({
      eventName: 'OnSupervisorHelpRequested',
      loginName,
      agentNumber: agent.proAcdDeviceNumber,
    })
  return undefined
}

/** The agent's help request ends: its supervisors are told. */
function cancelHelp(transaction: Parameters<Operation>[0], loginName: string): void {
  const agent = agentAt(transaction, loginName)
  const supervisors = agent.helpRequested ?? []
  const { helpRequested: _, ...rest } = agent
  putAgent(transaction, rest)
  for (const supervisor of supervisors)
    transaction.events.push({
      eventName: 'OnSupervisorHelpCancelled',
      loginName: supervisor,
      agentNumber: agent.proAcdDeviceNumber ?? '',
    })
}

export const acdAgentOperations = {
  acdLogOn,
  acdLogOff,
  acdEnter,
  acdExit,
  acdReady,
  acdPause,
  acdWrapUp,
  acdWithdraw,
  acdWrapUpEnd,
  acdSkills,
  acdAccountInfo,
  acdAgentSnapshot,
  acdHelp,
}
