/**
 * The call engine: a pure function `(state, command, now) -> (state', events, timers)` (design section 2;
 * issue 4). The same state, command and time give the same events byte for byte.
 */
import type { EngineContext, EngineResult, Operation } from './engine-operation.js'
import { acdAgentOperations } from './operations/acd-agents.js'
import { dispatchAcd, hasWaitingAcdCalls, settleAcd } from './operations/acd-distribution.js'
import { acdPilotOperations } from './operations/acd-pilots.js'
import { acdSimulationOperations, followAcdSimulation } from './operations/acd-simulation.js'
import { acdSupervisionOperations } from './operations/acd-supervision.js'
import { tellAgents } from './operations/acd-support.js'
import { basicOperations } from './operations/basic.js'
import { callbackOperations } from './operations/callbacks.js'
import { conferenceOperations } from './operations/conference.js'
import { deskSharingOperations } from './operations/desk-sharing.js'
import { directoryDeviceOperations } from './operations/directory-devices.js'
import { dispatchQueues, hasWaitingCalls, noteIdleMembers } from './operations/hunting.js'
import { huntingOperations } from './operations/hunting-membership.js'
import { interphonyOperations } from './operations/interphony.js'
import { intrusionOperations } from './operations/intrusion.js'
import { mediaOperations } from './operations/media.js'
import { parkOperations } from './operations/park.js'
import { reconnectOperations } from './operations/reconnect.js'
import { redirectOperations } from './operations/redirect.js'
import { simulationOperations } from './operations/simulation.js'
import { transferOperations } from './operations/transfer.js'
import { restoredState } from './restored-state.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'
import { Transaction } from './transaction.js'

/** Every command but `restoreState`, which replaces the state rather than run on it (restored-state.ts). */
type OperationType = Exclude<EngineCommand['type'], 'restoreState'>
type Operations = { [T in OperationType]: Operation<Extract<EngineCommand, { type: T }>> }

const OPERATIONS: Operations = {
  ...basicOperations,
  ...transferOperations,
  ...conferenceOperations,
  ...redirectOperations,
  ...parkOperations,
  ...callbackOperations,
  ...mediaOperations,
  ...simulationOperations,
  ...directoryDeviceOperations,
  ...huntingOperations,
  ...reconnectOperations,
  ...intrusionOperations,
  ...interphonyOperations,
  ...deskSharingOperations,
  ...acdAgentOperations,
  ...acdPilotOperations,
  ...acdSupervisionOperations,
  ...acdSimulationOperations,
}

/**
 * Each supervisor of a user whose state changed is told (OnSupervisedUpdated, package groups; docs/groups.md,
 * "Supervision groups"), after the command's own events.
 */
function tellSupervisors(transaction: Transaction, context: EngineContext): void {
  const { events } = transaction
  const count = events.length
  for (let index = 0; index < count; index++) {
    const event = events[index]
    if (event?.eventName !== 'OnUserStateModified') continue
    const supervised = event.loginName
    for (const { groupId, supervisors } of context.directory.supervisorsOf?.(supervised) ?? [])
      for (const loginName of supervisors)
        events.push({
          eventName: 'OnSupervisedUpdated',
          loginName,
          groupId,
          supervised: { loginName: supervised, state: event['state'] },
        })
  }
}

/** Runs `command` at `now`; throws PlatformError (NOT_FOUND, NOT_EXPECTED, BAD_PARAMETER) and changes nothing when refused. */
export function execute(
  state: TelephonyState,
  command: EngineCommand,
  now: number,
  context: EngineContext,
): EngineResult {
  if (command.type === 'restoreState') return restoredState(state, command.target)
  const transaction = new Transaction(state, context.directory, now)
  const operation = OPERATIONS[command.type] as Operation
  const callRef = operation(transaction, command, context)
  transaction.commit()
  // What the command did to the contact center's calls and agents (operations/acd-distribution.ts).
  if (transaction.state.acd !== undefined) settleAcd(transaction, context)
  // Calls waiting for a hunting group go to the members this command left free (operations/hunting.ts).
  if (hasWaitingCalls(transaction.state.huntingGroups)) {
    transaction.emitUserStates()
    dispatchQueues(transaction, context)
  }
  // Calls waiting in the contact center's queues go to the agents who are ready and free.
  if (hasWaitingAcdCalls(transaction.state.acd)) {
    transaction.emitUserStates()
    dispatchAcd(transaction, context)
  }
  // The simulated floor's timers follow what the command did to its calls and agents (acd-simulation.ts).
  if (transaction.state.acdSimulation !== undefined) followAcdSimulation(transaction)
  transaction.finish()
  if (transaction.state.acd !== undefined) tellAgents(transaction)
  noteIdleMembers(transaction)
  if (context.directory.supervisorsOf !== undefined) tellSupervisors(transaction, context)
  return {
    state: transaction.state,
    events: transaction.events,
    changes: transaction.changes,
    ...(callRef && { callRef }),
  }
}
