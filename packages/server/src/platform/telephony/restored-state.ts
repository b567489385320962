/**
 * The engine's state as a snapshot of the platform keeps it (docs/sandbox.md): plain JSON, the calls a list,
 * so that it is stored, forwarded to the engine's owner and compared like any record; and the state the
 * engine's `restoreState` command makes of it. The command is the one way a reset or a restore changes the
 * engine: it runs, is stored and is followed by the replicas like any other command.
 */
import { acdOfPortable, portableAcd } from '../acd/acd-state.js'
import { callChanges } from './call-changes.js'
import { allCalls, withCalls } from './call-index.js'
import type { EngineResult } from './engine-operation.js'
import { type HuntingGroupDefinition, newHuntingGroup } from './hunting-groups.js'
import { sameJson } from './same-json.js'
import type { DeviceRecord, PortableEngineState, TelephonyState } from './telephony-state.js'

/** `state` as a snapshot keeps it. */
export function portableState(state: TelephonyState): PortableEngineState {
  return {
    sequence: state.sequence,
    calls: allCalls(state),
    devices: state.devices,
    timers: state.timers,
    callbacks: state.callbacks ?? {},
    ...(state.huntingGroups !== undefined && { huntingGroups: state.huntingGroups }),
    ...(state.huntingProvision !== undefined && { huntingProvision: state.huntingProvision }),
    ...(state.deskSharing !== undefined && { deskSharing: state.deskSharing }),
    ...(state.acd !== undefined && { acd: portableAcd(state.acd) }),
    ...(state.acdSimulation !== undefined && { acdSimulation: state.acdSimulation }),
  }
}

/**
 * The engine of a platform that has just started on these devices: no call, no timer, no call back; the
 * hunting groups of the directory file, everyone logged on; nobody at a desk-sharing set (the desk-sharing
 * users' numbers out of service: `DirectoryTelephony.devices`).
 */
export function freshEngineState(
  devices: readonly DeviceRecord[],
  groups: FileHuntingGroups = { groups: [], digest: undefined },
): PortableEngineState {
  return {
    sequence: 0,
    calls: [],
    devices: Object.fromEntries(devices.map((device) => [device.deviceId, device])),
    timers: [],
    callbacks: {},
    ...(groups.groups.length > 0 && {
      huntingGroups: Object.fromEntries(
        groups.groups.map((group) => [group.number, newHuntingGroup(group)]),
      ),
    }),
    ...(groups.digest !== undefined && { huntingProvision: groups.digest }),
  }
}

/** The directory file's hunting groups and their digest (engine-groups.ts). */
export interface FileHuntingGroups {
  groups: readonly HuntingGroupDefinition[]
  digest: string | undefined
}

/**
 * The result of the `restoreState` command on `current`: the calls, devices, timers and call backs of
 * `target`, and nothing of what `current` held of them. It publishes nothing: the reset or restore that asks
 * for it has closed every session first, and a call that vanishes leaves no record in the log, which the
 * restore replaces too. Two things are kept from `current`, so that no identifier is ever given twice: the
 * sequence (the greater of the two: the callRefs and timer ids made after the restore are new), and the key
 * of the callRefs. The cluster's bookkeeping (batch, answered requests, unpublished events) is kept too.
 */
export function restoredState(
  current: TelephonyState,
  target: PortableEngineState,
): Omit<EngineResult, 'callRef'> {
  // The calls are fresh objects (the snapshot stays as it was), hence all written anew. A device equal to
  // the current one stays that very object: the store finds changed devices by identity, and a restore of
  // 10,000 users' devices writes only those that differ.
  const devices: Record<string, DeviceRecord> = {}
  for (const [deviceId, device] of Object.entries(target.devices)) {
    const mine = current.devices[deviceId]
    devices[deviceId] =
      mine !== undefined && sameJson(mine, device) ? mine : structuredClone(device)
  }
  const state = withCalls(
    {
      ...current,
      sequence: Math.max(current.sequence, target.sequence),
      devices,
      timers: structuredClone(target.timers),
      callbacks: structuredClone(target.callbacks),
      huntingGroups: structuredClone(target.huntingGroups),
      huntingProvision: target.huntingProvision,
      deskSharing: structuredClone(target.deskSharing),
      // The snapshot's plain contact center copied, then its agents put in the engine's map.
      acd: target.acd === undefined ? undefined : acdOfPortable(structuredClone(target.acd)),
      acdSimulation: structuredClone(target.acdSimulation),
    },
    structuredClone(target.calls),
  )
  // Every call of the target is a new object, hence written anew; those only `current` has are removed.
  return { state, events: [], changes: callChanges(current, state) }
}
