/** The event catalog (specification, "Events": packages and payloads; wire facts 3, 6 and 7). */
import { type Static, Type } from 'typebox'
import { User, UserPreferences } from './user.js'

/** Event packages and their events, as the specification lists them. */
export const EVENT_PACKAGES = {
  telephony: [
    'OnCallCreated',
    'OnCallAppeared',
    'OnCallModified',
    'OnCallRemoved',
    'OnUserStateModified',
    'OnDeviceStateModified',
    'OnCallbackRequestAdded',
    'OnDeviceMuteSuccess',
    'OnDeviceMuteFailed',
    // Not in the specification's table: the answer to POST /telephony/state/snapshot, which the SDKs
    // parse (wire facts 5.4 and 6).
    'OnTelephonyState',
    // Not in the specification either: the hunting-group logon state, which the Node, Java and C# SDKs
    // register (and the browser SDK under the second name). The platform sends the first
    // (docs/groups.md); the second is a known name only.
    'OnDynamicStateChanged',
    'OnDynamicStateModified',
  ],
  eventSummary: ['OnEventSummaryUpdated'],
  unifiedComLog: [
    'OnComRecordCreated',
    'OnComRecordModified',
    'OnComRecordsDeleted',
    'OnComRecordsAck',
    'OnComRecordsUnAck',
  ],
  user: ['OnUserInfoChanged', 'OnPreferencesChanged'],
  userManagement: ['OnUserCreated', 'OnUserDeleted'],
  routingManagement: [
    'OnRoutingManagementFailed',
    'OnRoutingProfilesChanged',
    'OnRoutingStateChanged',
  ],
  instantMessaging: [
    'OnDeferredMessageCountersChanged',
    'OnImParticipantAdded',
    'OnImParticipantDropped',
    'OnImParticipantTyping',
    'OnImReceived',
  ],
  presence: ['OnUserPresenceUpdated', 'OnContactPresenceUpdated'],
  messaging: ['OnMessageAdded', 'OnMessageDeleted', 'OnMessageUpdated'],
  conference: ['OnConferenceCreated', 'OnConferenceModified', 'OnConferenceDeleted'],
  groups: [
    'OnGroupCreated',
    'OnGroupModified',
    'OnGroupRemoved',
    'OnSupervisedUpdated',
    'OnGroupLoggedFailed',
  ],
  // The packages below are not in the specification: the real product's call-center, RSI, PBX and
  // maintenance packages, which the SDKs name in selectors (wire facts 4; their event registries,
  // client census 4). Known names, so that a selector naming one is accepted; the platform serves the
  // events of `system` only (docs/subscriptions.md, "Packages"; docs/system-status.md).
  agent: [
    'OnAgentStateChanged',
    'OnAgentSkillChanged',
    'OnSupervisorHelpRequested',
    'OnSupervisorHelpCancelled',
  ],
  pilot: ['OnPilotCallCreated', 'OnPilotCallQueued', 'OnPilotCallRemoved'],
  rsi: [
    'OnRouteRequest',
    'OnRouteEnd',
    'OnDigitCollected',
    'OnToneGeneratedStart',
    'OnToneGeneratedStop',
  ],
  system: [
    'OnPbxLinkUp',
    'OnPbxLinkDown',
    'OnCtiLinkUp',
    'OnCtiLinkDown',
    'OnPbxLoaded',
    'OnRemoteServerLinkUp',
    'OnRemoteServerLinkDown',
    'OnLicenseExpiration',
    'OnServerStart',
  ],
  pbxManagement: [
    'OnPbxObjectInstanceCreated',
    'OnPbxObjectInstanceDeleted',
    'OnPbxObjectInstanceModified',
  ],
  rti: [
    'OnAgentRtiChanged',
    'OnPilotRtiChanged',
    'OnQueueRtiChanged',
    'OnPGAgentRtiChanged',
    'OnPGOtherRtiChanged',
  ],
  acdstats: ['OnAcdStatsProgress'],
} as const satisfies Record<string, readonly string[]>

export type EventPackage = keyof typeof EVENT_PACKAGES

/**
 * The real product's packages that are not in the specification (wire facts 4) and that the platform does
 * not serve yet. Their selectors' ids are not login names (node ids, RSI points, and the special id `*` of
 * `rti` and `acdstats`): a selector naming them is accepted whatever its ids and routes nothing. The
 * contact center's `agent` (login names) and `pilot` (pilot numbers) packages are served
 * (docs/contact-center.md).
 */
export const PRODUCT_ONLY_PACKAGES: ReadonlySet<EventPackage> = new Set<EventPackage>([
  'rsi',
  'pbxManagement',
  'rti',
  'acdstats',
])

/** True when `name` is an event package (an own key of the catalog, never `constructor` and the like). */
export function isEventPackage(name: string): name is EventPackage {
  return Object.hasOwn(EVENT_PACKAGES, name)
}
export type EventName = (typeof EVENT_PACKAGES)[EventPackage][number]

/** Events that concern every user: selectors' ids are not checked for them (specification, "Events" 8). */
export const COMPANY_WIDE_EVENTS: readonly EventName[] = ['OnUserCreated', 'OnUserDeleted']

/**
 * The events of the platform itself (package `system`, wire facts 8.6): about no user, they carry no
 * `loginName`; administrator subscriptions get them whatever their selector's ids (docs/system-status.md).
 */
export const SYSTEM_EVENTS: readonly EventName[] = EVENT_PACKAGES.system

/** The package of each event name. */
export const PACKAGE_OF_EVENT: ReadonlyMap<string, EventPackage> = new Map(
  (Object.entries(EVENT_PACKAGES) as [EventPackage, readonly string[]][]).flatMap(([pkg, names]) =>
    names.map((name) => [name, pkg] as const),
  ),
)

/**
 * One line of a chunk channel (one part in CHUNK_MULTIPART mode): an event, named by `eventName`, with the
 * fields of the event named; the subscription's events carry `sequence` too, the channel's own messages
 * (OnChannelInformation) do not.
 */
export const ChannelEvent = Type.Object(
  {
    eventName: Type.String({ description: 'OnCallCreated, OnChannelInformation...' }),
    sequence: Type.Optional(
      Type.Integer({ minimum: 1, description: "the event's number in its subscription" }),
    ),
  },
  { title: 'ChannelEvent' },
)

/** The channel's own messages: `Chunk started` on every open, `keepalive`, and lost-event notices. */
export const OnChannelInformation = Type.Object(
  { eventName: Type.Literal('OnChannelInformation'), text: Type.String() },
  { title: 'OnChannelInformation' },
)

export const OnUserInfoChanged = Type.Object(
  { eventName: Type.Literal('OnUserInfoChanged'), loginName: Type.String(), user: User },
  { title: 'OnUserInfoChanged' },
)
export type OnUserInfoChanged = Static<typeof OnUserInfoChanged>

export const OnPreferencesChanged = Type.Object(
  {
    eventName: Type.Literal('OnPreferencesChanged'),
    loginName: Type.String(),
    preferences: UserPreferences,
  },
  { title: 'OnPreferencesChanged' },
)
export type OnPreferencesChanged = Static<typeof OnPreferencesChanged>

export const OnUserCreated = Type.Object(
  { eventName: Type.Literal('OnUserCreated'), loginName: Type.String(), user: User },
  { title: 'OnUserCreated' },
)
export type OnUserCreated = Static<typeof OnUserCreated>

export const OnUserDeleted = Type.Object(
  { eventName: Type.Literal('OnUserDeleted'), loginName: Type.String() },
  { title: 'OnUserDeleted' },
)
export type OnUserDeleted = Static<typeof OnUserDeleted>
