/**
 * Session management (specification, "Session management" and the session lifecycle table; wire facts
 * 2.3 and 2.4). The odd statuses of the specification live here: a second POST with the same credential
 * is 403, DELETE of a closed session 403, DELETE without any session 500, keepalive without one 403.
 */

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  CAPABILITY_OF_RIGHT,
  SessionInfo,
  type SessionInfo as SessionInfoType,
  SessionRequest,
} from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import { PlatformError } from '../../platform/platform-error.js'
import type { Session } from '../../platform/sessions/session.js'
import { API_V1_PATH, baseOrigins } from '../base-urls.js'
import { readSessionCookie } from '../cookies.js'
import { errorResponses } from '../error-responses.js'
import { RestError } from '../rest-error.js'

const iso = (ms: number) => new Date(ms).toISOString()

/** The SessionInfo of a session as the requester sees it. */
export async function sessionInfo(
  request: FastifyRequest,
  session: Session,
): Promise<SessionInfoType> {
  const { sessions, services } = request.server.platform
  const origins = baseOrigins(request)
  const otherSessions = await sessions.otherSessions(session)
  return {
    admin: session.admin,
    timeToLive: sessions.timing.timeToLiveSeconds,
    publicBaseUrl: `${origins.public}${API_V1_PATH}`,
    privateBaseUrl: `${origins.private}${API_V1_PATH}`,
    services: services.servicesFor(session),
    capabilities: session.rights.map((right) => CAPABILITY_OF_RIGHT[right]),
    sessionId: session.sessionId,
    login: session.actingAs,
    creationDate: iso(session.createdAt),
    expirationDate: iso(session.expiresAt),
    otherSessions: otherSessions.map((other) => ({
      sessionId: other.sessionId,
      creationDate: iso(other.createdAt),
      timeToLive: Math.max(
        0,
        Math.round((other.expiresAt - request.server.platform.clock.now()) / 1000),
      ),
    })),
  }
}

const noSession = () =>
  new RestError('INVALID_SESSION', 'No open session for this credential: log in and open a session')

const alreadyClosed = () => new RestError('INVALID_SESSION', 'The session is already closed')

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { sessions } = app.platform
  const tags = ['sessions']

  app.post(
    '/sessions',
    {
      config: { session: 'cookie' },
      schema: {
        operationId: 'openSession',
        summary: 'Open the session of the credential in the SvcUserId cookie',
        tags,
        body: SessionRequest,
        response: { 200: SessionInfo, ...errorResponses(404) },
      },
    },
    async (request) => {
      const session = await sessions.open(readSessionCookie(request), request.body)
      // The session opened is the request's from now on: the journal records whose it was (docs/journal.md).
      request.session = session
      return sessionInfo(request, session)
    },
  )

  app.get(
    '/sessions',
    {
      config: { session: 'open' },
      schema: {
        operationId: 'getSessionInfo',
        summary: 'The current session',
        tags,
        querystring: Type.Object({ applicationName: Type.Optional(Type.String()) }),
        response: { 200: SessionInfo, ...errorResponses() },
      },
    },
    async (request) => sessionInfo(request, request.session as Session),
  )

  app.delete(
    '/sessions',
    {
      config: { session: 'cookie' },
      schema: {
        operationId: 'closeSession',
        summary: 'Close the session and release everything it held',
        tags,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (request, reply) => {
      const status = await sessions.status(readSessionCookie(request))
      switch (status.state) {
        case 'OPEN':
          // A concurrent DELETE (or the sweep) closed it since the status: it is closed already.
          if (!(await sessions.close(status.session))) throw alreadyClosed()
          return reply.code(204).send(null)
        case 'CLOSED':
          throw alreadyClosed()
        case 'NO_SESSION':
          // Specification, "Errors" rule 4: closing a session that does not exist answers 500.
          throw new RestError('SERVER_PROBLEM', 'No session was opened with this credential', 500)
        case 'UNKNOWN':
          throw noSession()
      }
    },
  )

  for (const method of ['POST', 'HEAD'] as const) {
    app.route({
      method,
      url: '/sessions/keepalive',
      // The HEAD form is a route of its own (the specification mentions it), so the OpenAPI document shows it
      // (keepAliveHead), unlike the HEAD twins Fastify gives GET routes.
      config: { session: 'cookie', swagger: { exposeHeadRoute: method === 'HEAD' } },
      schema: {
        operationId: 'keepAlive',
        summary: 'Restart the session timer',
        tags,
        response: { 204: Type.Null(), ...errorResponses() },
      },
      handler: async (request, reply) => {
        if (!(await sessions.keepalive(readSessionCookie(request)))) throw noSession()
        return reply.code(204).send(null)
      },
    })
  }

  app.post(
    '/sessions/release',
    {
      config: { session: 'open' },
      schema: {
        operationId: 'releaseSession',
        summary: 'Release another open session of the same account, with the licenses it held',
        description:
          'The text/plain body is the sessionId of the session to release, as listed in SessionInfo.otherSessions.',
        tags,
        body: Type.String({ minLength: 1, description: 'sessionId of the session to release' }),
        response: { 200: SessionInfo, ...errorResponses(404) },
      },
    },
    async (request) => {
      const session = request.session as Session
      // The schema cannot coerce a body that is the whole document: a JSON false or 123 passes it unchanged.
      if (typeof request.body !== 'string')
        throw new PlatformError(
          'BAD_PARAMETER',
          'body: the sessionId of the session to release, as text (or a JSON string)',
        )
      await sessions.release(session, request.body.trim())
      return sessionInfo(request, session)
    },
  )
}
