/**
 * Routing management (service `Routing`, wire facts 8.3 and 9): capabilities, presentation routes (remote
 * extension), do not disturb, forward and overflow routes, the routing state and its event.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'

/** `forwardType` values; a ForwardRoute without one forwards every call at once (wire facts 8.3). */
export const FORWARD_TYPES = ['BUSY', 'NO_ANSWER', 'BUSY_NO_ANSWER'] as const
export type ForwardType = (typeof FORWARD_TYPES)[number]
export const ForwardType = enumeration(FORWARD_TYPES, { title: 'ForwardType' })

/** Destination `type` values the SDKs send or read (`NONE` is client-side only). */
export const DESTINATION_TYPES = ['VOICEMAIL', 'NUMBER', 'MOBILE', 'ASSOCIATE', 'NONE'] as const
export type DestinationType = (typeof DESTINATION_TYPES)[number]

export const Destination = Type.Object(
  {
    type: enumeration(DESTINATION_TYPES, { title: 'DestinationType' }),
    number: Type.Optional(Type.String({ description: 'the number a NUMBER destination dials' })),
    selected: Type.Optional(Type.Boolean({ description: 'MOBILE: the remote extension is on' })),
  },
  { title: 'Destination' },
)
export type Destination = Static<typeof Destination>

export const RoutingCapabilities = Type.Object(
  {
    presentationRoute: Type.Boolean(),
    forwardRoute: Type.Boolean(),
    overflowRoute: Type.Boolean(),
    dnd: Type.Boolean(),
  },
  { title: 'RoutingCapabilities' },
)
export type RoutingCapabilities = Static<typeof RoutingCapabilities>

export const PresentationRoute = Type.Object(
  { destinations: Type.Array(Destination) },
  { title: 'PresentationRoute' },
)
export type PresentationRoute = Static<typeof PresentationRoute>

export const ForwardRoute = Type.Object(
  {
    forwardType: Type.Optional(ForwardType),
    destinations: Type.Array(Destination),
  },
  { title: 'ForwardRoute' },
)
export type ForwardRoute = Static<typeof ForwardRoute>

export const OverflowRoute = Type.Object(
  {
    overflowType: Type.Optional(ForwardType),
    destinations: Type.Array(Destination),
  },
  { title: 'OverflowRoute' },
)
export type OverflowRoute = Static<typeof OverflowRoute>

export const DndState = Type.Object({ activate: Type.Boolean() }, { title: 'DndState' })
export type DndState = Static<typeof DndState>

export const RoutingState = Type.Object(
  {
    presentationRoutes: Type.Optional(Type.Array(PresentationRoute)),
    forwardRoutes: Type.Optional(Type.Array(ForwardRoute)),
    overflowRoutes: Type.Optional(Type.Array(OverflowRoute)),
    dndState: Type.Optional(DndState),
  },
  { title: 'RoutingState' },
)
export type RoutingState = Static<typeof RoutingState>

/** POST /routing: the remote extension (a MOBILE destination) on or off. */
export const SetPresentationRoutesRequest = Type.Object(
  { presentationRoutes: Type.Array(PresentationRoute, { minItems: 1 }) },
  { title: 'SetPresentationRoutesRequest' },
)
export type SetPresentationRoutesRequest = Static<typeof SetPresentationRoutesRequest>

export const SetForwardRouteRequest = Type.Object(
  { forwardRoute: ForwardRoute },
  { title: 'SetForwardRouteRequest' },
)
export type SetForwardRouteRequest = Static<typeof SetForwardRouteRequest>

/** The Java SDK sends `overflowRoutes` as a list, the Node SDK as one object (wire facts 8.3): both. */
export const SetOverflowRouteRequest = Type.Object(
  { overflowRoutes: Type.Union([Type.Array(OverflowRoute, { minItems: 1 }), OverflowRoute]) },
  { title: 'SetOverflowRouteRequest' },
)
export type SetOverflowRouteRequest = Static<typeof SetOverflowRouteRequest>

export const ROUTING_ERROR_TYPES = [
  'UNKNOWN',
  'BAD_PARAMETER_VALUE',
  'UNAUTHORIZED',
  'INVALID_OPERATION',
  'INCOMPLETE_PHONE_NUMBER',
  'UNKNOWN_PHONE_NUMBER',
] as const
export type RoutingErrorType = (typeof ROUTING_ERROR_TYPES)[number]

export const ROUTING_ERROR_CAUSES = [
  'UNKNOWN',
  'BAD_PHONE_NUMBER_FORMAT',
  'INVALID_CURRENT_DEVICE',
  'INVALID_FORWARD_ROUTE',
  'INVALID_OVERFLOW_ROUTE',
  'NULL_OR_EMPTY_PARAMETER',
  'NULL_PARAMETER',
  'UNAUTHORIZED_CANCEL_OVERFLOW',
  'UNAUTHORIZED_NOT_A_USER',
  'UNAUTHORIZED_OVERFLOW',
  'UNAUTHORIZED_PHONE_NUMBER',
] as const
export type RoutingErrorCause = (typeof ROUTING_ERROR_CAUSES)[number]

/** RestErrorInfo.routing: why a routing request was refused (wire facts 9; diagnostic only). */
export const RoutingErrorInfo = Type.Object(
  {
    errorType: enumeration(ROUTING_ERROR_TYPES, { title: 'RoutingErrorType' }),
    errorCause: enumeration(ROUTING_ERROR_CAUSES, { title: 'RoutingErrorCause' }),
    message: Type.String(),
  },
  { title: 'RoutingErrorInfo' },
)
export type RoutingErrorInfo = Static<typeof RoutingErrorInfo>

/** After every change of a user's routing, and on POST /routing/state/snapshot. */
export const OnRoutingStateChanged = Type.Object(
  {
    eventName: Type.Literal('OnRoutingStateChanged'),
    loginName: Type.String(),
    routingState: RoutingState,
  },
  { title: 'OnRoutingStateChanged' },
)
export type OnRoutingStateChanged = Static<typeof OnRoutingStateChanged>

/** A routing change was refused (its request answered 4xx with the same `routing` details). */
export const OnRoutingManagementFailed = Type.Object(
  {
    eventName: Type.Literal('OnRoutingManagementFailed'),
    loginName: Type.String(),
    routing: RoutingErrorInfo,
  },
  { title: 'OnRoutingManagementFailed' },
)
export type OnRoutingManagementFailed = Static<typeof OnRoutingManagementFailed>
