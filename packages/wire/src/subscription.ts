/** Subscription records (specification, "Subscriptions"; wire facts 4). */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'

export const NOTIFICATION_MODES = ['CHUNK', 'CHUNK_MULTIPART'] as const
export const NotificationMode = enumeration(NOTIFICATION_MODES, { title: 'NotificationMode' })
export type NotificationMode = (typeof NOTIFICATION_MODES)[number]

export const NOTIFICATION_FORMATS = ['JSON'] as const
export const NotificationFormat = enumeration(NOTIFICATION_FORMATS, { title: 'NotificationFormat' })

export const SUBSCRIPTION_STATES = ['UNKNOWN', 'ACCEPTED', 'REFUSED'] as const
export const SubscriptionState = enumeration(SUBSCRIPTION_STATES, { title: 'SubscriptionState' })
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number]

export const Selector = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "login names the events must be about; for the real product's packages (agent, pilot, rsi, system, pbxManagement, rti, acdstats) any ids, `*` included",
      }),
    ),
    names: Type.Array(Type.String(), {
      minItems: 1,
      description:
        "exact event names, or one event package name (the specification's packages and the real product's agent, pilot, rsi, system, pbxManagement, rti, acdstats)",
    }),
    families: Type.Optional(Type.Array(Type.String(), { description: 'accepted, not used' })),
    origins: Type.Optional(Type.Array(Type.String(), { description: 'accepted, not used' })),
  },
  { title: 'Selector' },
)
export type Selector = Static<typeof Selector>

export const Filter = Type.Object(
  { selectors: Type.Optional(Type.Array(Selector)) },
  { title: 'Filter' },
)
export type Filter = Static<typeof Filter>

export const SubscriptionRequest = Type.Object(
  {
    notificationUrl: Type.Optional(Type.String({ description: 'reserved, not used' })),
    filter: Type.Optional(Filter),
    appId: Type.Optional(Type.String()),
    mode: Type.Optional(NotificationMode),
    format: Type.Optional(NotificationFormat),
    sessionId: Type.Optional(Type.String({ description: 'reserved, not used' })),
    subscriptionId: Type.Optional(
      Type.String({ description: 'not used: the server chooses the id' }),
    ),
    token: Type.Optional(Type.String()),
    tokenRemote: Type.Optional(Type.String()),
    version: Type.String({ description: 'version of the events, e.g. 1.0' }),
    timeout: Type.Optional(
      Type.Integer({ description: 'minutes: 0 (follows the session) or 2 to 60; default 10' }),
    ),
    keepalive: Type.Optional(
      Type.Integer({
        description: 'minutes between keepalive messages, below timeout; 0 for none',
      }),
    ),
    init: Type.Optional(Type.Boolean({ description: 'reserved, not used' })),
    webHookUrl: Type.Optional(
      Type.String({
        description:
          'not in the specification (vendor Node SDK): http(s) URL the events are POSTed to, one JSON event per request, instead of a chunk channel; its host must be allowed by the operator',
      }),
    ),
  },
  { title: 'SubscriptionRequest' },
)
export type SubscriptionRequest = Static<typeof SubscriptionRequest>

export const Subscription = Type.Object(
  {
    subscriptionId: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    publicPollingUrl: Type.Optional(Type.String()),
    privatePollingUrl: Type.Optional(Type.String()),
    status: SubscriptionState,
    mode: Type.Optional(NotificationMode),
    format: Type.Optional(NotificationFormat),
  },
  { title: 'Subscription' },
)
export type Subscription = Static<typeof Subscription>
