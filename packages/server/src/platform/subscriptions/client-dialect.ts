/**
 * The SDKs whose event reader needs the wire bent a little (docs/subscriptions.md, "Client variants";
 * issue 11): the Java SDK, whose OnTelephonyState class types `state.deviceStates` as a list, and the C#
 * SDK, whose reader gives up its stream on an event name it does not know. Every other client gets the
 * wire of the specification and wire facts 6.
 */

/** A client that gets a variant of some events. */
export type ClientDialect = 'java' | 'dotnet'

/**
 * The events the C# SDK registers (`EventBuilder`'s static constructor, `Internal/Events/EventBuilder.cs`).
 * For any other name its `GetQualifiedName` gives null and `GetAdaptor(null)` throws, which ends the read
 * loop of the stream: the lines already buffered are lost and the SDK opens the polling URL again.
 */
const KNOWN_TO_DOTNET: ReadonlySet<string> = new Set([
  'OnChannelInformation',
  'OnRoutingStateChanged',
  'OnPbxObjectInstanceCreated',
  'OnPbxObjectInstanceDeleted',
  'OnPbxObjectInstanceModified',
  'OnTelephonyState',
  'OnCallCreated',
  'OnCallModified',
  'OnCallRemoved',
  'OnDeviceStateModified',
  'OnDynamicStateChanged',
  'OnUserStateModified',
  'OnEventSummaryUpdated',
  'OnAgentStateChanged',
  'OnSupervisorHelpRequested',
  'OnSupervisorHelpCancelled',
  'OnDigitCollected',
  'OnRouteEnd',
  'OnRouteRequest',
  'OnToneGeneratedStart',
  'OnToneGeneratedStop',
  'OnComRecordCreated',
  'OnComRecordModified',
  'OnComRecordsDeleted',
  'OnComRecordsAck',
  'OnComRecordsUnAck',
  'OnUserCreated',
  'OnUserDeleted',
  'OnUserInfoChanged',
  'OnCtiLinkUp',
  'OnCtiLinkDown',
  'OnPbxLoaded',
])

/**
 * True when a package name in a selector of this client stands for `eventName`. For the C# SDK a package
 * stands for the events it knows only (OnCallAppeared, OnCallbackRequestAdded, OnDeviceMuteSuccess,
 * OnDeviceMuteFailed and OnPreferencesChanged are left out); an event it names exactly is always routed.
 */
export function packageReaches(dialect: ClientDialect | undefined, eventName: string): boolean {
  return dialect !== 'dotnet' || KNOWN_TO_DOTNET.has(eventName)
}

/**
 * The dialect of the client that sent a request, from its `User-Agent`: the Java SDK's java.net.http
 * client says `Java-http-client/<version>` (it sets none of its own); the C# SDK's HttpClient sends no
 * User-Agent at all, which browsers, Node's fetch, curl and the usual HTTP libraries always send.
 */
export function clientDialectOf(userAgent: string | undefined): ClientDialect | undefined {
  if (userAgent === undefined || userAgent === '') return 'dotnet'
  if (userAgent.startsWith('Java-http-client/')) return 'java'
  return undefined
}
