/**
 * The simulated platform's health (docs/control-plane.md, "Platform health"; docs/system-status.md): the link
 * to the PBX node and the CTI link go down and up, and a license expiry warning is given or withdrawn. Each
 * change shows in `GET /api/rest/1.0/system/status` and publishes its `system` events to administrator
 * subscriptions; setting a state already in force changes nothing and publishes nothing.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { PlatformError } from '../../platform/platform-error.js'
import type { PlatformHealth } from '../../platform/system/platform-health-store.js'
import {
  MAX_LICENSE_DAYS,
  type SystemStatusService,
} from '../../platform/system/system-status-service.js'
import { bodyOf, isoTime, optionalStringField } from './route-support.js'

const Health = Type.Object(
  {
    pbxLinkUp: Type.Boolean(),
    ctiLinkUp: Type.Boolean(),
    pbxLoaded: Type.Boolean(),
    licenseWarning: Type.Union(
      [
        Type.Object({
          nbDays: Type.Integer(),
          message: Type.String(),
          givenAt: Type.String({ format: 'date-time' }),
        }),
        Type.Null(),
      ],
      { description: 'null when none is in force' },
    ),
  },
  { title: 'ControlPlatformHealth' },
)
const Link = Type.Object(
  { up: Type.Boolean({ description: 'true: the link comes up; false: it goes down' }) },
  { additionalProperties: false, title: 'ControlLinkState' },
)
const LicenseWarning = Type.Object(
  {
    nbDays: Type.Integer({
      minimum: -MAX_LICENSE_DAYS,
      maximum: MAX_LICENSE_DAYS,
      description: 'days left before the license file expires; negative: days since it expired',
    }),
    message: Type.Optional(Type.String({ minLength: 1, description: 'the alarm text' })),
  },
  { additionalProperties: false, title: 'ControlLicenseWarning' },
)
const tags = ['health']
const answers = { 200: Health, ...errorResponses(400, 401, 403) }

function shown(health: PlatformHealth) {
  const warning = health.licenseWarning
  return {
    pbxLinkUp: health.pbxLinkUp,
    ctiLinkUp: health.ctiLinkUp,
    pbxLoaded: health.pbxLoaded,
    licenseWarning:
      warning === undefined
        ? null
        : { nbDays: warning.nbDays, message: warning.message, givenAt: isoTime(warning.givenAt) },
  }
}

/** The `up` field of a link body. */
function upField(body: unknown): boolean {
  const { up } = bodyOf(body, ['up'])
  if (typeof up !== 'boolean') throw new PlatformError('BAD_PARAMETER', 'up: required, a boolean')
  return up
}

/** `/health`. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ system: SystemStatusService }> = async (
  app,
  { system },
) => {
  app.get(
    '/health',
    {
      schema: {
        summary: "The simulated platform's health: links to the PBX node, license warning",
        tags,
        response: { 200: Health, ...errorResponses(401) },
      },
    },
    async () => shown(await system.health()),
  )

  app.put(
    '/health/pbx-link',
    {
      schema: {
        summary: 'The link to the PBX node goes down or comes up',
        description:
          'Down: OnPbxLinkDown, and OnCtiLinkDown when the CTI link was up; the node is no longer ' +
          'loaded. Up: OnPbxLinkUp, OnPbxLoaded, OnCtiLinkUp (the CTI link comes up with it).',
        tags,
        body: Link,
        response: answers,
      },
    },
    async (request) => shown(await system.setPbxLink(upField(request.body))),
  )

  app.put(
    '/health/cti-link',
    {
      schema: {
        summary: 'The CTI link to the PBX node goes down or comes up (OnCtiLinkDown, OnCtiLinkUp)',
        description: '403 NOT_EXPECTED to bring it up while the PBX link is down.',
        tags,
        body: Link,
        response: answers,
      },
    },
    async (request) => shown(await system.setCtiLink(upField(request.body))),
  )

  app.put(
    '/health/license-warning',
    {
      schema: {
        summary: 'A license expiry warning: OnLicenseExpiration {message, nbDays}',
        description:
          'The status then shows the expiration date on every license and the status EXPIRING, or ' +
          'EXPIRED once the date is reached. Giving a warning again replaces it and publishes again.',
        tags,
        body: LicenseWarning,
        response: answers,
      },
    },
    async (request) => {
      const fields = bodyOf(request.body, ['nbDays', 'message'])
      const { nbDays } = fields
      if (typeof nbDays !== 'number')
        throw new PlatformError(
          'BAD_PARAMETER',
          `nbDays: required, an integer from -${MAX_LICENSE_DAYS} to ${MAX_LICENSE_DAYS}`,
        )
      return shown(await system.warnLicenseExpiry(nbDays, optionalStringField(fields, 'message')))
    },
  )

  app.delete(
    '/health/license-warning',
    {
      schema: {
        summary: 'Withdraws the license warning (nothing happens when there is none; no event)',
        tags,
        response: answers,
      },
    },
    async () => shown(await system.clearLicenseWarning()),
  )
}
