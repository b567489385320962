/**
 * Fault injection (docs/control-plane.md, "Faults"): the public API not ready for a while (503 NOT_READY with
 * Retry-After), or a simulated switch-over of the platform: every session dropped, with its licenses, its
 * subscriptions and their channels, and the API not ready meanwhile; calls in progress stay. One fault at a
 * time: a new one replaces the one in force.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Readiness, Unreadiness } from '../../platform/readiness.js'
import type { SessionCloseCause } from '../../platform/sessions/session-state.js'
import { bodyOf, isoTime, secondsBody, secondsField } from './route-support.js'

/** What a switch-over needs of the sessions (SessionManager). */
export interface SessionCloser {
  /** Closes every open session; answers how many. */
  closeAll(cause: SessionCloseCause): Promise<number>
  /** Voids the account's unused credentials and closes its open sessions (its password changed). */
  passwordChanged(loginName: string): Promise<number>
}

/**
 * A node of a cluster (docs/cluster.md): there a switch-over is real, the loss of the node that was asked, which
 * the other nodes survive with every session; `lose` ends this node's process at once, as `kill -9` does.
 */
export interface LosableNode {
  nodeId: string
  lose(): void
}

/** How long the API is not ready after a switch-over when the body does not say. */
export const DEFAULT_SWITCH_OVER_SECONDS = 5

const Fault = Type.Object(
  {
    type: Type.Union([Type.Literal('NOT_READY'), Type.Literal('SWITCH_OVER')]),
    since: Type.String({ format: 'date-time' }),
    until: Type.String({ format: 'date-time', description: 'when the API serves again' }),
    remainingSeconds: Type.Integer({ description: 'what Retry-After says now' }),
  },
  { title: 'ControlFault' },
)
const CurrentFault = Type.Object(
  { fault: Type.Union([Fault, Type.Null()], { description: 'null when the service is ready' }) },
  { title: 'ControlCurrentFault' },
)
const SwitchOverResult = Type.Object(
  {
    fault: Fault,
    sessionsClosed: Type.Integer(),
    nodeLost: Type.Optional(
      Type.String({
        description:
          'in a cluster: the node that answered, which ends right after (sessions stay, on the other nodes)',
      }),
    ),
  },
  { title: 'ControlSwitchOver' },
)
const NotReady = secondsBody(
  'ControlNotReady',
  'how long the API answers 503 NOT_READY, in seconds, at most a day',
)
const SwitchOver = secondsBody(
  'ControlSwitchOverRequest',
  `how long the API is not ready after the sessions are dropped, in seconds (default ${DEFAULT_SWITCH_OVER_SECONDS}), at most a day`,
  true,
)
const tags = ['faults']

/** `/faults`. */
export const faultRoutes: FastifyPluginAsyncTypebox<{
  readiness: Readiness
  sessions: SessionCloser
  /** Set in a cluster: the switch-over is this node's real loss, not a simulation. */
  node?: LosableNode
}> = async (app, { readiness, sessions, node }) => {
  const shown = (fault: Unreadiness) => ({
    type: fault.cause,
    since: isoTime(fault.since),
    until: isoTime(fault.until),
    remainingSeconds: readiness.secondsLeft(fault),
  })

  app.get(
    '/faults',
    {
      schema: {
        summary: 'The fault in force, or null',
        tags,
        response: { 200: CurrentFault, ...errorResponses(401) },
      },
    },
    async () => {
      const { fault } = readiness
      return { fault: fault === undefined ? null : shown(fault) }
    },
  )

  app.post(
    '/faults/not-ready',
    {
      schema: {
        summary: 'The API answers 503 NOT_READY, with Retry-After, for a number of seconds',
        description:
          'Every request under /api/rest but the root GET /api/rest; sessions, subscriptions and ' +
          'calls stay. Ends by itself on the clock, or with DELETE /faults.',
        tags,
        body: NotReady,
        response: { 200: CurrentFault, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const ms = secondsField(bodyOf(request.body, ['seconds']), 'seconds')
      const fault = shown(readiness.notReadyFor(ms, 'NOT_READY'))
      request.log.info({ fault: fault.type, until: fault.until }, 'fault injected')
      return { fault }
    },
  )

  app.post(
    '/faults/switch-over',
    {
      schema: {
        summary:
          'A switch-over of the platform: every session is dropped, then NOT_READY for a while',
        description:
          'Every open session closes (its licenses released, its subscriptions removed and their chunk ' +
          'channels closed); the API answers 503 NOT_READY meanwhile, then 403 INVALID_SESSION to the ' +
          'old sessions. Calls in progress stay. In a cluster the switch-over is real: the node that ' +
          'answered ends at once (nodeLost), and the others keep every session, subscription and call.',
        tags,
        body: SwitchOver,
        response: { 200: SwitchOverResult, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const fields = bodyOf(request.body, ['seconds'])
      const ms = secondsField(fields, 'seconds', DEFAULT_SWITCH_OVER_SECONDS)
      if (node !== undefined) {
        // The answer goes out first; then the node ends as a crashed one does, with no drain and no goodbye.
        reply.raw.once('finish', () => node.lose())
        request.log.info({ fault: 'SWITCH_OVER', nodeLost: node.nodeId }, 'fault injected')
        const now = isoTime(Date.now())
        const fault = { type: 'SWITCH_OVER' as const, since: now, until: now, remainingSeconds: 0 }
        return { fault, sessionsClosed: 0, nodeLost: node.nodeId }
      }
      const fault = readiness.notReadyFor(ms, 'SWITCH_OVER')
      const sessionsClosed = await sessions.closeAll('SWITCH_OVER')
      request.log.info(
        { fault: fault.cause, until: isoTime(fault.until), sessionsClosed },
        'fault injected',
      )
      return { fault: shown(fault), sessionsClosed }
    },
  )

  app.delete(
    '/faults',
    {
      schema: {
        summary: 'Ends the fault in force now (nothing happens when there is none)',
        tags,
        response: { 204: Type.Null(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const fault = readiness.fault
      if (readiness.clear()) request.log.info({ fault: fault?.cause }, 'fault cleared')
      return reply.code(204).send(null)
    },
  )
}
