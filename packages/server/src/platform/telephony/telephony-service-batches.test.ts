/**
 * When the runtime stores a batch (CallStore.groupCommit): a store that groups commands waits for the end of
 * the event loop's turn; one whose commits cost nothing (in memory) stores the commands asked in one run of
 * the program together, without waiting for a turn of the loop. Either way, commands asked together share one
 * save, and nothing resolves before it.
 */
import { describe, expect, it } from 'vitest'
import { MemoryCallStore } from '../../storage/memory/memory-call-store.js'
import type { Clock, PlatformEvent } from '../events.js'
import type { CallStore } from './call-store.js'
import type { TelephonyDirectory } from './telephony-directory.js'
import { TelephonyService } from './telephony-service.js'
import type { DeviceRecord, EngineCommand } from './telephony-state.js'

const PEOPLE = new Map([
  ['1001', 'alice'],
  ['1002', 'bob'],
  ['1003', 'carol'],
  ['1004', 'dave'],
])

const directory: TelephonyDirectory = {
  ownerOfDevice: (deviceId) => {
    const loginName = PEOPLE.get(deviceId)
    return loginName === undefined ? undefined : { loginName }
  },
  resolve: (dialed) => {
    const loginName = PEOPLE.get(dialed)
    return loginName === undefined ? undefined : { number: dialed, deviceId: dialed, loginName }
  },
}

const devices: DeviceRecord[] = [...PEOPLE].map(([deviceId, loginName]) => ({
  deviceId,
  loginName,
  state: 'IN_SERVICE',
  mutable: true,
  muted: false,
}))

/** A clock whose timers never fire: the commands below answer their calls before any timeout. */
const clock: Clock = {
  now: () => 1_000_000,
  setTimer: () => ({ cancel() {} }),
  sleep: async () => {},
}

const makeCall: EngineCommand = {
  type: 'makeCall',
  loginName: 'alice',
  deviceId: '1001',
  callee: '1002',
  autoAnswer: true,
}

/** The memory store, counting its saves, grouping or not as asked. */
function countingStore(groupCommit: boolean | undefined): {
  store: CallStore
  saves: () => number
} {
  const memory = new MemoryCallStore()
  let saves = 0
  const store: CallStore = {
    load: () => memory.load(),
    save: (state, changes) => {
      saves += 1
      return memory.save(state, changes)
    },
    saveWithRecords: (state, changes, records) => memory.saveWithRecords(state, changes, records),
    close: () => memory.close(),
    ...(groupCommit !== undefined && { groupCommit }),
  }
  return { store, saves: () => saves }
}

/** Makes a call, then answers it: whether the answer had settled by the end of the event loop's turn. */
async function makeAndAnswer(store: CallStore) {
  const events: PlatformEvent[] = []
  const service = await TelephonyService.start({
    store,
    directory,
    clock,
    events: { publish: (event) => events.push(event) },
    devices,
  })
  const { callRef } = await service.execute(makeCall)
  if (callRef === undefined) throw new Error('no call made')
  // A turn of its own, once the make call's batch is done (a command asked while one is stored joins the next).
  await service.idle()
  await new Promise((resolve) => setImmediate(resolve))
  let settled = false
  // Asked before the answer: runs at the end of this turn, before any turn the answer's batch waits for.
  const turnEnded = new Promise((resolve) => setImmediate(resolve)).then(() => settled)
  const answered = service.execute({ type: 'answer', loginName: 'bob', callRef })
  answered.then(() => {
    settled = true
  })
  await answered
  await service.stop()
  return { settledByTurnEnd: await turnEnded, events }
}

describe('TelephonyService batches', () => {
  it.each([
    ['in memory, without waiting for a turn of the loop', false],
    ['in a grouping store', undefined],
  ])('stores the commands of one run in one save %s', async (_, groupCommit) => {
    const { store, saves } = countingStore(groupCommit)
    const service = await TelephonyService.start({
      store,
      directory,
      clock,
      events: { publish: () => {} },
      devices,
    })
    const before = saves()
    const commands = [
      service.execute(makeCall),
      service.execute({ ...makeCall, loginName: 'carol', deviceId: '1003', callee: '1004' }),
      service.execute({ type: 'hold', loginName: 'bob', callRef: 'none' }),
    ]
    await expect(commands[2]).rejects.toMatchObject({ type: 'NOT_FOUND' })
    const made = await Promise.all(commands.slice(0, 2))
    expect(made.every((result) => result.callRef !== undefined)).toBe(true)
    expect(saves() - before).toBe(1)
    await service.stop()
  })

  it('answers in memory before the turn ends, and a grouping store after it, with the same events', async () => {
    const memory = await makeAndAnswer(countingStore(false).store)
    const grouping = await makeAndAnswer(countingStore(undefined).store)
    expect(memory.settledByTurnEnd).toBe(true)
    expect(grouping.settledByTurnEnd).toBe(false)
    expect(memory.events.map((event) => event.eventName)).toStrictEqual(
      grouping.events.map((event) => event.eventName),
    )
    expect(memory.events.length).toBeGreaterThan(0)
  })

  it('is what the memory store asks for', () => {
    expect(new MemoryCallStore().groupCommit).toBe(false)
  })
})
