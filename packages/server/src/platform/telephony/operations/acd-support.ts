/**
 * What the contact center's operations share (docs/contact-center.md): the ACD state of a transaction read and
 * replaced (never changed in place: the state the command started from shares it), the agents moved through
 * their table with the events that tell them, the pilots' events to those who monitor them, and the refusals.
 */
import type { CallCause } from '@openness/wire'
import type { AcdCall, AcdState } from '../../acd/acd-state.js'
import type { AcdTicket, TicketOutcome } from '../../acd/acd-ticket.js'
import {
  type AgentAction,
  type AgentPlace,
  type AgentRuntime,
  newAgent,
  nextPlace,
  type OperatorStateView,
  operatorStateOf,
  refusalOf,
} from '../../acd/agent-state.js'
import type { OperatorDefinition, PilotDefinition } from '../../acd/contact-center.js'
import { eventSubject } from '../../events.js'
import { ownEntry } from '../../own-entry.js'
import { PlatformError } from '../../platform-error.js'
import type { CallRecord, Endpoint } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'

/** The contact center of the transaction's state: NOT_FOUND when the platform has none. */
export function requireAcd(transaction: Transaction): AcdState {
  const acd = transaction.state.acd
  if (acd === undefined) throw new PlatformError('NOT_FOUND', 'This platform has no contact center')
  return acd
}

/** Replaces fields of the ACD state (a new record: the command's base state keeps its own). */
export function changeAcd(transaction: Transaction, change: Partial<AcdState>): AcdState {
  const acd = { ...requireAcd(transaction), ...change }
  transaction.state.acd = acd
  return acd
}

/** The operator definition of `loginName`: NOT_ALLOWED when the user is no operator of the contact center. */
export function requireOperator(transaction: Transaction, loginName: string): OperatorDefinition {
  const operator = ownEntry(requireAcd(transaction).definition.operators, loginName)
  if (operator === undefined)
    throw new PlatformError(
      'NOT_ALLOWED',
      `'${loginName}' is no agent or supervisor of the contact center`,
    )
  return operator
}

/** The pilot with this number: NOT_FOUND when there is none. */
export function requirePilot(transaction: Transaction, number: string): PilotDefinition {
  const pilot = ownEntry(requireAcd(transaction).definition.pilots, number)
  if (pilot === undefined) throw new PlatformError('NOT_FOUND', `No pilot '${number}'`)
  return pilot
}

/** The runtime of an operator (created logged off on first use). */
export function agentAt(transaction: Transaction, loginName: string): AgentRuntime {
  const acd = requireAcd(transaction)
  const agent = acd.agents.get(loginName)
  if (agent !== undefined) return agent
  return newAgent(loginName, ownEntry(acd.definition.operators, loginName)?.skills ?? [])
}

/** The agents each command changed, as they were before it: their events are told at its end (`tellAgents`). */
const changedAgents = new WeakMap<Transaction, Map<string, AgentRuntime | undefined>>()

/** Puts the agent's new runtime in the state, remembering how it was for its events. */
export function putAgent(transaction: Transaction, agent: AgentRuntime): AgentRuntime {
  const acd = requireAcd(transaction)
  let changed = changedAgents.get(transaction)
  if (changed === undefined) {
    changed = new Map()
    changedAgents.set(transaction, changed)
  }
  if (!changed.has(agent.loginName)) changed.set(agent.loginName, acd.agents.get(agent.loginName))
  changeAcd(transaction, { agents: acd.agents.set(agent.loginName, agent) })
  return agent
}

/**
 * Moves the agent by `action` (agent-state.ts's table): NOT_EXPECTED with the table's reason when the action is
 * refused where the agent is. `change` sets other fields of the move (undefined removes one); `to` is the place
 * the operation chose where the table leaves a choice (agent-state.ts). Leaving a wrap-up or a transaction code
 * input closes the ticket of the call it followed.
 */
export function moveAgent(
  transaction: Transaction,
  agent: AgentRuntime,
  action: AgentAction,
  change: Partial<AgentRuntime> = {},
  to?: AgentPlace,
): AgentRuntime {
  const allowed = nextPlace(agent.place, action)
  if (allowed === undefined) throw new PlatformError('NOT_EXPECTED', refusalOf(agent.place, action))
  const next = to ?? allowed
  const moved: AgentRuntime = { ...agent, ...change, place: next }
  for (const key of Object.keys(change) as (keyof AgentRuntime)[])
    if (change[key] === undefined) delete moved[key]
  // Ready while in a call of its own (made or taken meanwhile): BUSY until it ends, then READY (settleAcd).
  if (next === 'READY' && moved.acdCall === undefined && inCall(transaction, agent.loginName))
    moved.place = 'BUSY'
  else if (next === 'READY' && agent.place !== 'READY') moved.readySince = transaction.now
  if (next !== 'WITHDRAW') delete moved.withdrawReason
  if (next === 'LOG_OFF') {
    delete moved.pg
    delete moved.proAcdDeviceNumber
    delete moved.readySince
    delete moved.wrapUpAfterCall
    delete moved.acdCall
  }
  if (next === 'OUT_OF_PG') delete moved.pg
  if (WRAPPING.has(agent.place) && !WRAPPING.has(next)) endWrapUp(transaction, agent.loginName)
  return putAgent(transaction, moved)
}

/** Whether the user has a connection in a call now. */
function inCall(transaction: Transaction, loginName: string): boolean {
  return transaction.lookup().ofUser(loginName).length > 0
}

/** The places that follow an ACD call, while its ticket stays open. */
const WRAPPING: ReadonlySet<AgentPlace> = new Set(['WRAPUP', 'TRANSACTION_CODE_INPUT'])

/** The agent's wrap-up is over: its timer goes, the ticket it kept open closes with the wrap-up's length. */
function endWrapUp(transaction: Transaction, loginName: string): void {
  transaction.cancelTimers(
    (command) => command.type === 'acdWrapUpEnd' && command.loginName === loginName,
  )
  const acd = requireAcd(transaction)
  const ticket = acd.wrapping[loginName]
  if (ticket === undefined) return
  const wrapping = { ...acd.wrapping }
  delete wrapping[loginName]
  changeAcd(transaction, { wrapping })
  closeTicket(transaction, {
    ...ticket,
    wrapUpMs: transaction.now - ticket.endedAt,
    closedAt: transaction.now,
  })
}

/** Tells each agent the command moved its new state (OnAgentStateChanged), when what the SDKs see changed. */
export function tellAgents(transaction: Transaction): void {
  const changed = changedAgents.get(transaction)
  const acd = transaction.state.acd
  if (changed === undefined || acd === undefined) return
  for (const [loginName, before] of [...changed].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const agent = acd.agents.get(loginName)
    if (agent === undefined) continue
    const state = operatorStateOf(agent)
    if (before !== undefined && sameOperatorState(operatorStateOf(before), state)) continue
    transaction.events.push({ eventName: 'OnAgentStateChanged', loginName, state })
  }
  changedAgents.delete(transaction)
}

/** Whether two agents' states read the same to the SDKs: every field of OperatorStateView alike. */
function sameOperatorState(a: OperatorStateView, b: OperatorStateView): boolean {
  return (
    a.mainState === b.mainState &&
    a.subState === b.subState &&
    a.proAcdDeviceNumber === b.proAcdDeviceNumber &&
    a.pgNumber === b.pgNumber &&
    a.withdrawReason === b.withdrawReason &&
    a.withdraw === b.withdraw &&
    a.withdrawn === b.withdrawn
  )
}

/** A pilot event (package `pilot`), sent only while someone monitors the pilot. */
export function tellPilot(
  transaction: Transaction,
  pilot: string,
  eventName: 'OnPilotCallCreated' | 'OnPilotCallQueued' | 'OnPilotCallRemoved',
  fields: Record<string, unknown>,
): void {
  if ((transaction.state.acd?.pilots[pilot]?.monitoredBy.length ?? 0) === 0) return
  transaction.events.push({ eventName, loginName: eventSubject('pilot', pilot), pilot, ...fields })
}

/** The call's caller: the first party that is not the pilot or an agent it offers the call to. */
export function callerOf(call: CallRecord): Endpoint | undefined {
  return call.connections.find(
    (connection) =>
      connection.endpoint.service !== 'ACD_PILOT' && connection.endpoint.offeredBy === undefined,
  )?.endpoint
}

/** Tells those who monitor the pilot that the call left it, with why and where to. */
export function tellRemoved(
  transaction: Transaction,
  call: CallRecord,
  cause: CallCause,
  where: { newDestination?: string; releasingDevice?: string },
): void {
  const acd = call.acd
  if (acd === undefined) return
  tellPilot(transaction, acd.pilot, 'OnPilotCallRemoved', {
    callRef: call.callRef,
    cause,
    ...(where.releasingDevice !== undefined && { releasingDevice: where.releasingDevice }),
    ...(where.newDestination !== undefined && { newDestination: where.newDestination }),
  })
}

/** The ticket of an ACD call as it stands at `endedAt`, closed now with `outcome`. */
export function ticketOf(
  call: CallRecord,
  acd: AcdCall,
  outcome: TicketOutcome,
  now: number,
  extra: Partial<AcdTicket> = {},
): AcdTicket {
  const waited = acd.queuedAt === undefined ? 0 : now - acd.queuedAt
  const answeredAt = acd.answeredAt
  const caller = callerOf(call)
  return {
    ticketId: acd.ticketId,
    pilot: acd.pilot,
    ...(acd.queue !== undefined && { queue: acd.queue }),
    ...(acd.pg !== undefined && { processingGroup: acd.pg }),
    caller: caller?.number ?? '',
    callRef: call.callRef,
    arrivedAt: acd.arrivedAt,
    ...(acd.firstQueuedAt !== undefined && { queuedAt: acd.firstQueuedAt }),
    ...(answeredAt !== undefined && { answeredAt }),
    endedAt: now,
    closedAt: now,
    ...(acd.agent !== undefined && { agent: acd.agent }),
    offers: acd.offers,
    refusals: acd.refusals,
    waitMs: (answeredAt ?? now) - acd.arrivedAt,
    queueWaitMs: acd.queueWaitMs + waited,
    handlingMs: answeredAt === undefined ? 0 : now - answeredAt,
    wrapUpMs: 0,
    outcome,
    ...extra,
  }
}

/** The most closed tickets the engine keeps until the ticket store has them. */
export const MAX_OUTBOX = 10_000

/**
 * Closes a ticket: into the outbox, from which the runtime stores it (acd-ticket-recorder.ts). A full outbox (the
 * store has failed for MAX_OUTBOX tickets) drops its oldest, counted in `droppedTickets`.
 */
export function closeTicket(transaction: Transaction, ticket: AcdTicket): void {
  const acd = requireAcd(transaction)
  const full = acd.outbox.length >= MAX_OUTBOX
  changeAcd(transaction, {
    outbox: [...(full ? acd.outbox.slice(1) : acd.outbox), ticket],
    ...(full && { droppedTickets: (acd.droppedTickets ?? 0) + 1 }),
  })
}
