/**
 * The service's clock (docs/control-plane.md, "The clock"): read it, and set it forward so that what waits on
 * time (ringing, outside parties' delays, park, session and subscription timeouts) happens as if the time had
 * passed, without waiting.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import type { AdjustableTime } from '../../clock/adjustable-time.js'
import { errorResponses } from '../../gateway/error-responses.js'
import {
  bodyOf,
  type ControlTelephony,
  isoTime,
  secondsBody,
  secondsField,
} from './route-support.js'

const ClockState = Type.Object(
  {
    now: Type.String({ format: 'date-time', description: "the service's time" }),
    aheadSeconds: Type.Optional(
      Type.Number({ description: "how far the clock was set ahead of the system's time" }),
    ),
  },
  { title: 'ControlClock' },
)
const Advance = secondsBody(
  'ControlClockAdvance',
  'how far to set the clock forward, in seconds (fractions allowed), at most a day',
)
const tags = ['clock']

/** `/clock`. */
export const clockRoutes: FastifyPluginAsyncTypebox<{
  clock: AdjustableTime
  telephony?: ControlTelephony
}> = async (app, { clock, telephony }) => {
  const state = () => ({
    now: isoTime(clock.now()),
    ...(clock.offsetMs !== undefined && { aheadSeconds: clock.offsetMs / 1000 }),
  })

  app.get(
    '/clock',
    {
      schema: {
        summary: "The service's time",
        tags,
        response: { 200: ClockState, ...errorResponses(401) },
      },
    },
    async () => state(),
  )

  app.post(
    '/clock/advance',
    {
      schema: {
        summary: "Sets the service's clock forward: what falls due happens now, in time order",
        description:
          'The timers due by the new time fire at once, earliest first, at the new time: ringing ' +
          "timeouts, outside parties' delays, park timeouts, session and subscription timeouts. The " +
          'answer comes once the call engine has run what they started. The clock never goes back.',
        tags,
        body: Advance,
        response: { 200: ClockState, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const ms = secondsField(bodyOf(request.body, ['seconds']), 'seconds')
      const from = clock.now()
      await clock.advance(ms)
      await telephony?.idle()
      const answer = state()
      request.log.info(
        { from: isoTime(from), to: answer.now, seconds: ms / 1000 },
        'clock advanced',
      )
      return answer
    },
  )
}
