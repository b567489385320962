/**
 * The engine's batches as the change feed carries them (docs/cluster-engine.md, "The replica"): the owner encodes
 * what a stored batch wrote, as the call stores encode it (call-state-json.ts): the changed calls and devices
 * as JSON, the removed ones by key, and the rest of the state when it changed; a replica applies them to the
 * state it holds. The batch number travels beside the rest, not in it, so that a batch that changed nothing
 * else of the rest carries no rest.
 */

import { reindexCall } from '../platform/telephony/call-index.js'
import type { EngineBatch } from '../platform/telephony/engine-change-feed.js'
import type { StoredBatch } from '../platform/telephony/telephony-service.js'
import {
  type CallRecord,
  callOf,
  type DeviceRecord,
  type TelephonyState,
} from '../platform/telephony/telephony-state.js'
import { deviceWrites, encodeCall, encodeRest } from './call-state-json.js'

/**
 * What `stored` wrote, under the owner's `epoch`; `lastRest` is the rest of the batch published before
 * (undefined for the first one an owner publishes): the rest travels only when it differs.
 */
export function encodeEngineBatch(
  stored: StoredBatch,
  epoch: number,
  lastRest: string | undefined,
): EngineBatch {
  const { after, changes } = stored
  const devices = deviceWrites(stored.before?.devices, after.devices)
  // The events a batch keeps for the next owner (TelephonyState.unpublished) are no replica's business.
  const rest = encodeRest({ ...after, batch: undefined, unpublished: undefined })
  return {
    batch: stored.batch,
    epoch,
    calls: changes.changedCallRefs.map((callRef) => {
      const call = callOf(after, callRef)
      if (call === undefined) throw new Error(`Changed call ${callRef} is not in the state`)
      return [callRef, encodeCall(call)] as const
    }),
    removedCalls: changes.removedCallRefs,
    replaceDevices: devices.replace,
    devices: devices.changed,
    removedDevices: devices.removed,
    ...(rest !== lastRest && { rest }),
  }
}

/**
 * `state` after `batch`: its calls changed and removed as the batch says, each moved in the index
 * (`reindexCall`), its devices and its rest replaced where the batch carries them, numbered by the batch.
 */
export function applyEngineBatch(state: TelephonyState, batch: EngineBatch): TelephonyState {
  let calls = state.calls
  let index: Pick<TelephonyState, 'callsByUser' | 'callsByDevice'> = state
  for (const callRef of batch.removedCalls) {
    index = reindexCall(index, callRef, calls.get(callRef), undefined)
    calls = calls.delete(callRef)
  }
  for (const [callRef, json] of batch.calls) {
    const call = JSON.parse(json) as CallRecord
    index = reindexCall(index, callRef, calls.get(callRef), call)
    calls = calls.set(callRef, call)
  }
  const rest = batch.rest === undefined ? state : (JSON.parse(batch.rest) as TelephonyState)
  return {
    ...rest,
    calls,
    devices: appliedDevices(state.devices, batch),
    callsByUser: index.callsByUser,
    callsByDevice: index.callsByDevice,
    batch: batch.batch,
  }
}

/** The devices after the batch: the same record when the batch changed none. */
function appliedDevices(
  devices: Record<string, DeviceRecord>,
  batch: EngineBatch,
): Record<string, DeviceRecord> {
  if (!batch.replaceDevices && batch.devices.length === 0 && batch.removedDevices.length === 0)
    return devices
  const next: Record<string, DeviceRecord> = batch.replaceDevices ? {} : { ...devices }
  for (const [deviceId, json] of batch.devices) next[deviceId] = JSON.parse(json) as DeviceRecord
  for (const deviceId of batch.removedDevices) delete next[deviceId]
  return next
}
