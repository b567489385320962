/**
 * What the Redis adapter of the way to the call engine's owner keeps, and how (docs/cluster-engine.md, "Commands
 * from other nodes"): the stream of requests, read by the owner through a consumer group; the answers remembered
 * by request id; each node's reply channel. Shared by the submitting side and the owner's consumer.
 */
import type { Redis } from 'ioredis'
import type { EngineOutcome, EngineRequest } from '../../platform/telephony/engine-request.js'

/** The stream of requests submitted and not yet answered (answered entries are deleted). */
export const ENGINE_COMMANDS_KEY = 'engine:commands'
/** The consumer group the engine's owner reads the stream through: one group, one consumer at a time. */
export const ENGINE_GROUP = 'engine'

/** The answer remembered for a request, kept for the answer retention. */
export function engineAnswerKey(requestId: string): string {
  return `engine-answer:${requestId}`
}

/**
 * A node's reply channel. ioredis prefixes keys but not channels: the channel carries the client's prefix
 * itself, so that clusters sharing a Redis never hear each other.
 */
export function replyChannel(client: Redis, nodeId: string): string {
  return `${client.options.keyPrefix ?? ''}node:${nodeId}:replies`
}

/** A request as the stream holds it. */
export interface CommandEntry {
  /** The stream entry's id. */
  entryId: string
  requestId: string
  /** The node that submitted it, whose reply channel gets the answer. */
  nodeId: string
  /** When the submitter stops waiting (its clock, in milliseconds): the owner does not start it later. */
  deadline: number
  request: EngineRequest
}

/** The fields of a request's entry, for XADD. */
export function entryFields(entry: Omit<CommandEntry, 'entryId'>): string[] {
  return [
    'id',
    entry.requestId,
    'node',
    entry.nodeId,
    'deadline',
    String(entry.deadline),
    'request',
    JSON.stringify(entry.request),
  ]
}

/** A request read from the stream, or undefined when its fields are not a request's. */
export function parseEntry(entryId: string, fields: readonly string[]): CommandEntry | undefined {
  const values = new Map<string, string>()
  for (let index = 0; index + 1 < fields.length; index += 2)
    values.set(fields[index] as string, fields[index + 1] as string)
  const requestId = values.get('id')
  const nodeId = values.get('node')
  const deadline = Number(values.get('deadline'))
  const request = values.get('request')
  if (requestId === undefined || nodeId === undefined || request === undefined) return undefined
  if (!Number.isFinite(deadline)) return undefined
  try {
    return { entryId, requestId, nodeId, deadline, request: JSON.parse(request) as EngineRequest }
  } catch {
    return undefined
  }
}

/** What the owner publishes on a node's reply channel. */
export interface Reply {
  requestId: string
  outcome: EngineOutcome
}
