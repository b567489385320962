/**
 * Requests forwarded to the call engine's owner and their answers (docs/cluster-engine.md, "Commands from other
 * nodes"): a node that does not own the engine hands an engine command, or a snapshot, to the owner, which runs
 * it on its TelephonyService and answers with the command's result and the number of the batch that stored
 * it, or with the PlatformError that refused it. Answers cross nodes as plain JSON (`EngineOutcome`): a
 * refusal keeps its error type and messages, so that the submitting node throws the same PlatformError the
 * owner's engine threw.
 */
import type { RoutingErrorInfo } from '@openness/wire'
import { PlatformError } from '../platform-error.js'
import { EngineFencedError } from './engine-fenced-error.js'
import type { CommandResult } from './telephony.js'
import type { EngineCommand } from './telephony-state.js'

/** What a node asks the engine's owner to run: a command, or a user's telephonic state snapshot. */
export type EngineRequest =
  | { kind: 'command'; command: EngineCommand }
  | { kind: 'snapshot'; loginName: string }

/** The answer to a request that ran: its result (no events for a snapshot) and the batch that stored it. */
export interface EngineAnswer {
  result: CommandResult
  /** The number of the batch that stored the request: a node's replica shows its effect once it got there. */
  batch: number
}

/** Runs a request on the owner's engine; resolves once it is stored, rejects as TelephonyService does. */
/** Runs a forwarded request on the owner; `requestId` is its id (the same on each attempt to run it). */
export type EngineRequestHandler = (
  request: EngineRequest,
  requestId: string,
) => Promise<EngineAnswer>

/** How a request ended, as the owner sends it back and remembers it: plain JSON. */
export type EngineOutcome =
  | { answer: EngineAnswer }
  | {
      refused: {
        type: PlatformError['type']
        message: string
        innerMessage?: string
        routing?: RoutingErrorInfo
      }
    }
  /** Anything else that failed it (the store's error): nothing of the request happened. */
  | { failed: string }

/**
 * Runs `request` through `handler` and tells how it ended; undefined when the owner's term ended under it
 * (the store refused its batch with EngineFencedError): the request is then left to the next owner, which
 * runs it, since nothing of it was stored.
 */
export async function runEngineRequest(
  handler: EngineRequestHandler,
  request: EngineRequest,
  requestId: string,
): Promise<EngineOutcome | undefined> {
  try {
    return { answer: await handler(request, requestId) }
  } catch (error) {
    if (error instanceof EngineFencedError) return undefined
    if (error instanceof PlatformError)
      return {
        refused: {
          type: error.type,
          message: error.message,
          ...(error.innerMessage !== undefined && { innerMessage: error.innerMessage }),
          ...(error.routing !== undefined && { routing: error.routing }),
        },
      }
    return { failed: error instanceof Error ? error.message : String(error) }
  }
}

/** The answer an outcome carries, or the error it stands for, rebuilt on the submitting node. */
export function settleEngineOutcome(outcome: EngineOutcome): EngineAnswer {
  if ('answer' in outcome) return outcome.answer
  if ('refused' in outcome) {
    const { type, message, innerMessage, routing } = outcome.refused
    throw new PlatformError(type, message, innerMessage, routing)
  }
  throw new Error(`The engine's owner could not run the request: ${outcome.failed}`)
}
