/**
 * User information (specification, "User information"; wire facts 7): lookup, the User record,
 * password, preferences and telephony preferences. The per-account routes are served under /users and,
 * because an administrator session's Users service points to /logins, under /logins as well; so is the
 * look-up (routes/logins.ts).
 */

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  ChangePasswordRequest,
  SupportedLanguages,
  TelephonyPreferences,
  User,
  UserPreferences,
  UserPreferencesResponse,
} from '@openness/wire'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { UserLookupKey } from '../../platform/directory/directory.js'
import { PlatformError } from '../../platform/platform-error.js'
import { clientDialectOf } from '../../platform/subscriptions/client-dialect.js'
import { ownUserFor, sessionOf, userFor } from '../access.js'
import { API_V1_PATH } from '../base-urls.js'
import { errorResponses } from '../error-responses.js'
import { theOneParameter } from '../one-parameter.js'

/** The content type Fastify gives a JSON answer. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** Sends JSON already written: a string under a JSON content type is sent as it is, not serialized again. */
function sendJson(reply: FastifyReply, json: string): void {
  reply.header('content-type', JSON_CONTENT_TYPE).send(json)
}

const LoginParams = Type.Object({ loginName: Type.String({ minLength: 1 }) })
const config = { session: 'open' as const }
const tags = ['users']

/** The look-up keys of GET /users, in the specification's order of the table. */
export const LOOKUP_KEYS: readonly UserLookupKey[] = [
  'loginName',
  'companyEmail',
  'instantMessagingId',
  'companyPhone',
]

/** The query parameters of a look-up, each optional (exactly one is given). */
export const LOOKUP_QUERY = {
  loginName: Type.Optional(Type.String()),
  companyEmail: Type.Optional(Type.String()),
  instantMessagingId: Type.Optional(Type.String()),
  companyPhone: Type.Optional(Type.String()),
}

/** The look-up keys a query gives. */
export function lookupKeysIn(query: Partial<Record<UserLookupKey, string>>): UserLookupKey[] {
  return LOOKUP_KEYS.filter((key) => query[key] !== undefined)
}

/**
 * Answers a look-up by one key: 307 to `{base}/{loginName}` (the collection the client addressed, so
 * that it stays on the Users service it was given), the User itself to a client that cannot follow
 * redirects, 400 unless exactly one key is given, 404 when no user matches.
 */
export function lookUpUser(
  request: FastifyRequest,
  reply: FastifyReply,
  query: Partial<Record<UserLookupKey, string>>,
  base: string,
) {
  const key = theOneParameter(query, LOOKUP_KEYS)
  const value = query[key] as string
  const { directory } = request.server.platform
  const user = directory.findUserBy(key, value)
  if (user === undefined) throw new PlatformError('NOT_FOUND', `No user with ${key} '${value}'`)
  // The Java SDK's HttpClient cannot follow redirects (wire facts 7): it gets the User directly.
  if (clientDialectOf(request.headers['user-agent']) === 'java') {
    const { privileged } = userFor(request, user.loginName)
    return directory.userView(user, privileged)
  }
  return reply.code(307).header('location', `${base}/${user.loginName}`).send(null)
}

/** GET /users: find a user by exactly one key; 307 to its resource. */
export const userLookupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Users')
  app.get(
    '/users',
    {
      config,
      schema: {
        operationId: 'findUser',
        summary:
          'Find a user by exactly one of loginName, companyEmail, instantMessagingId, companyPhone',
        tags,
        querystring: Type.Object(LOOKUP_QUERY),
        response: { 200: User, 307: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => lookUpUser(request, reply, request.query, `${API_V1_PATH}/users`),
  )
}

/** Options of the account routes. */
export interface UserAccountRoutesOptions {
  /**
   * Appended to the routes' operationIds: the same routes answer under /users and /logins (app.ts), and each
   * operation of the OpenAPI document needs an operationId of its own.
   */
  operationIdSuffix?: string
}

/** The routes of one account: `/{loginName}`, its password and preferences. */
export const userAccountRoutes: FastifyPluginAsyncTypebox<UserAccountRoutesOptions> = async (
  app,
  options,
) => {
  const { directory } = app.platform
  const named = (operationId: string) => `${operationId}${options.operationIdSuffix ?? ''}`

  app.get(
    '/:loginName',
    {
      config,
      schema: {
        operationId: named('getUser'),
        summary: 'The user; starred fields only for the owner or an administrator session',
        tags,
        params: LoginParams,
        response: { 200: User, ...errorResponses(404) },
      },
    },
    // Synchronous: the authenticated read is the hottest path of the API, and the answer sent (or an error
    // thrown) goes out at once, with no promise to settle. The account's JSON is kept by the directory, written
    // once by this route's serializer, and sent as it is (docs/performance.md, "auth-read").
    (request, reply) => {
      const { user, privileged } = userFor(request, request.params.loginName)
      // The route's serializer, compiled from its User schema, writes strings.
      const json = directory.userViewJson(
        user,
        privileged,
        (view) => reply.serialize(view) as string,
      )
      sendJson(reply, json)
    },
  )

  app.put(
    '/:loginName/password',
    {
      config,
      schema: {
        operationId: named('changePassword'),
        summary: 'Change the password; the old one is checked',
        tags,
        params: LoginParams,
        body: ChangePasswordRequest,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const { loginName } = request.params
      const own = session.actingAs === loginName
      if (!own) {
        if (!session.admin)
          throw new PlatformError(
            'NOT_ALLOWED',
            `A user session cannot change the password of '${loginName}'`,
          )
        ownUserFor(request, loginName)
      }
      await directory.changePassword(loginName, request.body.oldPassword, request.body.newPassword)
      // The account's other sessions end and its unused credentials are void; this session stays.
      await request.server.platform.sessions.passwordChanged(loginName, session)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/:loginName/preferences',
    {
      config,
      schema: {
        operationId: named('getPreferences'),
        summary: 'The user preferences',
        tags,
        params: LoginParams,
        response: { 200: UserPreferencesResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const preferences = directory.preferences(ownUserFor(request, request.params.loginName))
      return preferences.tuiLanguage === undefined
        ? preferences
        : { ...preferences, oxeLanguage: preferences.tuiLanguage }
    },
  )

  app.post(
    '/:loginName/preferences',
    {
      config,
      schema: {
        operationId: named('setPreferences'),
        summary:
          'Change preferences: present fields replace, an empty string clears, absent fields stay',
        tags,
        params: LoginParams,
        body: UserPreferences,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await directory.updatePreferences(ownUserFor(request, request.params.loginName), request.body)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/:loginName/preferences/telephony',
    {
      config,
      schema: {
        operationId: named('getTelephonyPreferences'),
        summary: 'The telephony preferences',
        tags,
        params: LoginParams,
        response: { 200: TelephonyPreferences, ...errorResponses(404) },
      },
    },
    async (request) => ({
      clirMode: directory.clirMode(ownUserFor(request, request.params.loginName)),
    }),
  )

  app.post(
    '/:loginName/preferences/telephony',
    {
      config,
      schema: {
        operationId: named('setTelephonyPreferences'),
        summary: 'Change the telephony preferences',
        tags,
        params: LoginParams,
        body: TelephonyPreferences,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const user = ownUserFor(request, request.params.loginName)
      await directory.updatePreferences(user, { telephony: request.body })
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/:loginName/preferences/supportedLanguages',
    {
      config,
      schema: {
        operationId: named('getSupportedLanguages'),
        summary: 'Languages the user may choose (called by real clients; not in the specification)',
        tags,
        params: LoginParams,
        response: { 200: SupportedLanguages, ...errorResponses(404) },
      },
    },
    async (request) => {
      ownUserFor(request, request.params.loginName)
      const { languages } = directory.settings
      return {
        supportedLanguages: languages.tui,
        supportedGuiLanguages: languages.gui,
        SupportedLanguages: languages.tui,
        SupportedGuiLanguages: languages.gui,
      }
    },
  )
}
