/**
 * Voice mail for the operator (docs/control-plane.md, "Voice mail"): upload the recording the next message
 * left in a user's mailbox carries (by anyone, or by one caller), instead of the tones the platform makes.
 * The body is the WAV file itself (`Content-Type: audio/wav`), read with the WAV library and at most
 * MAX_VOICE_MESSAGE_BYTES long.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory } from '../../platform/directory/directory.js'
import { PlatformError } from '../../platform/platform-error.js'
import type { VoicemailService } from '../../platform/voicemail/voicemail-service.js'
import { MAX_VOICE_MESSAGE_BYTES, readWav } from '../../platform/voicemail/wav-audio.js'
import { existingUser } from './users.js'

const LoginParams = Type.Object({ loginName: Type.String() })
const RecordingQuery = Type.Object({
  from: Type.Optional(
    Type.String({ description: 'only for a message from this caller (number or login name)' }),
  ),
})
const Queued = Type.Object(
  {
    pending: Type.Integer({ description: 'recordings now waiting for messages of this mailbox' }),
    seconds: Type.Number({ description: 'the length of the uploaded audio' }),
  },
  { title: 'QueuedRecording' },
)
const WAV_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'application/octet-stream']

/** `/users/{loginName}/voicemail/recordings`. */
export const voicemailRoutes: FastifyPluginAsyncTypebox<{
  directory: Directory
  voicemail: VoicemailService
}> = async (app, { directory, voicemail }) => {
  app.addContentTypeParser(WAV_TYPES, { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  )

  app.post(
    '/users/:loginName/voicemail/recordings',
    {
      bodyLimit: MAX_VOICE_MESSAGE_BYTES,
      schema: {
        summary:
          "A WAV recording for the next message left in the user's mailbox (by `from` only, if given)",
        tags: ['voicemail'],
        params: LoginParams,
        querystring: RecordingQuery,
        consumes: WAV_TYPES,
        body: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
        response: { 201: Queued, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const user = existingUser(directory, request.params.loginName)
      const body = request.body
      if (!Buffer.isBuffer(body))
        throw new PlatformError('BAD_PARAMETER', 'body: send the WAV file as audio/wav')
      let seconds: number
      try {
        seconds = readWav(body).seconds
      } catch (error) {
        throw new PlatformError(
          'BAD_PARAMETER',
          `body: not a WAV file: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
      const pending = voicemail.queueRecording(
        user.loginName,
        new Uint8Array(body),
        request.query.from,
      )
      return reply.code(201).send({ pending, seconds })
    },
  )
}
