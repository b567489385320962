/**
 * The `loginName` query parameter of the operations marked L (specification, "Endpoints" common rules):
 * ignored for a user session, required for an administrator session (access.ts, `loginNameRule`). The
 * telephony rows declare their own (telephony/route-support.ts), since there the device or the call may
 * name the user instead.
 */
import { Type } from '@fastify/type-provider-typebox'

export const loginNameParameter = Type.Optional(
  Type.String({
    description:
      'the user an administrator session acts for (required then); ignored for a user session',
  }),
)

/** A query of `loginName` alone. */
export const LoginNameQuery = Type.Object({ loginName: loginNameParameter })
