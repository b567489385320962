/**
 * What every call-control route shares: the `loginName` query (the L rule), the path parameters, the 204
 * answer of a command, and running a command on the engine.
 */
import { Type } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import type { EngineCommand } from '../../../platform/telephony/telephony-state.js'

export const tags = ['telephony']

/** Operations marked L (and, for SDK compatibility, every other: telephony-access.ts). */
export const LoginQuery = Type.Object({
  loginName: Type.Optional(
    Type.String({
      description:
        'the user an administrator session acts for; without it, the owner of the device the request names, else the only user in the call it names (400 when neither identifies one); ignored for a user session',
    }),
  ),
})

export const CallRefParams = Type.Object({ callRef: Type.String() })
export const DeviceParams = Type.Object({ deviceId: Type.String() })

/** The empty answer of a command. */
export const noContent = { 204: Type.Null() }

/**
 * Runs an engine command (its PlatformError answers as RestErrorInfo), then answers 204. A request sent with an
 * Idempotency-Key runs it under the key's id: a retry is answered from the command run, never runs it twice.
 */
export async function runCommand(
  reply: FastifyReply,
  command: EngineCommand,
): Promise<FastifyReply> {
  await reply.server.platform.telephony.execute(command, reply.request.idempotency?.requestId)
  return reply.code(204).send(null)
}
