/**
 * Voice mail (service `voicemail`, `/messaging/mailboxes`; wire facts 8.5, docs/voicemail.md): the user's
 * mailbox, its counters, its messages listed, downloaded as WAV files (a download, or the Node SDK's
 * `Range: bytes=0-1` acknowledge, marks the message read) and deleted. A user session needs the MESSAGING
 * license; an administrator session names the user with `loginName`.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { Mailboxes, MailboxInfo, VoiceMessages } from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import { PlatformError } from '../../platform/platform-error.js'
import { loginNameRule, sessionOf } from '../access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery, loginNameParameter } from '../login-name-query.js'
import { RestError } from '../rest-error.js'

const tags = ['voicemail']

/** The first page when the client names none (the Node SDK sends `limit` only when above 0). */
export const DEFAULT_VOICEMAIL_LIMIT = 100
export const MAX_VOICEMAIL_LIMIT = 1000

const MailboxParams = Type.Object({ mailboxId: Type.String() })
const MessageParams = Type.Object({ mailboxId: Type.String(), voicemailId: Type.String() })
const InfoQuery = Type.Object({
  loginName: loginNameParameter,
  withUserPwd: Type.Optional(
    Type.String({ description: 'present: the session user’s own password opens the mailbox' }),
  ),
})
const InfoBody = Type.Object({
  password: Type.Optional(Type.String({ description: 'the mailbox password' })),
})
const ListQuery = Type.Object({
  loginName: loginNameParameter,
  newOnly: Type.Optional(Type.Boolean()),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0 })),
})
const DeleteQuery = Type.Object({
  loginName: loginNameParameter,
  msgIds: Type.Optional(Type.String({ description: 'the ids to delete, separated by `;`' })),
})
const noContent = { 204: Type.Null() }
/** A WAV file (never serialized: the route sends its bytes). */
const WavFile = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: 'audio/wav',
})

/** The user the request acts for; NOT_ALLOWED for a user session without the MESSAGING license. */
function actingUser(request: FastifyRequest, loginName: string | undefined): string {
  const session = sessionOf(request)
  if (!session.admin && !session.rights.includes('MESSAGING'))
    throw new PlatformError('NOT_ALLOWED', 'Voice mail needs the MESSAGING license')
  return loginNameRule(request, loginName).loginName
}

export const voicemailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Voicemail')

  app.get(
    '',
    {
      schema: {
        operationId: 'getMailboxes',
        summary: "The user's mailboxes: the one the platform hosts, or none",
        tags,
        querystring: LoginNameQuery,
        response: { 200: Mailboxes, ...errorResponses() },
      },
    },
    async (request) => {
      const user = actingUser(request, request.query.loginName)
      return { mailboxes: request.server.platform.voicemail.mailboxes(user) }
    },
  )

  app.post(
    '/:mailboxId',
    {
      schema: {
        operationId: 'getMailboxInfo',
        summary: 'Open the mailbox with its password (or withUserPwd): its counters',
        tags,
        params: MailboxParams,
        querystring: InfoQuery,
        body: InfoBody,
        response: { 200: MailboxInfo, ...errorResponses(404) },
      },
    },
    async (request) => {
      const user = actingUser(request, request.query.loginName)
      const password = request.body?.password
      const withUserPwd = request.query.withUserPwd !== undefined
      if (!withUserPwd && password === undefined)
        throw new PlatformError(
          'BAD_PARAMETER',
          'body password: required unless the query names withUserPwd',
        )
      const { mailboxId } = request.params
      return request.server.platform.voicemail.info(
        user,
        mailboxId,
        withUserPwd || password === undefined
          ? undefined
          : () => checkMailboxPassword(request, mailboxId, password),
      )
    },
  )

  app.get(
    '/:mailboxId/voicemails',
    {
      schema: {
        operationId: 'getVoiceMessages',
        summary: "The mailbox's messages, newest first (newOnly: the unread ones)",
        tags,
        params: MailboxParams,
        querystring: ListQuery,
        response: { 200: VoiceMessages, ...errorResponses(404) },
      },
    },
    async (request) => {
      const user = actingUser(request, request.query.loginName)
      const asked = request.query.limit ?? 0
      const voicemails = await request.server.platform.voicemail.list(
        user,
        request.params.mailboxId,
        {
          newOnly: request.query.newOnly === true,
          offset: request.query.offset ?? 0,
          limit: asked > 0 ? Math.min(asked, MAX_VOICEMAIL_LIMIT) : DEFAULT_VOICEMAIL_LIMIT,
        },
      )
      return { voicemails }
    },
  )

  app.get(
    '/:mailboxId/voicemails/:voicemailId',
    {
      schema: {
        operationId: 'downloadVoiceMessage',
        summary: 'The message as a WAV file, then read (a Range request gets those bytes: 206)',
        tags,
        params: MessageParams,
        querystring: LoginNameQuery,
        response: { 200: WavFile, 206: WavFile, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const user = actingUser(request, request.query.loginName)
      const { mailboxId, voicemailId } = request.params
      const range = request.headers.range
      let bounds: [number, number] | undefined
      const { audio } = await request.server.platform.voicemail.download(
        user,
        mailboxId,
        voicemailId,
        (wav) => {
          if (range !== undefined) bounds = byteRange(range, wav.byteLength)
        },
      )
      reply
        .header('content-type', 'audio/wav')
        .header('content-disposition', `attachment; filename=${voicemailId}.wav`)
        .header('accept-ranges', 'bytes')
      const bytes = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength)
      if (bounds === undefined) return reply.code(200).send(bytes)
      const [start, end] = bounds
      return reply
        .code(206)
        .header('content-range', `bytes ${start}-${end}/${bytes.byteLength}`)
        .send(bytes.subarray(start, end + 1))
    },
  )

  app.delete(
    '/:mailboxId/voicemails',
    {
      schema: {
        operationId: 'deleteVoiceMessages',
        summary: 'Delete the messages of msgIds (separated by `;`)',
        tags,
        params: MailboxParams,
        querystring: DeleteQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const user = actingUser(request, request.query.loginName)
      const ids = (request.query.msgIds ?? '')
        .split(';')
        .map((id) => id.trim())
        .filter((id) => id !== '')
      if (ids.length === 0)
        throw new PlatformError('BAD_PARAMETER', 'query parameter msgIds: names no message')
      await request.server.platform.voicemail.delete(user, request.params.mailboxId, ids)
      return reply.code(204).send(null)
    },
  )

  app.delete(
    '/:mailboxId/voicemails/:voicemailId',
    {
      schema: {
        operationId: 'deleteVoiceMessage',
        summary: 'Delete one message',
        tags,
        params: MessageParams,
        querystring: LoginNameQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const user = actingUser(request, request.query.loginName)
      const { mailboxId, voicemailId } = request.params
      await request.server.platform.voicemail.delete(user, mailboxId, [voicemailId])
      return reply.code(204).send(null)
    },
  )
}

/**
 * The first and last byte of a `Range: bytes=a-b` header (one range; `a-` to the end, `-n` the last n);
 * BAD_PARAMETER naming the header for anything else or a range outside the file.
 */
function byteRange(header: string, size: number): [number, number] {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  const [, from = '', to = ''] = match ?? []
  let start: number
  let end: number
  if (from === '' && to !== '') {
    start = Math.max(0, size - Number(to))
    end = size - 1
  } else {
    start = Number(from)
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  }
  if (match === null || (from === '' && to === '') || start > end || start >= size)
    throw new PlatformError('BAD_PARAMETER', `header Range: not a range of the file: ${header}`)
  return [start, end]
}

/**
 * The mailbox password is its owner's login password (docs/voicemail.md), so it is checked through the
 * authenticator: a wrong one counts toward the same lock as a failed login, by login name and by address,
 * and a locked account is refused before any check.
 */
async function checkMailboxPassword(
  request: FastifyRequest,
  mailboxId: string,
  password: string,
): Promise<void> {
  const result = await request.server.platform.authenticator.authenticate(
    mailboxId,
    password,
    request.ip,
  )
  if (result.ok) return
  if (result.reason === 'LOCKED') {
    const retryAfter = String(Math.ceil(result.retryAfterMs / 1000))
    throw new RestError(
      'NOT_ALLOWED',
      `password: too many failed attempts, mailbox '${mailboxId}' is locked for ${retryAfter} s`,
      403,
      { 'retry-after': retryAfter },
    )
  }
  throw new PlatformError('NOT_ALLOWED', `password: not the password of mailbox '${mailboxId}'`)
}
