/** The authentication result (specification, "Root and authentication"; wire facts 2.2). */
import { type Static, Type } from 'typebox'

export const AuthenticateResult = Type.Object(
  {
    credential: Type.String({ description: 'the token, also set as the SvcUserId cookie' }),
    publicUrl: Type.String({ description: 'URL of the sessions resource for public access' }),
    internalUrl: Type.String({ description: 'URL of the sessions resource for private access' }),
  },
  { title: 'AuthenticateResult' },
)
export type AuthenticateResult = Static<typeof AuthenticateResult>
