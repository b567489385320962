/**
 * What the call engine's operations are made of (call-engine.ts runs them): a command's context and outcome, the
 * shape of an operation, and the simulated platform's settings. Types the operations share with the engine, in a
 * module of their own so that neither imports the other's.
 */
import type { PlatformEvent } from '../events.js'
import type { RoutingLookup } from '../routing/routing-profile.js'
import type { CallChanges } from './call-changes.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'
import type { Transaction } from './transaction.js'

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
