/**
 * What the telephony API and the control plane read of the engine's state (issue 5): a user's calls, legs,
 * participants, devices, callbacks and telephonic state as that user sees them, and every call in progress.
 * Read-only and bound to one state; a missing call, leg, participant or device of the user is `NOT_FOUND`.
 */

import type { Call, Callback, DeviceState, Leg, Participant } from '@openness/wire'
import type { AcdSimulation } from '../acd/acd-simulation.js'
import type { AcdState } from '../acd/acd-state.js'
import { PlatformError } from '../platform-error.js'
import { allCalls, lookupOf } from './call-index.js'
import { callView } from './call-view.js'
import {
  groupOfMember,
  type HuntingGroup,
  type HuntingGroups,
  isLoggedOn,
} from './hunting-groups.js'
import { incomingCallbacks } from './operations/callbacks.js'
import { getParticipant, listParticipants } from './operations/conference.js'
import { deviceState, devicesOf } from './operations/feature-support.js'
import { type TelephonicState, telephonicState } from './operations/media.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import {
  type CallRecord,
  callOf,
  type DeviceRecord,
  type TelephonyState,
} from './telephony-state.js'

export class TelephonyQueries {
  constructor(
    private readonly state: TelephonyState,
    private readonly directory: TelephonyDirectory,
  ) {}

  /** The user's calls, oldest first (GET /telephony/calls). */
  calls(loginName: string): Call[] {
    const lookup = lookupOf(this.state)
    const views: Call[] = []
    for (const call of lookup.ofUser(loginName)) {
      const view = callView(call, loginName, this.directory, lookup)
      if (view !== undefined) views.push(view)
    }
    return views
  }

  /** One call as the user sees it (GET /telephony/calls/{callRef}). */
  call(loginName: string, callRef: string): Call {
    const record = callOf(this.state, callRef)
    const view =
      record === undefined
        ? undefined
        : callView(record, loginName, this.directory, lookupOf(this.state))
    if (view === undefined) throw new PlatformError('NOT_FOUND', `No call '${callRef}'`)
    return view
  }

  /**
   * The user's hunting-group state (GET /telephony/huntingGroupLogOn): logged on in its group; a user in no
   * group is logged on in none.
   */
  huntingGroupLogOn(loginName: string): { logon: boolean } {
    const group = groupOfMember(this.state.huntingGroups, loginName)
    return { logon: group !== undefined && isLoggedOn(group, loginName) }
  }

  /**
   * The hunting groups of the platform by number, and the one the user is a member of (GET
   * /telephony/huntingGroups; the platform is one node, so every group is on the user's).
   */
  huntingGroups(loginName: string): { hgList: string[]; currentHg?: string } {
    const groups = this.state.huntingGroups ?? {}
    const current = groupOfMember(groups, loginName)
    return {
      hgList: Object.keys(groups).sort(),
      ...(current !== undefined && { currentHg: current.number }),
    }
  }

  /** The hunting groups as the state holds them (the groups resource reads its views from them). */
  huntingGroupsState(): HuntingGroups | undefined {
    return this.state.huntingGroups
  }

  /** The contact center as the state holds it (the acd routes read their views from it); none when absent. */
  acdState(): AcdState | undefined {
    return this.state.acd
  }

  /** The simulated floor: traffic generators and simulated agents (the control plane); none when absent. */
  acdSimulation(): AcdSimulation | undefined {
    return this.state.acdSimulation
  }

  /** Who sits at which desk-sharing set: a set's number to the login name (the control plane). */
  deskSharingSeats(): Readonly<Record<string, string>> {
    return this.state.deskSharing ?? {}
  }

  /** Every hunting group, by number (the control plane, the groups resource). */
  allHuntingGroups(): HuntingGroup[] {
    const groups = this.state.huntingGroups ?? {}
    return Object.keys(groups)
      .sort()
      .flatMap((number) => groups[number] ?? [])
  }

  /** Whether a call of that reference is in progress. */
  hasCall(callRef: string): boolean {
    return callOf(this.state, callRef) !== undefined
  }

  /** Whether the user has a connection (a leg) in the call. */
  isInCall(loginName: string, callRef: string): boolean {
    return lookupOf(this.state)
      .ofUser(loginName)
      .some((call) => call.callRef === callRef)
  }

  /**
   * The login names of the directory users with a connection in the call, each once, in the call's order;
   * undefined when there is no such call.
   */
  usersInCall(callRef: string): string[] | undefined {
    const call = callOf(this.state, callRef)
    if (call === undefined) return undefined
    const users = call.connections.flatMap((connection) => connection.endpoint.loginName ?? [])
    return [...new Set(users)]
  }

  /** The user's legs in a call (GET /calls/{callRef}/deviceLegs). */
  legs(loginName: string, callRef: string): Leg[] {
    return this.call(loginName, callRef).legs ?? []
  }

  /** One leg, named by its device number (wire facts 5.3: a Leg's only id is its `deviceId`). */
  leg(loginName: string, callRef: string, legId: string): Leg {
    const leg = this.legs(loginName, callRef).find((candidate) => candidate.deviceId === legId)
    if (leg === undefined)
      throw new PlatformError('NOT_FOUND', `No leg '${legId}' in call ${callRef}`)
    return leg
  }

  /** The other parties of a call (GET /calls/{callRef}/participants). */
  participants(loginName: string, callRef: string): Participant[] {
    return listParticipants(this.state, callRef, loginName, this.directory)
  }

  participant(loginName: string, callRef: string, participantId: string): Participant {
    return getParticipant(this.state, callRef, participantId, loginName, this.directory)
  }

  /** The states of the user's devices (GET /telephony/devices). */
  deviceStates(loginName: string): DeviceState[] {
    // Straight from the devices: the telephonic state would also build every call's view.
    return devicesOf(this.state.devices, loginName).map(deviceState)
  }

  /** One of the user's devices (GET /telephony/devices/{deviceId}); another user's device is not found. */
  deviceState(loginName: string, deviceId: string): DeviceState {
    const device = this.deviceStates(loginName).find((candidate) => candidate.deviceId === deviceId)
    if (device === undefined)
      throw new PlatformError('NOT_FOUND', `No device '${deviceId}' of user '${loginName}'`)
    return device
  }

  /** The device record, whoever owns it; undefined when the engine has no such device. */
  device(deviceId: string): DeviceRecord | undefined {
    return Object.hasOwn(this.state.devices, deviceId) ? this.state.devices[deviceId] : undefined
  }

  /** GET /telephony/state. */
  telephonicState(loginName: string): TelephonicState {
    return telephonicState(this.state, loginName, this.directory)
  }

  /** GET /telephony/incomingCallbacks. */
  callbacks(loginName: string): Callback[] {
    return incomingCallbacks(this.state, loginName)
  }

  /** Every call in progress, oldest first (the control plane's list of live calls). */
  liveCalls(): CallRecord[] {
    return allCalls(this.state)
  }
}
