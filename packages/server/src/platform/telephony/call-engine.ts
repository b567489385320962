/**
 * The call engine: a pure function `(state, command, now) -> (state', events, timers)` (design section 2;
 * issue 4). The same state, command and time give the same events byte for byte.
 */
import type { CallChanges, PlatformEvent } from '../ports.js'
import type { RoutingLookup } from '../routing/routing-profile.js'
import { basicOperations } from './operations/basic.js'
import { callbackOperations } from './operations/callbacks.js'
import { conferenceOperations } from './operations/conference.js'
import { directoryDeviceOperations } from './operations/directory-devices.js'
import { mediaOperations } from './operations/media.js'
import { parkOperations } from './operations/park.js'
import { redirectOperations } from './operations/redirect.js'
import { simulationOperations } from './operations/simulation.js'
import { transferOperations } from './operations/transfer.js'
import { restoredState } from './restored-state.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'
import { Transaction } from './transaction.js'

/** Settings of the simulated platform. */
export interface EngineSettings {
  /** An unanswered call is released after this long. */
  ringingTimeoutMs: number
  /** A parked call is recalled to the device it was parked from after this long (default 60 s). */
  parkTimeoutMs?: number
  /** A device with autoAnswer answers after ringing this long (operations/ringing.ts; default 1 s). */
  autoAnswerDelayMs?: number
}

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = { ringingTimeoutMs: 30_000 }

/** What a command needs besides the state. */
export interface EngineContext {
  directory: TelephonyDirectory
  settings: EngineSettings
  /** The users' routing (operations/routing.ts); without it, no user has any. */
  routing?: RoutingLookup
}

/** The outcome of a command. */
export interface EngineResult {
  state: TelephonyState
  events: PlatformEvent[]
  /** The calls the command changed and removed: what a store writes. */
  changes: CallChanges
  /** The command's answer where it has one (the callRef of a new call). */
  callRef?: string
}

/** Runs one command on a transaction. */
export type Operation<C extends EngineCommand = EngineCommand> = (
  transaction: Transaction,
  command: C,
  context: EngineContext,
) => string | undefined

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
  transaction.finish()
  return {
    state: transaction.state,
    events: transaction.events,
    changes: transaction.changes,
    ...(callRef && { callRef }),
  }
}
