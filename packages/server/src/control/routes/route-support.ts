/**
 * What the control plane's simulation, clock and fault routes share (docs/control-plane.md): the parts of the
 * running service they act on, the checks of their bodies (RestErrorInfo BAD_PARAMETER naming the field;
 * these bodies are not directory documents, so the routes check them), and the route of an action that
 * answers 204.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import { type TSchema, Type } from 'typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { PlatformError } from '../../platform/platform-error.js'
import type { CommandResult } from '../../platform/telephony/telephony.js'
import type { TelephonyQueries } from '../../platform/telephony/telephony-queries.js'
import type { EngineCommand } from '../../platform/telephony/telephony-state.js'

/** The control plane's Fastify instance. */
export type ControlInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

/**
 * What the control plane needs of the running call engine (TelephonyService): its commands, run in turn
 * with the API's, and reads of its state, never the state itself.
 */
export interface ControlTelephony {
  execute(command: EngineCommand): Promise<CommandResult>
  /** Resolves once every command queued so far (timers' included) is done. */
  idle(): Promise<void>
  readonly queries: Pick<
    TelephonyQueries,
    'liveCalls' | 'device' | 'allHuntingGroups' | 'deskSharingSeats' | 'acdState' | 'acdSimulation'
  >
}

/** The longest a clock step or a fault may be: a day. */
export const MAX_SECONDS = 86_400

export const DeviceParams = Type.Object({ deviceId: Type.String() })
export const NumberParams = Type.Object({ number: Type.String() })
/** The answers of an action: 204, or its refusals. */
export const DONE = { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) }

/** The body as an object with only `allowed` fields (an empty body counts as `{}`); BAD_PARAMETER otherwise. */
export function bodyOf(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  const value = body ?? {}
  if (typeof value !== 'object' || Array.isArray(value))
    throw new PlatformError('BAD_PARAMETER', 'The body must be a JSON object')
  const fields = value as Record<string, unknown>
  const unknown = Object.keys(fields).filter((key) => !allowed.includes(key))
  if (unknown.length > 0)
    throw new PlatformError(
      'BAD_PARAMETER',
      `${unknown.join(', ')}: not a known field (known fields: ${allowed.join(', ') || 'none'})`,
    )
  return fields
}

/** A required non-empty string field. */
export function stringField(fields: Record<string, unknown>, name: string): string {
  const value = fields[name]
  if (typeof value !== 'string' || value === '')
    throw new PlatformError('BAD_PARAMETER', `${name}: required, a non-empty string`)
  return value
}

/** An optional non-empty string field. */
export function optionalStringField(
  fields: Record<string, unknown>,
  name: string,
): string | undefined {
  return fields[name] === undefined ? undefined : stringField(fields, name)
}

/** A number of seconds, more than 0 and at most a day, in milliseconds; `fallback` when absent, if given. */
export function secondsField(
  fields: Record<string, unknown>,
  name: string,
  fallback?: number,
): number {
  const value = fields[name] ?? fallback
  if (typeof value !== 'number' || !(value > 0 && value <= MAX_SECONDS))
    throw new PlatformError(
      'BAD_PARAMETER',
      `${name}: ${value === undefined ? 'required, ' : ''}a number of seconds, more than 0 and at most ${MAX_SECONDS} (a day)`,
    )
  return Math.round(value * 1000)
}

/** The body schema of the routes that take a number of seconds, for the OpenAPI document. */
export function secondsBody(title: string, description: string, optional = false) {
  const seconds = Type.Number({ exclusiveMinimum: 0, maximum: MAX_SECONDS, description })
  return Type.Object(
    { seconds: optional ? Type.Optional(seconds) : seconds },
    { additionalProperties: false, title },
  )
}

/** A time of the service's clock as the control plane shows it. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString()
}

/** What an action route shows in the OpenAPI document. */
interface ActionSchema {
  summary: string
  description?: string
  tags: string[]
  params: TSchema
  /** Its body, described only: `act` checks it. */
  body?: TSchema
}

/** `POST url`: does `act` with the path parameters and the body, and answers 204. */
export function actionRoute(
  app: ControlInstance,
  url: string,
  schema: ActionSchema,
  act: (params: Readonly<Record<string, string>>, body: unknown) => Promise<unknown>,
): void {
  app.post(url, { schema: { ...schema, response: DONE } }, async (request, reply) => {
    await act(request.params as Record<string, string>, request.body)
    return reply.code(204).send(null)
  })
}

/** An engine refusal that names the engine's field, `from`, renamed to the route's field, `to`. */
export function renameField(error: unknown, from: string, to: string): unknown {
  if (error instanceof PlatformError && error.message.startsWith(`${from}: `))
    return new PlatformError(
      error.type,
      `${to}: ${error.message.slice(from.length + 2)}`,
      error.innerMessage,
    )
  return error
}
