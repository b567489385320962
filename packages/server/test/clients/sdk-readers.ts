/**
 * What the SDKs read in our answers and events (wire facts 2 to 7; census 3 and 4), as assertions: each
 * reader fails where an SDK would read a null it needs, dereference a missing object, or misparse a type.
 * Fields an SDK tolerates missing are only checked for their type when present.
 */
// The SDKs' MediaState, OperationalState and UserState are the specification's sets (census 3.6).
import { MEDIA_STATES, OPERATIONAL_STATES, USER_STATES } from '@openness/wire'
import { expect } from 'vitest'
import type { ClientProfile } from './sdk-client.js'

type Json = Record<string, unknown>

/** An object, or fail. */
export function object(value: unknown, what: string): Json {
  expect(value, what).toBeTypeOf('object')
  expect(value, what).not.toBeNull()
  expect(Array.isArray(value), `${what} is not an array`).toBe(false)
  return value as Json
}

/** A list under `key`, or fail (N returns null when a wrapper key is missing: wire facts 5.3). */
export function list(value: unknown, key: string): Json[] {
  const wrapper = object(value, `{${key}: [...]}`)
  expect(Array.isArray(wrapper[key]), `${key} is an array`).toBe(true)
  return wrapper[key] as Json[]
}

function optionalString(json: Json, key: string, what: string): void {
  if (json[key] !== undefined) expect(json[key], `${what}.${key}`).toBeTypeOf('string')
}

/** PartyInfo: `id` is required whenever a PartyInfo is present (N dereferences it). */
export function readPartyInfo(value: unknown, what = 'PartyInfo'): Json {
  const party = object(value, what)
  const id = object(party['id'], `${what}.id`)
  optionalString(id, 'loginName', `${what}.id`)
  optionalString(id, 'phoneNumber', `${what}.id`)
  for (const key of ['firstName', 'lastName', 'displayName']) optionalString(party, key, what)
  if (party['type'] !== undefined) object(party['type'], `${what}.type`)
  return party
}

export function readLeg(value: unknown): Json {
  const leg = object(value, 'Leg')
  expect(leg['deviceId'], 'Leg.deviceId').toBeTypeOf('string')
  expect(MEDIA_STATES, 'Leg.state').toContain(leg['state'])
  if (leg['capabilities'] !== undefined) object(leg['capabilities'], 'Leg.capabilities')
  return leg
}

export function readParticipant(value: unknown): Json {
  const participant = object(value, 'Participant')
  expect(participant['participantId'], 'Participant.participantId').toBeTypeOf('string')
  if (participant['identity'] !== undefined) readPartyInfo(participant['identity'], 'identity')
  return participant
}

export function readCallData(value: unknown): Json {
  const data = object(value, 'CallData')
  if (data['state'] !== undefined) expect(MEDIA_STATES).toContain(data['state'])
  if (data['capabilities'] !== undefined) object(data['capabilities'], 'CallData.capabilities')
  for (const key of ['initialCalled', 'lastRedirecting'])
    if (data[key] !== undefined) readPartyInfo(data[key], `CallData.${key}`)
  return data
}

export function readCall(value: unknown): Json {
  const call = object(value, 'Call')
  expect(call['callRef'], 'Call.callRef').toBeTypeOf('string')
  if (call['callData'] !== undefined) readCallData(call['callData'])
  for (const leg of (call['legs'] ?? []) as unknown[]) readLeg(leg)
  for (const participant of (call['participants'] ?? []) as unknown[]) readParticipant(participant)
  return call
}

/** The event fields every telephony event carries (wire facts 6). */
function readTelephonyEvent(value: unknown, eventName: string): Json {
  const event = object(value, eventName)
  expect(event['eventName']).toBe(eventName)
  expect(event['loginName'], `${eventName}.loginName`).toBeTypeOf('string')
  return event
}

export function readOnCallCreated(value: unknown): Json {
  const event = readTelephonyEvent(value, 'OnCallCreated')
  expect(event['callRef']).toBeTypeOf('string')
  if (event['callData'] !== undefined) readCallData(event['callData'])
  for (const leg of (event['legs'] ?? []) as unknown[]) readLeg(leg)
  for (const participant of (event['participants'] ?? []) as unknown[]) readParticipant(participant)
  return event
}

/**
 * OnCallModified: every list is read by its SDK's name (census 4): J, C# and the wire read `removedLegs`
 * and `removedParticipantIds`; N reads `removedLeg` and `removedParticipants`.
 */
export function readOnCallModified(value: unknown, profile: ClientProfile): Json {
  const event = readTelephonyEvent(value, 'OnCallModified')
  expect(event['callRef']).toBeTypeOf('string')
  if (event['callData'] !== undefined) readCallData(event['callData'])
  const removedLegs = profile.tag === 'N' ? 'removedLeg' : 'removedLegs'
  for (const key of ['modifiedLegs', 'addedLegs', removedLegs])
    for (const leg of (event[key] ?? []) as unknown[]) readLeg(leg)
  for (const key of ['modifiedParticipants', 'addedParticipants'])
    for (const participant of (event[key] ?? []) as unknown[]) readParticipant(participant)
  return event
}

/** The removed participant ids of an OnCallModified, under the name `profile`'s SDK reads. */
export function removedParticipantIds(event: Json, profile: ClientProfile): unknown {
  return event[profile.tag === 'N' ? 'removedParticipants' : 'removedParticipantIds']
}

export function readOnCallRemoved(value: unknown): Json {
  const event = readTelephonyEvent(value, 'OnCallRemoved')
  expect(event['callRef']).toBeTypeOf('string')
  return event
}

/** DeviceState `{deviceId, state}`. */
export function readDeviceState(value: unknown): Json {
  const state = object(value, 'DeviceState')
  expect(state['deviceId']).toBeTypeOf('string')
  expect(OPERATIONAL_STATES).toContain(state['state'])
  return state
}

/**
 * TelephonicState as the REST answer of GET /telephony/state (N and J read `deviceStates.deviceStates`,
 * nested; wire facts 5.4).
 */
export function readTelephonicState(value: unknown): Json {
  const state = object(value, 'TelephonicState')
  for (const call of (state['calls'] ?? []) as unknown[]) readCall(call)
  expect(USER_STATES).toContain(state['userState'])
  for (const device of list(state['deviceStates'], 'deviceStates')) readDeviceState(device)
  return state
}

/** User as the SDKs read it (wire facts 7; census 3.3). */
export function readUser(value: unknown): Json {
  const user = object(value, 'User')
  for (const key of ['companyPhone', 'firstName', 'lastName', 'loginName', 'nodeId'])
    optionalString(user, key, 'User')
  if (user['voicemail'] !== undefined) {
    const voicemail = object(user['voicemail'], 'User.voicemail')
    expect(voicemail['number']).toBeTypeOf('string')
    expect(voicemail['type']).toBeTypeOf('string')
  }
  for (const device of (user['devices'] ?? []) as unknown[]) {
    const read = object(device, 'User.devices[]')
    expect(read['id']).toBeTypeOf('string')
    expect(read['type']).toBeTypeOf('string')
  }
  return user
}
