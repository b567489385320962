/**
 * Outside parties (docs/control-plane.md, "Outside parties"): the numbers outside the platform, told to answer,
 * reject or hang up. Each is one command of the running call engine; its refusals are RestErrorInfo.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { PlatformError } from '../../platform/platform-error.js'
import { actionRoute, bodyOf, type ControlTelephony, NumberParams } from './route-support.js'

const Reject = Type.Object(
  {
    cause: Type.Optional(
      Type.Union([Type.Literal('BUSY'), Type.Literal('DESTINATION_NOT_OBTAINABLE')], {
        description: 'BUSY, or DESTINATION_NOT_OBTAINABLE (the default)',
      }),
    ),
  },
  { additionalProperties: false, title: 'SimulatedReject' },
)
const tags = ['outside parties']
const params = NumberParams

/** `/outside/{number}/...`, over the running call engine. */
export const outsidePartyRoutes: FastifyPluginAsyncTypebox<{
  telephony: ControlTelephony
}> = async (app, { telephony }) => {
  actionRoute(
    app,
    '/outside/:number/answer',
    {
      summary: 'The outside party answers the call that rings there (the first one)',
      tags,
      params,
    },
    async ({ number = '' }) => telephony.execute({ type: 'outsidePartyAnswers', number }),
  )

  actionRoute(
    app,
    '/outside/:number/reject',
    {
      summary: 'The outside party rejects the call that rings there (the first one)',
      tags,
      params,
      body: Reject,
    },
    async ({ number = '' }, body) => {
      const { cause } = bodyOf(body, ['cause'])
      if (cause !== undefined && cause !== 'BUSY' && cause !== 'DESTINATION_NOT_OBTAINABLE')
        throw new PlatformError(
          'BAD_PARAMETER',
          'cause: must be BUSY or DESTINATION_NOT_OBTAINABLE',
        )
      return telephony.execute({
        type: 'outsidePartyRejects',
        number,
        ...(cause !== undefined && { cause }),
      })
    },
  )

  actionRoute(
    app,
    '/outside/:number/hangup',
    { summary: 'The outside party hangs up: it leaves every call it is in', tags, params },
    async ({ number = '' }) => telephony.execute({ type: 'outsidePartyHangsUp', number }),
  )
}
