/**
 * What the client flows share (client-flows.ts): the bodies each SDK sends where they differ, the coverage
 * record, and small steps (a party with its channel, an answered call, a hang-up as the SDK can).
 */
import { expect } from 'vitest'
import type { ChannelClient } from '../support/channel-client.js'
import {
  type Answer,
  type ClientProfile,
  type ClientWorld,
  expectSuccess,
  SdkClient,
} from './sdk-client.js'
import { list, readCall } from './sdk-readers.js'

/** The operations a suite covered, in the census's notation. */
export type Coverage = Set<string>

/** One flow: a few SDK operations that belong together. */
export interface Flow {
  name: string
  run(world: ClientWorld, profile: ClientProfile, covered: Coverage): Promise<void>
}

/** The subscription body each SDK sends for telephony events of its own user (wire facts 4). */
export function telephonySubscription(profile: ClientProfile, ids: string[] = []): unknown {
  const selectors = [
    { names: ['telephony'], ...(ids.length > 0 || profile.tag === 'N' ? { ids } : {}) },
  ]
  switch (profile.tag) {
    case 'N':
      return { filter: { selectors }, version: '1.0', timeout: 0 }
    case 'J':
      return { version: '1.0', timeout: 10, filter: { selectors } }
    case 'C#':
      return { filter: { selectors }, version: '1.0', timeout: 10 }
    case 'JS':
      return { timeout: 0, filter: { selectors }, version: '1.0' }
  }
}

/** The make-call body of each SDK (census 3.4: J and C# always send both booleans). */
export function makeCallBody(profile: ClientProfile, deviceId: string, callee: string): unknown {
  const body = { deviceId, callee, autoAnswer: true }
  return profile.tag === 'J' || profile.tag === 'C#'
    ? { ...body, inhibitProgressTone: false }
    : body
}

/** The recording `action` as each SDK spells it (N capitalises; wire facts 5.5). */
export function recordingAction(profile: ClientProfile, action: string): string {
  return profile.tag === 'N' ? action.charAt(0).toUpperCase() + action.slice(1) : action
}

/** Records an operation and checks the SDK would count the answer a success. */
export function covered(coverage: Coverage, operation: string, answer: Answer): Answer {
  coverage.add(operation)
  expectSuccess(answer)
  return answer
}

/** The callRef of the single call a user has, read through GET /telephony/calls. */
export async function onlyCall(client: SdkClient): Promise<string> {
  const calls = list((await client.request('GET', 'telephony', '/calls')).body, 'calls')
  expect(calls).toHaveLength(1)
  return String(readCall(calls[0])['callRef'])
}

/** Ends a call as the SDK can: release (DELETE), or drop me for the browser SDK, which has no release. */
export function hangUp(client: SdkClient, callRef: string): Promise<Answer> {
  return client.profile.tag === 'JS'
    ? client.request('POST', 'telephony', `/calls/${callRef}/dropme`)
    : client.request('DELETE', 'telephony', `/calls/${callRef}`)
}

/** A user of the scenario with an open telephony channel. */
export interface Party {
  client: SdkClient
  channel: ChannelClient
}

export async function party(
  world: ClientWorld,
  profile: ClientProfile,
  login: string,
): Promise<Party> {
  const client = await SdkClient.login(world, profile, login)
  const channel = await client.subscribe(telephonySubscription(profile))
  return { client, channel }
}

/** `caller` calls `callee`'s device with the SDK's make call; `callee` answers; returns the callRef. */
export async function answeredCall(
  caller: Party,
  callee: Party,
  callerDevice: string,
  calleeDevice: string,
  coverage: Coverage,
  profile: ClientProfile,
): Promise<string> {
  covered(
    coverage,
    'POST /telephony/calls',
    await caller.client.request('POST', 'telephony', '/calls', {
      body: makeCallBody(profile, callerDevice, calleeDevice),
    }),
  )
  const callRef = await onlyCall(callee.client)
  covered(
    coverage,
    'POST /telephony/calls/{}/answer',
    await callee.client.request('POST', 'telephony', `/calls/${callRef}/answer`, {
      body: { deviceId: calleeDevice },
    }),
  )
  return callRef
}
