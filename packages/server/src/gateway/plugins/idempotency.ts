/**
 * The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header; docs/idempotency.md):
 * a POST, PUT, DELETE or PATCH of the API sent with a key runs once per client and key. The first request with
 * a key claims it; its outcome is recorded and answered again, status, headers and body, to every retry with the
 * same key and request within the retention; the same key with another request is refused 422, and a retry while
 * the first still runs 409. A request whose answer is a server-side failure (5xx) frees its key: it may be sent
 * again with it. The key is scoped to the client's session cookie (the credential on POST /sessions), so two
 * clients' keys never meet. Requests without the header are untouched, and pay nothing but a header lookup.
 */
import { createHash, randomUUID } from 'node:crypto'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import type { IdempotentOutcome } from '../../platform/idempotency-store.js'
import { API_V1_PATH } from '../base-urls.js'
import { restErrorInfoRef } from '../error-responses.js'
import type { GatewayPlatform } from '../platform.js'
import { RestError } from '../rest-error.js'
import { sessionRequirementOf } from './session-resolver.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request claimed (set once claimed; undefined without a key or once recorded). */
    idempotency: ClaimedKey | undefined
  }
}

/** A key a request claimed and runs under. */
export interface ClaimedKey {
  /** The key as stored: the client's key, scoped to its session cookie, digested. */
  key: string
  /** This request's hold on it. */
  holder: string
  /**
   * The id a call engine command of this request runs under (EngineNode.execute): the same for every attempt
   * with the key, so that the engine answers a retry from the command already run rather than run it twice.
   */
  requestId: string
  renewal: ReturnType<typeof setInterval>
}

/** The header's name, as Node gives request headers. */
const HEADER = 'idempotency-key'
/** The longest key accepted (the draft sets none; Stripe's is 255). */
const MAX_KEY_LENGTH = 255
/** The longest a running request keeps its key renewed. */
const RENEWED_FOR_MS = 60_000
/** Methods a key applies to: those that are not safe (RFC 9110, 9.2.1). */
const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE', 'PATCH'])
/** Answer headers not answered again: the connection's, and those Node computes for each answer. */
const NOT_REPLAYED: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'date',
  'keep-alive',
  'transfer-encoding',
])

/** How the gateway keeps keys: the store, and how often a running request renews its claim (a third of a lease). */
export type IdempotencyOptions = GatewayPlatform['idempotency']

export const idempotency = fp(
  async (app: FastifyInstance, { store, renewEveryMs }: IdempotencyOptions) => {
    app.decorateRequest('idempotency', undefined)
    const { cookies } = app.platform

    /** Claims the request's key, or answers it (a replay, 409, 422) without running it. */
    const claimKey = async (
      request: FastifyRequest,
      reply: FastifyReply,
      header: string | string[],
    ): Promise<FastifyReply | undefined> => {
      const clientKey = keyOf(header)
      const token = cookies.read(request.headers.cookie)
      if (token === undefined) return undefined
      const key = digest(`${token}\n${clientKey}`)
      const holder = randomUUID()
      const claimed = await store.claim(key, fingerprintOf(request), holder)
      switch (claimed.kind) {
        case 'replay':
          return replay(reply, claimed.outcome)
        case 'mismatch':
          throw new RestError(
            'BAD_PARAMETER',
            `Idempotency-Key '${clientKey}' was sent before with another request: a key names one request`,
            422,
          )
        case 'busy':
          throw new RestError(
            'NOT_EXPECTED',
            `Idempotency-Key '${clientKey}': the request sent with it is still running; retry later`,
            409,
            { 'retry-after': '1' },
          )
      }
      // Renewed while the request runs, at most RENEWED_FOR_MS (no request runs that long: one whose answer never
      // came lets its key go), and no longer once the key is not its own (recorded, freed, taken over).
      let renewals = Math.ceil(RENEWED_FOR_MS / renewEveryMs)
      const renewal = setInterval(() => {
        if (--renewals < 0) return clearInterval(renewal)
        store.renew(key, holder).then(
          (held) => {
            if (!held) clearInterval(renewal)
          },
          (error: unknown) =>
            request.log.warn({ err: error }, 'an idempotency key was not renewed'),
        )
      }, renewEveryMs)
      renewal.unref()
      request.idempotency = { key, holder, requestId: `idempotency:${key}`, renewal }
      return undefined
    }

    /** Records the answer of a request that claimed its key (frees the key after a 5xx). */
    const recordOutcome = async (
      held: ClaimedKey,
      reply: FastifyReply,
      payload: unknown,
    ): Promise<void> => {
      clearInterval(held.renewal)
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload : null
      if (reply.statusCode >= 500 || (payload != null && body === null))
        await store.release(held.key, held.holder)
      else await store.complete(held.key, held.holder, outcomeOf(reply, body))
    }

    // Callback hooks: a request without the header (nearly all) allocates no promise for them.
    const claim: preHandlerHookHandler = (request, reply, done) => {
      const header = request.headers[HEADER]
      if (header === undefined) return done()
      claimKey(request, reply, header).then((answered) => {
        if (answered === undefined) done()
      }, done)
    }

    const record: onSendHookHandler = (request, reply, payload, done) => {
      const held = request.idempotency
      if (held === undefined) return done(null, payload)
      request.idempotency = undefined
      recordOutcome(held, reply, payload).then(
        () => done(null, payload),
        (error: unknown) => done(error as Error),
      )
    }

    app.addHook('onRoute', (route) => {
      if (!takesKeys(route)) return
      route.preHandler = [claim, ...hooks(route.preHandler)] as never
      route.onSend = [...hooks(route.onSend), record] as never
      if (route.schema?.response !== undefined)
        route.schema.response = {
          ...(route.schema.response as Record<number, unknown>),
          409: restErrorInfoRef,
          422: restErrorInfoRef,
        }
    })
  },
  { name: 'idempotency', dependencies: ['session-resolver'] },
)

/** The header as the OpenAPI document describes it on every operation that takes it (plugins/openapi.ts). */
export const IDEMPOTENCY_KEY_HEADERS = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      minLength: 1,
      maxLength: MAX_KEY_LENGTH,
      description:
        'Runs the request once: a retry with the same key and request gets the first answer again ' +
        '(IETF draft-ietf-httpapi-idempotency-key-header; docs/idempotency.md)',
    },
  },
} as const

/** Whether a key applies to the route: a method that is not safe, under the API, behind a session cookie. */
export function takesKeys(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  return (
    methods.some((method) => UNSAFE_METHODS.has(method)) &&
    route.url.startsWith(`${API_V1_PATH}/`) &&
    sessionRequirementOf(route) !== 'none'
  )
}

function hooks(declared: unknown): unknown[] {
  if (declared === undefined) return []
  return Array.isArray(declared) ? declared : [declared]
}

/**
 * The client's key: the draft's Structured Field string (`"…"`, its escapes undone), or, as most clients
 * send it (Stripe's convention), the bare value; 1 to 255 visible ASCII characters. Anything else is 400.
 */
export function keyOf(header: string | string[]): string {
  const value = Array.isArray(header) ? undefined : header.trim()
  const quoted =
    value !== undefined && value.length >= 2 && value.startsWith('"') && value.endsWith('"')
  const key = quoted ? value.slice(1, -1).replace(/\\(["\\])/g, '$1') : value
  if (
    key === undefined ||
    key.length === 0 ||
    key.length > MAX_KEY_LENGTH ||
    !/^[\x20-\x7e]+$/.test(key)
  )
    throw new RestError(
      'BAD_PARAMETER',
      `Idempotency-Key: one key of 1 to ${MAX_KEY_LENGTH} visible ASCII characters, bare or as a quoted string`,
    )
  return key
}

/** What names the request a key was sent with: its method, path with query, and body. */
function fingerprintOf(request: FastifyRequest): string {
  return digest(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
}

/** The request's outcome as its retries are answered. */
function outcomeOf(reply: FastifyReply, body: string | Buffer | null): IdempotentOutcome {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined && !NOT_REPLAYED.has(name))
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
  return { status: reply.statusCode, headers, body: body === null ? '' : body.toString('utf8') }
}

/** Answers a retry with the first request's outcome, saying so (`Idempotent-Replayed`). */
function replay(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  return reply
    .code(outcome.status)
    .headers({ ...outcome.headers, 'idempotent-replayed': 'true' })
    .send(outcome.body === '' ? undefined : outcome.body)
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url')
}
