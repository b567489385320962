/**
 * Events as some SDKs need them (platform/subscriptions/client-dialect.ts; docs/subscriptions.md, "Client
 * variants"): a rewrite per event name and dialect, applied once per event for all the channels of that
 * dialect (SerializedEvent.rewritten). Subscriptions of other clients never look here.
 */
import type { TelephonicState } from '@openness/wire'
import type { PlatformEvent } from '../platform/events.js'
import type { ClientDialect } from '../platform/subscriptions/client-dialect.js'

/** Turns an event into the variant a client parses. */
export type EventRewrite = (event: PlatformEvent) => PlatformEvent

/**
 * OnTelephonyState with `state.deviceStates` as the list itself. The Java SDK deserializes the event into
 * `TelephonicState`, whose `deviceStates` is a `Collection<DeviceState>`: the nested object of wire facts
 * 5.4 (`{"deviceStates":[...]}`, which the Node SDK and GET /telephony/state use) makes Gson throw, and
 * its ChunkEventListener catches IOException only, so its event thread ends for good.
 */
export const deviceStatesAsList: EventRewrite = (event) => {
  const state = event['state'] as TelephonicState | undefined
  if (state?.deviceStates === undefined) return event
  return { ...event, state: { ...state, deviceStates: state.deviceStates.deviceStates } }
}

/**
 * OnDynamicStateChanged with `huntingGroupState.Logon` beside `logon`: the C# SDK's HuntingGroupStatus reads
 * `Logon` (its JsonPropertyName, matched case-sensitively) and would see every member logged off.
 */
export const logonForDotnet: EventRewrite = (event) => {
  const state = event['huntingGroupState'] as { logon?: boolean } | undefined
  if (state?.logon === undefined) return event
  return { ...event, huntingGroupState: { ...state, Logon: state.logon } }
}

/**
 * OnAgentSkillChanged with `skills` wrapped as `{skills: [...]}`: the Java SDK's event class reads that object
 * (Gson); the list the Node SDK reads makes Gson throw, and nothing in the Java SDK's chunk reader catches it, so
 * its event thread would end for good (docs/contact-center.md, "Where the SDKs disagree").
 */
export const skillsAsObject: EventRewrite = (event) => {
  const skills = event['skills']
  if (!Array.isArray(skills)) return event
  return { ...event, skills: { skills } }
}

/** The rewrites of each dialect, by event name; a dialect without any has none. */
export const EVENT_VARIANTS: Record<ClientDialect, ReadonlyMap<string, EventRewrite> | undefined> =
  {
    java: new Map([
      ['OnTelephonyState', deviceStatesAsList],
      ['OnAgentSkillChanged', skillsAsObject],
    ]),
    // The C# SDK's other variant is in its routes: its package names leave out the events it does not know.
    dotnet: new Map([['OnDynamicStateChanged', logonForDotnet]]),
  }
