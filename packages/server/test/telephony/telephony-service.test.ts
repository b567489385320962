/**
 * The runtime around the call engine (issue 4 items 4 and 5): commands one at a time, the state stored
 * after each, events published in order, engine timers run on the clock port, and calls and timers that
 * survive a restart over the same SQLite file. A virtual clock drives time; nothing sleeps.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'
import { startPlatform } from '../../src/assembly/service.js'
import type { EventSink, PlatformEvent } from '../../src/platform/events.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { callRefOf } from '../../src/platform/telephony/call-refs.js'
import type { CallStore } from '../../src/platform/telephony/call-store.js'
import { answerOn } from '../../src/platform/telephony/engine-owner-term.js'
import { TelephonyService } from '../../src/platform/telephony/telephony-service.js'
import {
  ANSWERED_REQUESTS_KEPT,
  callOf,
  type EngineCommand,
  initialState,
  withAnswered,
} from '../../src/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../src/storage/memory/memory-call-store.js'
import { callTables, type DatabaseTarget, openDatabase } from '../../src/storage/sql/database.js'
import { SqlCallStore } from '../../src/storage/sql/sql-call-store.js'
import { devicesOf, FOUR_PEOPLE, telephonyDirectoryOf } from '../support/telephony-people.js'
import { TEST_SCRYPT_COST } from '../support/test-service.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { TEST_CALL_REF_KEY } from './support.js'

const people = FOUR_PEOPLE
const directory = telephonyDirectoryOf(people)
const devices = devicesOf(people)

const RINGING_TIMEOUT_MS = 20_000

class RecordingSink implements EventSink {
  readonly events: PlatformEvent[] = []
  publish(event: PlatformEvent): void {
    this.events.push(event)
  }
  /** `eventName loginName [cause]` of each event, in order. */
  get lines(): string[] {
    return this.events.map((event) =>
      [event.eventName, event.loginName, event['cause']].filter(Boolean).join(' '),
    )
  }
}

function start(store: CallStore, clock: VirtualClock, sink: EventSink): Promise<TelephonyService> {
  return TelephonyService.start({
    store,
    directory,
    clock,
    events: sink,
    devices,
    settings: { ringingTimeoutMs: RINGING_TIMEOUT_MS },
    newCallRefKey: () => TEST_CALL_REF_KEY,
  })
}

/**
 * The callRefs of the first and third numbers of the sequence (a call, its ringing timeout, the next call):
 * with a known key they are known before the call is made, so that a command may name a call whose make
 * call is not stored yet.
 */
const FIRST_CALL = callRefOf(TEST_CALL_REF_KEY, 1)
const SECOND_CALL = callRefOf(TEST_CALL_REF_KEY, 3)

function makeCall(loginName: string, deviceId: string, callee: string): EngineCommand {
  return { type: 'makeCall', loginName, deviceId, callee, autoAnswer: true }
}

/** A memory store whose saves fail ('disk full') while `failing()` says so. */
function flakyStore(failing: () => boolean): { store: CallStore; memory: MemoryCallStore } {
  const memory = new MemoryCallStore()
  const store: CallStore = {
    load: () => memory.load(),
    save: async (state, changes) => {
      if (failing()) throw new Error('disk full')
      await memory.save(state, changes)
    },
    saveWithRecords: async (state, changes, records) => {
      if (failing()) throw new Error('disk full')
      return memory.saveWithRecords(state, changes, records)
    },
    close: () => memory.close(),
  }
  return { store, memory }
}

describe('TelephonyService', () => {
  let clock: VirtualClock
  let sink: RecordingSink
  let service: TelephonyService

  beforeEach(async () => {
    clock = new VirtualClock()
    sink = new RecordingSink()
    service = await start(new MemoryCallStore(), clock, sink)
  })

  afterEach(async () => {
    await service.stop()
  })

  it('places and answers a call, publishing the events of each command in order', async () => {
    const made = await service.execute(makeCall('alice', '1001', '1002'))
    const callRef = made.callRef ?? ''
    const answered = await service.execute({ type: 'answer', loginName: 'bob', callRef })

    expect(sink.events).toStrictEqual([...made.events, ...answered.events])
    expect(sink.lines).toStrictEqual([
      'OnCallCreated alice',
      'OnCallCreated bob',
      'OnCallModified alice',
      'OnCallModified bob',
      'OnUserStateModified alice',
      'OnUserStateModified bob',
    ])
    expect(callOf(service.state, callRef)?.connections.map((c) => c.state)).toStrictEqual([
      'ACTIVE',
      'ACTIVE',
    ])
    // Answering cancelled the ringing timeout: no engine timer, no clock timer.
    expect(service.state.timers).toStrictEqual([])
    expect(clock.pending).toBe(0)
  })

  it('releases an unanswered call with NOT_ANSWERED once the ringing timeout is over', async () => {
    const { callRef = '' } = await service.execute(makeCall('alice', '1001', '1002'))
    sink.events.length = 0

    await clock.advance(RINGING_TIMEOUT_MS - 1)
    await service.idle()
    expect(callOf(service.state, callRef)).toBeDefined()
    expect(sink.events).toStrictEqual([])

    await clock.advance(1)
    await service.idle()
    expect(allCalls(service.state)).toStrictEqual([])
    expect(service.state.timers).toStrictEqual([])
    // The engine orders the events of one step; the service publishes them as given.
    expect([...sink.lines].sort()).toStrictEqual([
      'OnCallModified alice NOT_ANSWERED',
      'OnCallRemoved alice NOT_ANSWERED',
      'OnCallRemoved bob NOT_ANSWERED',
    ])
    expect(clock.pending).toBe(0)
  })

  it('arms the earliest of several timers, then the next one', async () => {
    const first = await service.execute(makeCall('alice', '1001', '1002'))
    await clock.advance(5_000)
    const second = await service.execute(makeCall('carol', '1003', '1004'))

    await clock.advance(RINGING_TIMEOUT_MS - 5_000)
    await service.idle()
    expect(allCalls(service.state).map((call) => call.callRef)).toStrictEqual([second.callRef])

    await clock.advance(5_000)
    await service.idle()
    expect(allCalls(service.state)).toStrictEqual([])
    expect(first.callRef).not.toBe(second.callRef)
  })

  it('runs commands one at a time, in the order they were asked, even when asked together', async () => {
    let saving = 0
    let mostAtOnce = 0
    const memory = new MemoryCallStore()
    const slowStore: CallStore = {
      load: () => memory.load(),
      save: async (state, changes) => {
        saving += 1
        mostAtOnce = Math.max(mostAtOnce, saving)
        await new Promise((resolve) => setImmediate(resolve))
        await memory.save(state, changes)
        saving -= 1
      },
      saveWithRecords: (state, changes, records) => memory.saveWithRecords(state, changes, records),
      close: () => memory.close(),
    }
    await service.stop()
    service = await start(slowStore, clock, sink)

    // The answer is asked before the call it answers is stored: it must wait for the make call.
    const made = service.execute(makeCall('alice', '1001', '1002'))
    const answered = service.execute({
      type: 'answer',
      loginName: 'bob',
      callRef: FIRST_CALL,
    })
    const refused = service.execute({ type: 'hold', loginName: 'carol', callRef: 'nonexistent' })
    const other = service.execute(makeCall('carol', '1003', '1004'))

    await expect(refused).rejects.toMatchObject({ type: 'NOT_FOUND' })
    const results = await Promise.all([made, answered, other])
    expect(results[0].callRef).toBe(FIRST_CALL)
    expect(results[2].callRef).toBe(SECOND_CALL)
    expect(mostAtOnce).toBe(1)
    expect(sink.events).toStrictEqual(results.flatMap((result) => result.events))
    const loaded = await memory.load()
    if (loaded === undefined) throw new Error('nothing stored')
    expect(allCalls(loaded)).toStrictEqual(allCalls(service.state))
  })

  it('changes nothing and publishes nothing when the store fails to save', async () => {
    let failing = false
    await service.stop()
    service = await start(flakyStore(() => failing).store, clock, sink)
    const before = service.state

    failing = true
    await expect(service.execute(makeCall('alice', '1001', '1002'))).rejects.toThrow('disk full')

    expect(service.state).toBe(before)
    expect(sink.events).toStrictEqual([])
    failing = false
    await expect(service.execute(makeCall('alice', '1001', '1002'))).resolves.toMatchObject({
      callRef: FIRST_CALL,
    })
  })

  it('stores the commands asked in one turn in one save, then publishes and settles each in order', async () => {
    const memory = new MemoryCallStore()
    const saved: string[][] = []
    const countingStore: CallStore = {
      load: () => memory.load(),
      save: async (state, changes) => {
        saved.push([...changes.changedCallRefs, ...changes.removedCallRefs.map((ref) => `-${ref}`)])
        await memory.save(state, changes)
      },
      saveWithRecords: (state, changes, records) => memory.saveWithRecords(state, changes, records),
      close: () => memory.close(),
    }
    await service.stop()
    service = await start(countingStore, clock, sink)
    saved.length = 0
    const settled: string[] = []

    // Asked in one turn: the second answers the call the first makes, before anything is stored.
    const made = service.execute(makeCall('alice', '1001', '1002')).then((result) => {
      settled.push(`made after ${sink.events.length} events`)
      return result
    })
    const answered = service
      .execute({ type: 'answer', loginName: 'bob', callRef: FIRST_CALL })
      .then((result) => {
        settled.push(`answered after ${sink.events.length} events`)
        return result
      })
    // Nothing is stored, published or current before the batch is stored.
    expect(allCalls(service.state)).toStrictEqual([])
    expect(sink.events).toStrictEqual([])

    const [first, second] = await Promise.all([made, answered])
    // One save for both, with the call once; the events of each command, in order.
    expect(saved).toStrictEqual([[FIRST_CALL]])
    expect(sink.events).toStrictEqual([...first.events, ...second.events])
    expect(settled).toStrictEqual([
      `made after ${sink.events.length} events`,
      `answered after ${sink.events.length} events`,
    ])
    expect(callOf(service.state, FIRST_CALL)?.connections.map((c) => c.state)).toStrictEqual([
      'ACTIVE',
      'ACTIVE',
    ])

    // A call made and released in one batch: removed from the store, never written.
    const again = service.execute(makeCall('carol', '1003', '1004'))
    const released = service.execute({
      type: 'release',
      loginName: 'carol',
      callRef: SECOND_CALL,
    })
    await Promise.all([again, released])
    expect(saved.at(-1)).toStrictEqual([`-${SECOND_CALL}`])
    const loaded = await memory.load()
    expect(loaded && allCalls(loaded).map((call) => call.callRef)).toStrictEqual([FIRST_CALL])
  })

  it('fails a batch that is not stored and every command run after it, and goes back to the stored state', async () => {
    const memory = new MemoryCallStore()
    let failures = 0
    const flakyStore: CallStore = {
      load: () => memory.load(),
      save: async (state, changes) => {
        if (failures > 0) {
          failures -= 1
          // Commands asked while this save is under way run on the state it is storing.
          await new Promise((resolve) => setImmediate(resolve))
          throw new Error('disk full')
        }
        await memory.save(state, changes)
      },
      saveWithRecords: (state, changes, records) => memory.saveWithRecords(state, changes, records),
      close: () => memory.close(),
    }
    await service.stop()
    service = await start(flakyStore, clock, sink)
    const before = service.state

    failures = 1
    const made = service.execute(makeCall('alice', '1001', '1002'))
    await new Promise((resolve) => setImmediate(resolve))
    // Asked while the make call is being stored: runs on it, so fails with it.
    const answered = service.execute({
      type: 'answer',
      loginName: 'bob',
      callRef: FIRST_CALL,
    })

    await expect(made).rejects.toThrow('disk full')
    await expect(answered).rejects.toThrow('disk full')
    expect(service.state).toBe(before)
    expect(sink.events).toStrictEqual([])
    // The head went back too: the call never made cannot be answered, and the next command runs on the
    // stored state.
    await expect(
      service.execute({ type: 'answer', loginName: 'bob', callRef: FIRST_CALL }),
    ).rejects.toMatchObject({ type: 'NOT_FOUND' })
    await expect(service.execute(makeCall('alice', '1001', '1002'))).resolves.toMatchObject({
      callRef: FIRST_CALL,
    })
  })

  it('publishes a snapshot after the events of the commands asked before it', async () => {
    const made = service.execute(makeCall('alice', '1001', '1002'))
    const snapshot = service.snapshot('alice')
    await Promise.all([made, snapshot])

    expect(sink.lines).toStrictEqual([
      'OnCallCreated alice',
      'OnCallCreated bob',
      'OnTelephonyState alice',
    ])
    // The snapshot shows the call its command made.
    expect(JSON.stringify(sink.events.at(-1))).toContain((await made).callRef)
  })

  it("reports a timer's command whose batch is not stored, and runs it again a second later", async () => {
    let failing = false
    const timerErrors: string[] = []
    await service.stop()
    service = await TelephonyService.start({
      store: flakyStore(() => failing).store,
      directory,
      clock,
      events: sink,
      devices,
      settings: { ringingTimeoutMs: RINGING_TIMEOUT_MS },
      onTimerError: (error, timer) =>
        timerErrors.push(`${timer.command.type}: ${(error as Error).message}`),
    })
    const { callRef = '' } = await service.execute(makeCall('alice', '1001', '1002'))
    sink.events.length = 0

    failing = true
    await clock.advance(RINGING_TIMEOUT_MS)
    await service.idle()
    expect(timerErrors).toStrictEqual(['ringingTimeout: disk full'])
    expect(callOf(service.state, callRef)).toBeDefined()

    // Not in a tight loop: nothing runs before the second is over.
    failing = false
    await clock.advance(999)
    await service.idle()
    expect(callOf(service.state, callRef)).toBeDefined()
    await clock.advance(1)
    await service.idle()
    expect(allCalls(service.state)).toStrictEqual([])
    expect([...sink.lines].sort()).toStrictEqual([
      'OnCallModified alice NOT_ANSWERED',
      'OnCallRemoved alice NOT_ANSWERED',
      'OnCallRemoved bob NOT_ANSWERED',
    ])
  })

  it('refuses commands once stopped', async () => {
    await service.stop()
    await expect(service.execute(makeCall('alice', '1001', '1002'))).rejects.toThrow(/stopped/)
  })
})

describe('TelephonyService over a SQLite file, restarted', () => {
  let root: string
  let target: DatabaseTarget

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'openness-telephony-'))
    target = { kind: 'sqlite', filename: join(root, 'calls.sqlite3') }
  })

  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  async function open(clock: VirtualClock, sink: EventSink) {
    const store = new SqlCallStore(callTables(await openDatabase(target)))
    const service = await start(store, clock, sink)
    return {
      service,
      close: async () => {
        await service.stop()
        await store.close()
      },
    }
  }

  it('keeps the calls in progress and their pending timers, which fire at their time', async () => {
    const clock = new VirtualClock()
    const before = await open(clock, new RecordingSink())
    const answered = await before.service.execute(makeCall('alice', '1001', '1002'))
    await before.service.execute({
      type: 'answer',
      loginName: 'bob',
      callRef: answered.callRef ?? '',
    })
    await clock.advance(5_000)
    const ringing = await before.service.execute(makeCall('carol', '1003', '1004'))
    const state = before.service.state
    await before.close()
    expect(clock.pending).toBe(0)

    await clock.advance(10_000)
    const sink = new RecordingSink()
    const after = await open(clock, sink)
    try {
      expect(after.service.state).toStrictEqual(state)
      expect(clock.pending).toBe(1)

      await clock.advance(RINGING_TIMEOUT_MS - 10_000 - 1)
      await after.service.idle()
      expect(sink.events).toStrictEqual([])

      await clock.advance(1)
      await after.service.idle()
      // The engine orders the events of one step; the service publishes them as given.
      expect([...sink.lines].sort()).toStrictEqual([
        'OnCallModified carol NOT_ANSWERED',
        'OnCallRemoved carol NOT_ANSWERED',
        'OnCallRemoved dave NOT_ANSWERED',
      ])
      expect(allCalls(after.service.state).map((call) => call.callRef)).toStrictEqual([
        answered.callRef,
      ])
      expect(ringing.callRef).not.toBe(answered.callRef)

      // The call that survived can be released as usual, and the new state is stored.
      await after.service.execute({
        type: 'release',
        loginName: 'alice',
        callRef: answered.callRef ?? '',
      })
    } finally {
      await after.close()
    }
    const again = await open(clock, new RecordingSink())
    try {
      expect(allCalls(again.service.state)).toStrictEqual([])
      expect(again.service.state.timers).toStrictEqual([])
    } finally {
      await again.close()
    }
  })

  it('runs at start the timers that fell due while the service was down', async () => {
    const clock = new VirtualClock()
    const before = await open(clock, new RecordingSink())
    await before.service.execute(makeCall('alice', '1001', '1002'))
    await before.close()

    await clock.advance(RINGING_TIMEOUT_MS * 2)
    const sink = new RecordingSink()
    const after = await open(clock, sink)
    try {
      await clock.advance(0)
      await after.service.idle()
      expect(allCalls(after.service.state)).toStrictEqual([])
      expect(sink.lines).toContain('OnCallRemoved bob NOT_ANSWERED')
    } finally {
      await after.close()
    }
  })
})

describe('the telephony service in the running platform', () => {
  let root: string

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'openness-platform-telephony-'))
  })

  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  function startOn(clock: VirtualClock) {
    return startPlatform({
      database: { kind: 'sqlite', filename: join(root, 'openness.sqlite3') },
      directoryFile: DEMO_DIRECTORY_FILE,
      clock,
      sessionTtlSeconds: 300,
      scryptCost: TEST_SCRYPT_COST,
      engineSettings: { ringingTimeoutMs: RINGING_TIMEOUT_MS },
    })
  }

  it('knows every device of the directory, resolves logins and outside numbers, and survives a restart', async () => {
    const clock = new VirtualClock()
    const first = await startOn(clock)
    let callRef = ''
    try {
      const { telephony } = first
      expect(telephony.state.devices['1103']).toStrictEqual({
        deviceId: '1103',
        loginName: 'carol',
        state: 'IN_SERVICE',
        mutable: true,
        muted: false,
      })

      // A login name reaches the user's MAIN device.
      const internal = await telephony.execute(makeCall('alice', '1001', 'carol'))
      callRef = internal.callRef ?? ''
      expect(callOf(telephony.state, callRef)?.connections.map((c) => c.endpoint)).toStrictEqual([
        { number: '1001', deviceId: '1001', loginName: 'alice' },
        { number: '1003', deviceId: '1003', loginName: 'carol' },
      ])

      // The outside-line prefix ("0" in the demo) reaches an outside number.
      const outside = await telephony.execute(makeCall('bob', '1002', '0612345678'))
      expect(
        callOf(telephony.state, outside.callRef ?? '')?.connections.map((c) => c.endpoint),
      ).toStrictEqual([
        { number: '1002', deviceId: '1002', loginName: 'bob' },
        { number: '612345678' },
      ])

      await expect(telephony.execute(makeCall('dave', '1004', 'nobody'))).rejects.toMatchObject({
        type: 'NOT_FOUND',
      })
    } finally {
      await first.close()
    }

    const second = await startOn(clock)
    try {
      expect(callOf(second.telephony.state, callRef)).toBeDefined()
      await second.telephony.execute({ type: 'answer', loginName: 'carol', callRef })
      expect(
        callOf(second.telephony.state, callRef)?.connections.map((c) => c.state),
      ).toStrictEqual(['ACTIVE', 'ACTIVE'])
    } finally {
      await second.close()
    }
  })
})

describe('TelephonyService and forwarded requests (docs/cluster-engine.md, "The engine on every node")', () => {
  it('stores the id of a forwarded request with the batch that ran it, and the call it made', async () => {
    const store = new MemoryCallStore()
    const service = await start(store, new VirtualClock(), new RecordingSink())
    const { callRef } = await service.execute(makeCall('alice', '1001', '1002'), 'request-1')
    await service.execute({ type: 'answer', loginName: 'bob', callRef: callRef ?? '' }, 'request-2')
    await service.execute(makeCall('carol', '1003', '1004'))

    const stored = await store.load()
    expect(stored?.answered).toStrictEqual([
      { requestId: 'request-1', callRef },
      { requestId: 'request-2' },
    ])
    await service.stop()
  })

  it('keeps the last full batch of them, the oldest forgotten first', () => {
    let state = initialState([], TEST_CALL_REF_KEY)
    for (let i = 0; i < ANSWERED_REQUESTS_KEPT + 3; i++)
      state = withAnswered(state, `r${i}`, undefined)
    expect(state.answered).toHaveLength(ANSWERED_REQUESTS_KEPT)
    expect(state.answered?.[0]).toStrictEqual({ requestId: 'r3' })
    expect(state.answered?.at(-1)).toStrictEqual({ requestId: `r${ANSWERED_REQUESTS_KEPT + 2}` })
  })

  it("answers a request its stored state remembers as run from there, without running it again (a dead owner's)", async () => {
    const store = new MemoryCallStore()
    const sink = new RecordingSink()
    const first = await start(store, new VirtualClock(), sink)
    const request = { kind: 'command' as const, command: makeCall('alice', '1001', '1002') }
    const answered = await answerOn(first)(request, 'request-1')
    await first.stop()
    // The next owner loads what the first stored; the request comes to it again, unanswered.
    const next = await start(store, new VirtualClock(), sink)
    const events = sink.events.length
    const again = await answerOn(next)(request, 'request-1')

    expect(again.result.callRef).toBe(answered.result.callRef)
    expect(allCalls(next.state)).toHaveLength(1)
    expect(sink.events.length).toBe(events)
    // Another request runs.
    await answerOn(next)(
      { kind: 'command', command: makeCall('carol', '1003', '1004') },
      'request-2',
    )
    expect(allCalls(next.state)).toHaveLength(2)
    await next.stop()
  })
})
