/** Session records (specification, "Session"; wire facts 2.3). */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'

export const SUPERVISED_ACCOUNT_TYPES = [
  'LOGIN_NAME',
  'PHONE_NUMBER',
  'EMAIL',
  'INSTANT_MESSAGING_ID',
] as const
export const SupervisedAccountType = enumeration(SUPERVISED_ACCOUNT_TYPES, {
  title: 'SupervisedAccountType',
})
export type SupervisedAccountType = (typeof SUPERVISED_ACCOUNT_TYPES)[number]

export const SupervisedAccount = Type.Object(
  { id: Type.String({ minLength: 1 }), type: SupervisedAccountType },
  { title: 'SupervisedAccount' },
)

export const SessionRequest = Type.Object(
  {
    applicationName: Type.String({
      minLength: 1,
      description: 'used to check rights or take a particular license',
    }),
    applicationAddress: Type.Optional(Type.String()),
    supervisedAccount: Type.Optional(SupervisedAccount),
  },
  { title: 'SessionRequest' },
)
export type SessionRequest = Static<typeof SessionRequest>

export const Service = Type.Object(
  {
    serviceName: Type.String(),
    serviceVersion: Type.Optional(Type.String()),
    relativeUrl: Type.String(),
  },
  { title: 'Service' },
)
export type Service = Static<typeof Service>

/** Another open session of the same account (wire facts 2.3: otherSessions). */
export const OtherSession = Type.Object(
  {
    sessionId: Type.String(),
    creationDate: Type.String({ description: 'ISO 8601' }),
    timeToLive: Type.Integer(),
  },
  { title: 'OtherSession' },
)

export const SessionInfo = Type.Object(
  {
    admin: Type.Optional(Type.Boolean({ description: 'true if opened by an administrator' })),
    timeToLive: Type.Integer({ description: 'session duration in seconds' }),
    publicBaseUrl: Type.Optional(Type.String()),
    privateBaseUrl: Type.String(),
    services: Type.Array(Service),
    capabilities: Type.Array(Type.String()),
    sessionId: Type.Optional(Type.String({ description: 'public identifier of this session' })),
    login: Type.Optional(Type.String({ description: 'login name the session acts as' })),
    creationDate: Type.Optional(Type.String({ description: 'ISO 8601' })),
    expirationDate: Type.Optional(Type.String({ description: 'ISO 8601, moves with every use' })),
    otherSessions: Type.Optional(Type.Array(OtherSession)),
  },
  { title: 'SessionInfo' },
)
export type SessionInfo = Static<typeof SessionInfo>

/** The SessionInfo.capabilities name of each license (specification: "e.g. BASIC_TELEPHONY"). */
export const CAPABILITY_OF_RIGHT = {
  TELEPHONY_BASIC: 'BASIC_TELEPHONY',
  TELEPHONY_ADVANCED: 'ADVANCED_TELEPHONY',
  MESSAGING: 'MESSAGING',
  CONFERENCING: 'CONFERENCING',
} as const
