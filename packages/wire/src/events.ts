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
} as const satisfies Record<string, readonly string[]>

export type EventPackage = keyof typeof EVENT_PACKAGES
export type EventName = (typeof EVENT_PACKAGES)[EventPackage][number]

/** Events that concern every user: selectors' ids are not checked for them (specification, "Events" 8). */
export const COMPANY_WIDE_EVENTS: readonly EventName[] = ['OnUserCreated', 'OnUserDeleted']

/** The package of each event name. */
export const PACKAGE_OF_EVENT: ReadonlyMap<string, EventPackage> = new Map(
  (Object.entries(EVENT_PACKAGES) as [EventPackage, readonly string[]][]).flatMap(([pkg, names]) =>
    names.map((name) => [name, pkg] as const),
  ),
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
