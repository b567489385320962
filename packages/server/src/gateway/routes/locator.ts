/**
 * The location service and the vCards it locates (docs/vcard.md): `GET /api/rest/locator/services` gives,
 * for VCARD, the absolute base URL that a User's or a PartyInfo's `vcardPath` is relative to; the vCard of
 * every directory user is served at that base + `<login name, URL-encoded>.vcf`, for any open session.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LOCATABLE_SERVICES, LocatedServices, LocatorQuery } from '@openness/wire'
import { Type } from 'typebox'
import { VCARD_SUFFIX } from '../../platform/directory/vcard-path.js'
import { PlatformError } from '../../platform/platform-error.js'
import { API_PATH, API_V1_PATH, baseOrigins } from '../base-urls.js'
import { errorResponses } from '../error-responses.js'
import { userVcard } from '../vcard.js'

/** Where the vCards are, under the API of version 1.0. */
export const VCARD_PATH = '/vcard/'

/** The services the `names` parameter asks for; BAD_PARAMETER when it names none that exists. */
function requestedServices(names: string | undefined): readonly string[] {
  if (names === undefined) return LOCATABLE_SERVICES
  const asked = names
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  if (asked.length === 0)
    throw new PlatformError(
      'BAD_PARAMETER',
      'query parameter names: give at least one service name',
    )
  const unknown = asked.find((name) => !(LOCATABLE_SERVICES as readonly string[]).includes(name))
  if (unknown !== undefined)
    throw new PlatformError(
      'BAD_PARAMETER',
      `query parameter names: no service '${unknown}' (known: ${LOCATABLE_SERVICES.join(', ')})`,
    )
  return [...new Set(asked)]
}

/** `GET /api/rest/locator/services`: public, like the root resource it sits beside. */
export const locatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${API_PATH}/locator/services`,
    {
      config: { session: 'none' },
      schema: {
        operationId: 'locateServices',
        summary: 'The base URLs of the located services (VCARD: the base of vcardPath)',
        tags: ['locator'],
        querystring: LocatorQuery,
        response: { 200: LocatedServices, ...errorResponses() },
      },
    },
    async (request) => {
      const origins = baseOrigins(request)
      return requestedServices(request.query.names).map((name) => ({
        name,
        url: `${origins.public}${API_V1_PATH}${VCARD_PATH}`,
        internalUrl: `${origins.private}${API_V1_PATH}${VCARD_PATH}`,
      }))
    },
  )
}

/** `GET /api/rest/1.0/vcard/{loginName}.vcf`: the vCard of a directory user, for any open session. */
export const vcardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${VCARD_PATH}:file`,
    {
      schema: {
        operationId: 'getVCard',
        summary: "A directory user's vCard 4.0 (text/vcard)",
        tags: ['locator'],
        params: Type.Object({ file: Type.String({ description: '<login name>.vcf' }) }),
        produces: ['text/vcard'],
        response: {
          200: Type.String({ description: 'vCard 4.0 (RFC 6350)' }),
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params
      if (!file.endsWith(VCARD_SUFFIX))
        throw new PlatformError(
          'NOT_FOUND',
          `No vCard '${file}': vCard paths end with ${VCARD_SUFFIX}`,
        )
      const loginName = file.slice(0, -VCARD_SUFFIX.length)
      const { directory } = request.server.platform
      const account = directory.findUser(loginName)
      if (account === undefined) throw new PlatformError('NOT_FOUND', `No user '${loginName}'`)
      const { companyName, numberingPlan } = directory.settings
      const prefix = numberingPlan.publicNumberPrefix
      const phone = account.record.companyPhone
      const publicNumber =
        prefix?.startsWith('+') && phone !== undefined && /^\d+$/.test(phone)
          ? `${prefix}${phone}`
          : undefined
      const text = userVcard(directory.userView(account, true), loginName, {
        name: companyName,
        ...(publicNumber !== undefined && { publicNumber }),
      })
      return reply
        .type('text/vcard; charset=utf-8')
        .header('content-disposition', `inline; filename="${encodeURIComponent(loginName)}.vcf"`)
        .send(text)
    },
  )
}
