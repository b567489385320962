/** The behaviour every CallStore adapter must show, run once per adapter by its test file. */
import { OrderedMap } from 'immutable'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callChanges } from '../../src/platform/telephony/call-changes.js'
import { allCalls, withCalls } from '../../src/platform/telephony/call-index.js'
import type { CallStore } from '../../src/platform/telephony/call-store.js'
import {
  type CallRecord,
  callOf,
  type TelephonyState,
} from '../../src/platform/telephony/telephony-state.js'
import { AcdWorld, PILOT } from '../telephony/acd-world.js'

/** A fresh, empty store, and, for durable adapters, a way to open its storage again after close(). */
export interface CallStoreUnderTest {
  store: CallStore
  reopen?: () => Promise<CallStore>
}

/** A call between two users' devices, or with an outside party; unicode and optional fields included. */
function call(callRef: string, overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    callRef,
    callUUID: `${callRef}-19b8a3c4000`,
    connections: [
      {
        endpoint: { number: '1001', deviceId: '1001', loginName: 'émile' },
        state: 'ACTIVE',
      },
      { endpoint: { number: '0612345678' }, state: 'RINGING_INCOMING' },
    ],
    initialCalled: { number: '0612345678' },
    createdAt: 1_767_225_600_000,
    ...overrides,
  }
}

const FIRST = call('0000000000000001', { associatedData: 'commande n° 42 — 東京 🚀' })
const SECOND = call('0000000000000002', {
  recordState: 'PAUSED',
  lastRedirecting: { number: '1002', deviceId: '1002', loginName: 'bob' },
})
const THIRD = call('0000000000000003', {
  pendingCallee: { number: '1003', deviceId: '1003', loginName: 'carol' },
})

/** The whole state, with a field the engine may add later (the store keeps every field). */
const STATE: TelephonyState & { parked: Record<string, string> } = withCalls(
  {
    sequence: 5,
    devices: {
      '1001': {
        deviceId: '1001',
        loginName: 'émile',
        state: 'IN_SERVICE',
        mutable: true,
        muted: false,
      },
      '1002': {
        deviceId: '1002',
        loginName: 'bob',
        state: 'OUT_OF_SERVICE',
        mutable: false,
        muted: true,
      },
    },
    timers: [
      {
        timerId: '0000000000000004',
        at: 1_767_225_630_000,
        command: { type: 'ringingTimeout', callRef: FIRST.callRef, number: '0612345678' },
      },
    ],
    parked: { '1001': FIRST.callRef },
  },
  [FIRST, SECOND],
)

/** The calls of a loaded state, in callRef order; none when nothing was loaded. */
function callsIn(state: TelephonyState | undefined): CallRecord[] {
  return state === undefined ? [] : allCalls(state)
}

/** A copy of the state that shares no object with it. */
function deepCopy(state: TelephonyState): TelephonyState {
  const { calls: _calls, callsByUser: _byUser, callsByDevice: _byDevice, ...rest } = state
  return withCalls(
    structuredClone(rest),
    allCalls(state).map((call) => structuredClone(call)),
  )
}

/** Saves `next` with the changes found against `previous`, as the telephony service does. */
async function saveAfter(
  store: CallStore,
  previous: TelephonyState | undefined,
  next: TelephonyState,
): Promise<void> {
  await store.save(next, callChanges(previous, next))
}

export function callStoreConformance(
  name: string,
  create: () => Promise<CallStoreUnderTest>,
): void {
  describe(`CallStore conformance: ${name}`, () => {
    let store: CallStore
    let reopen: CallStoreUnderTest['reopen']

    beforeEach(async () => {
      ;({ store, reopen } = await create())
    })

    afterEach(async () => {
      await store.close()
    })

    it('loads undefined when nothing was ever saved', async () => {
      expect(await store.load()).toBeUndefined()
    })

    it('loads back the state it saved, every field (even unknown ones) in its place', async () => {
      await saveAfter(store, undefined, STATE)

      const loaded = await store.load()

      expect(loaded).toStrictEqual(STATE)
      // Same fields in the same order: the state serializes byte for byte as it did before the save.
      expect(JSON.stringify(loaded)).toBe(JSON.stringify(STATE))
    })

    it("loads back a contact center's agents in the engine's map, the same records in their order", async () => {
      // bob offered a call (BUSY), carol and dave logged off: agents in three places, and a call.
      const w = new AcdWorld()
      w.logOn('bob', '1002')
      w.incoming(PILOT)
      const saved = w.state
      expect(saved.acd?.agents.get('bob')?.acdCall).toBeDefined()
      await saveAfter(store, undefined, saved)

      const loaded = await store.load()

      expect(loaded).toStrictEqual(saved)
      expect(JSON.stringify(loaded)).toBe(JSON.stringify(saved))
      expect(OrderedMap.isOrderedMap(loaded?.acd?.agents)).toBe(true)
      expect([...(loaded?.acd?.agents.keys() ?? [])]).toEqual([...(saved.acd?.agents.keys() ?? [])])
      // The engine goes on from the loaded state: another agent moves, the save writes it, a load gives it back.
      if (loaded === undefined) throw new Error('nothing loaded')
      w.state = loaded
      w.logOn('carol', '1003')
      expect(w.place('carol')).toBe('READY')
      await saveAfter(store, loaded, w.state)
      const again = await store.load()
      expect(again).toStrictEqual(w.state)
      expect(again?.acd?.agents.get('carol')).toStrictEqual(w.state.acd?.agents.get('carol'))
      expect(JSON.stringify(again)).toBe(JSON.stringify(w.state))
    })

    it('saves a state with no calls', async () => {
      const empty: TelephonyState = withCalls({ sequence: 0, devices: {}, timers: [] }, [])

      await saveAfter(store, undefined, empty)

      expect(await store.load()).toStrictEqual(empty)
    })

    it('writes changed calls, deletes removed ones and replaces the rest of the state', async () => {
      await saveAfter(store, undefined, STATE)
      const { parked: _parked, ...withoutParked } = STATE
      const next: TelephonyState = withCalls({ ...withoutParked, sequence: 6, timers: [] }, [
        { ...FIRST, connections: [], recordState: 'RECORDING' },
        THIRD,
      ])

      await saveAfter(store, STATE, next)

      expect(await store.load()).toStrictEqual(next)
    })

    it('writes only the calls the changes name: a call left out keeps what was saved', async () => {
      await saveAfter(store, undefined, STATE)
      const next: TelephonyState = withCalls(STATE, [
        FIRST,
        { ...SECOND, associatedData: 'not saved' },
      ])

      await store.save(next, { changedCallRefs: [], removedCallRefs: [] })

      expect(await store.load()).toStrictEqual(STATE)
    })

    it('loads every call back, one added late and one changed after its first save included', async () => {
      const late = call('0000000000000000')
      const changed = { ...FIRST, associatedData: 'changed' }
      await saveAfter(store, undefined, STATE)
      const second = withCalls(STATE, [FIRST, SECOND, late])
      await saveAfter(store, STATE, second)
      const third = withCalls(second, [changed, SECOND, late])

      await saveAfter(store, second, third)

      const loaded = await store.load()
      expect(loaded).toStrictEqual(third)
      // The engine reads the calls in callRef order, whatever order the store listed them in.
      expect(callsIn(loaded)).toStrictEqual([late, changed, SECOND])
    })

    it('saves and removes many calls at once', async () => {
      const calls = Array.from({ length: 700 }, (_, index) =>
        call((index + 10).toString(16).padStart(16, '0')),
      )
      const many = withCalls(STATE, calls)
      await saveAfter(store, undefined, many)
      const loaded = await store.load()
      expect(loaded).toStrictEqual(many)
      expect(callsIn(loaded)).toStrictEqual(calls)

      const none = withCalls(STATE, [])
      await saveAfter(store, many, none)

      expect(await store.load()).toStrictEqual(none)
    })

    it('keeps what it saved apart from the objects the caller passed or received', async () => {
      const given = deepCopy(STATE)
      await saveAfter(store, undefined, given)
      given.sequence = 99
      given.timers.pop()
      const givenCall = callOf(given, FIRST.callRef)
      if (givenCall) givenCall.associatedData = 'changed after save'

      const received = await store.load()
      const receivedCall = callsIn(received).find((other) => other.callRef === SECOND.callRef)
      if (receivedCall) receivedCall.connections = []

      expect(await store.load()).toStrictEqual(STATE)
    })

    it("keeps each batch's unpublished events until a state drops them, also across a reopen", async (context) => {
      const event = (batch: number, index: number) => ({
        eventName: 'OnCallCreated',
        loginName: 'émile',
        callRef: `${batch}-${index}`,
      })
      const first: TelephonyState = {
        ...STATE,
        batch: 1,
        unpublished: [{ batch: 1, events: [event(1, 0), event(1, 1)] }],
      }
      const second: TelephonyState = {
        ...first,
        batch: 2,
        unpublished: [...(first.unpublished ?? []), { batch: 2, events: [event(2, 0)] }],
      }
      // The events of batches 1 and 2 known published: batch 3 keeps only its own.
      const third: TelephonyState = {
        ...second,
        batch: 3,
        unpublished: [{ batch: 3, events: [event(3, 0)] }],
      }
      const { unpublished: _, ...published } = third
      const fourth: TelephonyState = { ...published, batch: 4 }

      await saveAfter(store, undefined, first)
      expect(await store.load()).toStrictEqual(first)
      await saveAfter(store, first, second)
      expect(await store.load()).toStrictEqual(second)
      await saveAfter(store, second, third)
      expect(await store.load()).toStrictEqual(third)
      if (reopen !== undefined) {
        await store.close()
        store = await reopen()
        expect(await store.load()).toStrictEqual(third)
      }
      await saveAfter(store, third, fourth)
      expect(await store.load()).toStrictEqual(fourth)
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.close()
      store = await reopen()
      expect(await store.load()).toStrictEqual(fourth)
    })

    it('keeps the state across closing and reopening', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await saveAfter(store, undefined, STATE)
      await store.close()

      store = await reopen()

      expect(await store.load()).toStrictEqual(STATE)
    })

    it('writes a device changed alone, adds and removes devices, and keeps their order', async () => {
      await saveAfter(store, undefined, STATE)
      const { '1002': _removed, ...kept } = STATE.devices
      const changed: TelephonyState = {
        ...STATE,
        devices: {
          ...kept,
          '1001': { ...STATE.devices['1001'], muted: true } as TelephonyState['devices'][string],
          abc: {
            deviceId: 'abc',
            loginName: 'zoé',
            state: 'IN_SERVICE',
            mutable: true,
            muted: false,
          },
        },
      }

      await saveAfter(store, STATE, changed)

      const loaded = await store.load()
      expect(loaded).toStrictEqual(changed)
      expect(Object.keys(loaded?.devices ?? {})).toStrictEqual(['1001', 'abc'])
    })

    it('keeps a device changed alone across a reopen', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await saveAfter(store, undefined, STATE)
      const first = STATE.devices['1001']
      if (first === undefined) throw new Error('no device 1001')
      const changed: TelephonyState = {
        ...STATE,
        devices: { ...STATE.devices, '1001': { ...first, state: 'OUT_OF_SERVICE' } },
      }
      await saveAfter(store, STATE, changed)
      await store.close()

      store = await reopen()

      expect(await store.load()).toStrictEqual(changed)
    })

    it('gives back the call index of the calls, rebuilt, also after a reopen', async (context) => {
      await saveAfter(store, undefined, STATE)
      const late = call('0000000000000009', {
        connections: [
          {
            endpoint: { number: '1002', deviceId: '1002', loginName: 'bob' },
            state: 'RINGING_INCOMING',
          },
        ],
      })
      const next = withCalls(STATE, [...allCalls(STATE), late])
      await saveAfter(store, STATE, next)

      const loaded = await store.load()
      expect(loaded).toStrictEqual(next)
      expect(loaded?.callsByUser.get('bob')).toStrictEqual([late.callRef])
      expect(loaded?.callsByDevice.get('1001')).toStrictEqual([FIRST.callRef, SECOND.callRef])
      expect(JSON.stringify(loaded)).toBe(JSON.stringify(next))
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.close()
      store = await reopen()
      expect(await store.load()).toStrictEqual(next)
    })

    it('goes on after a reopen: new calls, removals and changes kept', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await saveAfter(store, undefined, STATE)
      await store.close()
      store = await reopen()
      const loaded = await store.load()
      if (loaded === undefined) throw new Error('nothing loaded after reopen')
      const kept = allCalls(loaded).filter((other) => other.callRef !== SECOND.callRef)
      const late = call('0000000000000000')
      const next = withCalls({ ...loaded, sequence: 7 }, [...kept, late])

      await saveAfter(store, loaded, next)
      await store.close()
      store = await reopen()

      const again = await store.load()
      expect(again).toStrictEqual(next)
      expect(callsIn(again)).toStrictEqual([late, FIRST])
    })
  })
}
