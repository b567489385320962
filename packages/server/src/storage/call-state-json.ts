/**
 * How the call stores write the telephony state as JSON: one text per call, one text per device, and one
 * small text for the rest of the state (the sequence, the timers, the callbacks and whatever fields the
 * engine adds). The call index (`callsByUser`, `callsByDevice`) is not stored: it is derived from the
 * calls, so the rest keeps only its place and a loaded state has it rebuilt (`withCalls`). The rest keeps
 * the places of `calls` and `devices` too, so that a loaded state has its fields in the order they were
 * saved in. A save thus writes what the command changed: its calls, its devices and the small rest. The
 * calls are plain JSON records, whatever map the engine keeps them in.
 */
import {
  type AcdDefinitions,
  type AcdState,
  type AgentMap,
  acdOfPortable,
  type PortableAcdState,
} from '../platform/acd/acd-state.js'
import type { AgentRuntime } from '../platform/acd/agent-state.js'
import type { PlatformEvent } from '../platform/events.js'
import { withCalls } from '../platform/telephony/call-index.js'
import type {
  CallRecord,
  DeviceRecord,
  TelephonyState,
  UnpublishedBatch,
} from '../platform/telephony/telephony-state.js'

/**
 * The prefix of the names of the SQL stores' outbox rows: the events of one batch the state keeps until they
 * are known published (`TelephonyState.unpublished`, cluster mode), beside the rest row in `telephony_state`,
 * so that a batch's events are written once, not with every rest row until their appends are confirmed.
 */
export const OUTBOX_ROW_PREFIX = 'outbox:' as const

/** The name of a batch's outbox row. */
export function outboxName(batch: number): `outbox:${number}` {
  return `${OUTBOX_ROW_PREFIX}${batch}`
}

/** A batch's outbox row, `[name, events' JSON]`. */
export function outboxRow({
  batch,
  events,
}: UnpublishedBatch): readonly [`outbox:${number}`, string] {
  return [outboxName(batch), JSON.stringify(events)]
}

/** The batch an outbox row's name names. */
export function outboxBatch(name: string): number {
  return Number(name.slice(OUTBOX_ROW_PREFIX.length))
}

/**
 * The state without its calls, its devices and its index, as JSON (their places kept as null). The contact
 * center, when there is one, is most of it (about 160 KB for 500 agents) and most commands leave it as it is:
 * its JSON is kept by record (`encodeAcd`), so that a save writes the same text without encoding it again.
 */
export function encodeRest(state: TelephonyState): string {
  const rest = { ...state, calls: null, devices: null, callsByUser: null, callsByDevice: null }
  const { acd } = state
  if (acd === undefined) return JSON.stringify(rest)
  // The fields before the contact center and those after it (cluster mode's batch, for one), each part written
  // by one JSON.stringify, the contact center's kept text between them.
  const head: Record<string, unknown> = {}
  let tail: Record<string, unknown> | undefined
  for (const key in rest) {
    const value = rest[key as keyof typeof rest]
    if (key === 'acd') tail = {}
    else if (value !== undefined) (tail ?? head)[key] = value
  }
  const before = JSON.stringify(head)
  const after = tail === undefined ? '{}' : JSON.stringify(tail)
  return `${before.slice(0, -1)}${before.length > 2 ? ',' : ''}"acd":${encodeAcd(acd)}${after.length > 2 ? `,${after.slice(1)}` : '}'}`
}

/**
 * The JSON of the contact center's records, by record. The engine never changes one in place (acd-support.ts
 * `changeAcd`, `putAgent`: a command that changes the contact center puts new records in its state, the state it
 * started from keeps the old ones), so a record met again has the text it had: a command that does not touch the
 * contact center finds its whole text here, one that moves an agent the definition's and every other agent's.
 * Weak: a record no state holds any more goes with its text.
 */
const acdJson = new WeakMap<AcdState, string>()
const definitionJson = new WeakMap<AcdDefinitions, string>()
const agentJson = new WeakMap<AgentRuntime, string>()

/** The contact center's JSON, the same text as JSON.stringify's. */
function encodeAcd(acd: AcdState): string {
  let json = acdJson.get(acd)
  if (json === undefined) {
    json = objectJson(acd, (key, value) => {
      if (key === 'definition') return kept(definitionJson, value as AcdDefinitions)
      if (key === 'agents')
        return entriesJson(value as AgentMap, (_, agent) => kept(agentJson, agent))
      return JSON.stringify(value)
    })
    acdJson.set(acd, json)
  }
  return json
}

/** The record's JSON from `texts`, or written and kept there. */
function kept<T extends object>(texts: WeakMap<T, string>, record: T): string {
  let json = texts.get(record)
  if (json === undefined) {
    json = JSON.stringify(record)
    texts.set(record, json)
  }
  return json
}

/**
 * A record of plain data as JSON.stringify writes it (its keys in order, those whose value is undefined left
 * out), each value's text from `encode`.
 */
function objectJson(record: object, encode: (key: string, value: unknown) => string): string {
  return entriesJson(Object.entries(record), encode)
}

/**
 * Entries as JSON.stringify writes the object they make (the agents' map as its plain record: `agentRecordOf`):
 * the keys a plain object lists first (array indexes, in increasing order) are written first, the others in the
 * entries' order, so that the text is JSON.stringify's of that record whatever the map's order.
 */
function entriesJson<T>(
  entries: Iterable<readonly [string, T]>,
  encode: (key: string, value: T) => string,
): string {
  let json = ''
  const indexes: Array<readonly [number, string]> = []
  for (const [key, value] of entries) {
    if (value === undefined) continue
    const text = `${JSON.stringify(key)}:${encode(key, value)}`
    if (isArrayIndex(key)) indexes.push([Number(key), text])
    else json += `${json.length === 0 ? '' : ','}${text}`
  }
  if (indexes.length === 0) return `{${json}}`
  const first = indexes.sort(([a], [b]) => a - b).map(([, text]) => text)
  return `{${first.join(',')}${json.length === 0 ? '' : `,${json}`}}`
}

/** Whether a plain object lists this key first, as an array index. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1
}

/** One call as JSON. */
export function encodeCall(call: CallRecord): string {
  return JSON.stringify(call)
}

/** The writes that bring the stored devices from `previous` (the devices last saved or loaded) to `next`. */
export interface DeviceWrites {
  /** The previous devices are unknown: every stored device is to be dropped before `changed` is written. */
  replace: boolean
  /** `[deviceId, json]` of the devices added or changed, in the order of `next`. */
  changed: Array<readonly [string, string]>
  /** The devices `next` no longer has. */
  removed: string[]
}

/**
 * The devices of `next` that are not the very objects of `previous` (the engine copies the devices record
 * and the device it changes, nothing else), and those `previous` had that `next` lacks. Nothing to write
 * when the record itself is the same object: the common case of a command, which costs no look at devices.
 */
export function deviceWrites(
  previous: Readonly<Record<string, DeviceRecord>> | undefined,
  next: Readonly<Record<string, DeviceRecord>>,
): DeviceWrites {
  if (previous === next) return { replace: false, changed: [], removed: [] }
  const changed: Array<readonly [string, string]> = []
  for (const [deviceId, device] of Object.entries(next))
    if (
      previous === undefined ||
      !Object.hasOwn(previous, deviceId) ||
      previous[deviceId] !== device
    )
      changed.push([deviceId, JSON.stringify(device)])
  const removed =
    previous === undefined
      ? []
      : Object.keys(previous).filter((deviceId) => !Object.hasOwn(next, deviceId))
  return { replace: previous === undefined, changed, removed }
}

/**
 * The state from the rest, the calls and the devices (`[key, json]`; devices in the order they are to be
 * listed), with its index rebuilt from the calls. A rest written before the devices had rows of their own
 * (`devices` and the index inline) is read as it is, its index rebuilt all the same: `legacy` tells the store
 * to write it anew.
 */
export function decodeState(
  rest: string,
  calls: Iterable<readonly [string, string]>,
  devices: Iterable<readonly [string, string]>,
  outbox: Iterable<readonly [string, string]> = [],
): { state: TelephonyState; legacy: boolean } {
  const saved = JSON.parse(rest) as Omit<TelephonyState, 'devices' | 'acd'> & {
    acd?: PortableAcdState
    devices: Record<string, DeviceRecord> | null
  }
  const legacy = saved.devices !== null
  const byId: Record<string, DeviceRecord> = saved.devices ?? {}
  for (const [deviceId, json] of devices) byId[deviceId] = JSON.parse(json) as DeviceRecord
  const records = [...calls].map(([, json]) => JSON.parse(json) as CallRecord)
  // A rest row written before the outbox had rows of its own carries its batches inline.
  const batches = new Map<number, UnpublishedBatch>()
  for (const batch of saved.unpublished ?? []) batches.set(batch.batch, batch)
  for (const [name, json] of outbox) {
    const batch = outboxBatch(name)
    batches.set(batch, { batch, events: JSON.parse(json) as PlatformEvent[] })
  }
  const { unpublished: _, ...fields } = saved
  // The contact center is stored with its agents as a plain record; the engine holds them in a persistent map.
  // Replaced where it is, so that the fields keep the order they were saved in.
  const state: Omit<TelephonyState, 'devices' | 'acd'> & { acd?: PortableAcdState | AcdState } =
    fields
  if (fields.acd !== undefined) state.acd = acdOfPortable(fields.acd)
  if (batches.size > 0)
    state.unpublished = [...batches.values()].sort((first, second) => first.batch - second.batch)
  const loaded = state as Omit<TelephonyState, 'devices'>
  return { state: withCalls({ ...loaded, devices: byId }, records), legacy }
}
