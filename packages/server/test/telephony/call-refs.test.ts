/**
 * callRefs not guessable in sequence (issue 15, finding 4; docs/call-model.md, "Identifiers"): their form,
 * their uniqueness, the key kept in the state, and the order of the calls, which no longer follows them.
 */
import { describe, expect, it } from 'vitest'
import type { EventSink, PlatformEvent } from '../../src/platform/events.js'
import type { CallChanges } from '../../src/platform/telephony/call-changes.js'
import { allCalls, withCalls } from '../../src/platform/telephony/call-index.js'
import { callRefOf, newCallRefKey } from '../../src/platform/telephony/call-refs.js'
import { TelephonyService } from '../../src/platform/telephony/telephony-service.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import { devicesOf, FOUR_PEOPLE, telephonyDirectoryOf } from '../support/telephony-people.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { TEST_CALL_REF_KEY, World } from './support.js'

const NO_CHANGES: CallChanges = { changedCallRefs: [], removedCallRefs: [] }
const sink: EventSink = { publish: (_event: PlatformEvent) => {} }
const makeCall = (loginName: string, deviceId: string, callee: string): EngineCommand => ({
  type: 'makeCall',
  loginName,
  deviceId,
  callee,
  autoAnswer: true,
})

function start(store: MemoryCallStore, key?: string) {
  return TelephonyService.start({
    store,
    directory: telephonyDirectoryOf(FOUR_PEOPLE),
    clock: new VirtualClock(),
    events: sink,
    devices: devicesOf(FOUR_PEOPLE),
    ...(key !== undefined && { newCallRefKey: () => key }),
  })
}

describe('callRefOf', () => {
  it('gives 16 lowercase hex digits, the same for the same key and number', () => {
    const callRef = callRefOf(TEST_CALL_REF_KEY, 1)
    expect(callRef).toMatch(/^[0-9a-f]{16}$/)
    expect(callRefOf(TEST_CALL_REF_KEY, 1)).toBe(callRef)
    expect(callRefOf('00'.repeat(32), 1)).not.toBe(callRef)
  })

  it('gives every number its own callRef (a permutation), including numbers past 32 bits', () => {
    const serials = [
      ...Array.from({ length: 20_000 }, (_, index) => index + 1),
      2 ** 32 - 1,
      2 ** 32,
      2 ** 32 + 1,
      2 ** 53 - 1,
    ]
    const callRefs = new Set(serials.map((serial) => callRefOf(TEST_CALL_REF_KEY, serial)))
    expect(callRefs.size).toBe(serials.length)
  })

  it('does not count up: consecutive numbers share no prefix and come in no order', () => {
    const callRefs = Array.from({ length: 1_000 }, (_, index) =>
      callRefOf(TEST_CALL_REF_KEY, index + 1),
    )
    const prefixes = new Set(callRefs.map((callRef) => callRef.slice(0, 8)))
    expect(prefixes.size).toBe(callRefs.length)
    const ascending = callRefs.filter(
      (callRef, index) => index > 0 && callRef > (callRefs[index - 1] ?? ''),
    )
    // A counter would be ascending 999 times out of 999; random ones about half the time.
    expect(ascending.length).toBeGreaterThan(400)
    expect(ascending.length).toBeLessThan(600)
  })

  it('makes a new key of 32 random bytes each time', () => {
    const key = newCallRefKey()
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(newCallRefKey()).not.toBe(key)
  })
})

describe('the calls the engine makes', () => {
  it('get the callRefs of the sequence under the state key, and keep the order they were made in', () => {
    const world = new World()
    const first = world.call('alice', '1002')
    const made = [first]
    // Calls made and released: each call, then its ringing timeout, takes a number of the sequence.
    for (let index = 0; index < 3; index += 1) {
      const callRef = world.call('carol', '1004')
      made.push(callRef)
      if (index < 2) world.run({ type: 'release', loginName: 'carol', callRef })
    }
    expect(made).toStrictEqual([1, 3, 5, 7].map((serial) => callRefOf(TEST_CALL_REF_KEY, serial)))
    const last = made[3] ?? ''
    expect(allCalls(world.state).map((call) => call.callRef)).toStrictEqual([first, last])
    expect(allCalls(world.state).map((call) => call.serial)).toStrictEqual([1, 7])
    // The order is the calls' own, not their callRefs' (which, under this key, sort the other way).
    expect(last < first).toBe(true)
  })
})

describe('the runtime', () => {
  it('makes a random key for a new state, stored with it: two services do not share callRefs', async () => {
    const [first, second] = [new MemoryCallStore(), new MemoryCallStore()]
    const [one, two] = [await start(first), await start(second)]
    const made = [
      (await one.execute(makeCall('alice', '1001', '1002'))).callRef,
      (await two.execute(makeCall('alice', '1001', '1002'))).callRef,
    ]
    expect(made[0]).not.toBe(made[1])
    const stored = await first.load()
    expect(stored?.callRefKey).toMatch(/^[0-9a-f]{64}$/)
    expect(stored?.callRefKey).toBe(one.state.callRefKey)
    await Promise.all([one.stop(), two.stop()])
  })

  it('goes on with the stored key after a restart: the next callRef is the next of the sequence', async () => {
    const store = new MemoryCallStore()
    const service = await start(store)
    const first = (await service.execute(makeCall('alice', '1001', '1002'))).callRef
    await service.stop()
    const restarted = await start(store, '11'.repeat(32))
    const second = (await restarted.execute(makeCall('carol', '1003', '1004'))).callRef
    const key = restarted.state.callRefKey ?? ''
    expect(key).not.toBe('11'.repeat(32))
    expect([first, second]).toStrictEqual([callRefOf(key, 1), callRefOf(key, 3)])
    await restarted.stop()
  })

  it('gives a state stored before callRefs were scrambled a key; its calls keep their callRefs and come first', async () => {
    const store = new MemoryCallStore()
    const service = await start(store, TEST_CALL_REF_KEY)
    const made = await service.execute(makeCall('alice', '1001', '1002'))
    await service.stop()
    // The same call as an older version stored it: a callRef counted up from 1, no serial, no key.
    const stored = await store.load()
    if (stored === undefined) throw new Error('nothing stored')
    const [call] = allCalls(stored)
    if (call === undefined) throw new Error('no call')
    const { serial: _serial, ...old } = { ...call, callRef: '0000000000000001' }
    const { callRefKey: _key, ...rest } = stored
    const oldState = withCalls(rest, [old])
    await store.save(oldState, { ...NO_CHANGES, changedCallRefs: ['0000000000000001'] })
    await store.save(oldState, { ...NO_CHANGES, removedCallRefs: [made.callRef ?? ''] })

    const upgraded = await start(store, '22'.repeat(32))
    expect(upgraded.state.callRefKey).toBe('22'.repeat(32))
    expect((await store.load())?.callRefKey).toBe('22'.repeat(32))
    const next = (await upgraded.execute(makeCall('carol', '1003', '1004'))).callRef
    expect(next).toBe(callRefOf('22'.repeat(32), stored.sequence + 1))
    expect(allCalls(upgraded.state).map((each) => each.callRef)).toStrictEqual([
      '0000000000000001',
      next,
    ])
    await upgraded.stop()
  })
})
