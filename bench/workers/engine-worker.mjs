// The call engine measured in a process of its own (bench/benchmarks/engine.mjs), a child with IPC
// (bench/lib/ipc.mjs). Complete call cycles, one command at a time as the service runs them: user i
// makes a call with autoAnswer to user i+1, who answers; the caller releases it (3 commands, 11 events).
// Six variants, each with its own state:
//   engine        `execute` alone, in memory, no other call in progress
//   engine-busy   the same with BACKGROUND answered calls in progress between other users
//   service-memory  `TelephonyService.execute` (queue, store, publish) with the in-memory call store
//   service-sqlite  the same with the SQL call store on a SQLite file (WAL, synchronous FULL: each
//                 command is one durable transaction)
//   service-sqlite-comlog  the same with the communication log (docs/comlog.md): the recorder follows
//                 each command's events and the release writes both users' records in its transaction;
//                 the records' events and the event summary as the service publishes them
//   service-sqlite-comlog-inline  the same, its WAL checkpointed inside the commits (no thread)
//   ← { cmd: 'setup', id, users, background, variants? } (the names of those to make; all by default)
//   ← { cmd: 'round', id, variant, durationMs } → { cyclesPerSecond, eventsPerSecond }
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CallLogRecorder } from '../../packages/server/dist/platform/comlog/call-log-recorder.js'
import { ComlogService } from '../../packages/server/dist/platform/comlog/comlog-service.js'
import { EventSummaryService } from '../../packages/server/dist/platform/comlog/event-summary.js'
import { execute } from '../../packages/server/dist/platform/telephony/call-engine.js'
import { newCallRefKey } from '../../packages/server/dist/platform/telephony/call-refs.js'
import { DEFAULT_ENGINE_SETTINGS } from '../../packages/server/dist/platform/telephony/engine-operation.js'
import { TelephonyService } from '../../packages/server/dist/platform/telephony/telephony-service.js'
import {
  callCount,
  initialState,
} from '../../packages/server/dist/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../packages/server/dist/storage/memory/memory-call-store.js'
import { callTables, openDatabase } from '../../packages/server/dist/storage/sql/database.js'
import { SqlCallStore } from '../../packages/server/dist/storage/sql/sql-call-store.js'
import { SqlComlogStore } from '../../packages/server/dist/storage/sql/sql-comlog-store.js'
import { onCommands } from '../lib/ipc.mjs'

const people = new Map()
const login = (deviceId) => people.get(deviceId).loginName
let users = 100
let now = 1_000_000
let events = 0
const variants = {}
let sqliteDir

/** The directory: users 20000…, and the devices of the background calls from 30000. */
function directory(userCount, background) {
  for (let i = 0; i < userCount; i++)
    people.set(String(20000 + i), {
      loginName: `user${i}`,
      firstName: `First${i}`,
      lastName: `Last${i}`,
    })
  for (let i = 0; i < 2 * background; i++)
    people.set(String(30000 + i), {
      loginName: `busy${i}`,
      firstName: `Busy${i}`,
      lastName: `Last${i}`,
    })
  return {
    ownerOfDevice: (deviceId) => people.get(deviceId),
    resolve: (dialed) => {
      const person = people.get(dialed)
      return person && { number: dialed, deviceId: dialed, loginName: person.loginName }
    },
  }
}

const devices = () =>
  [...people].map(([deviceId, person]) => ({
    deviceId,
    loginName: person.loginName,
    state: 'IN_SERVICE',
    mutable: true,
    muted: false,
  }))

/** `execute` alone: a holder of the state, and its cycle (the clock moves 10 ms a command). */
function engineVariant(context, background) {
  const holder = { state: initialState(devices(), newCallRefKey()) }
  const run = (command) => {
    now += 10
    const result = execute(holder.state, command, now, context)
    holder.state = result.state
    events += result.events.length
    return result
  }
  /** A call from `caller` to `callee`, answered; its callRef. */
  const answered = (caller, callee) => {
    const made = run({
      type: 'makeCall',
      loginName: login(caller),
      deviceId: caller,
      callee,
      autoAnswer: true,
    })
    run({ type: 'answer', loginName: login(callee), callRef: made.callRef })
    return made.callRef
  }
  for (let k = 0; k < background; k++) answered(String(30000 + 2 * k), String(30000 + 2 * k + 1))
  return {
    sync: true,
    calls: () => callCount(holder.state),
    cycle(caller, callee) {
      const callRef = answered(caller, callee)
      run({ type: 'release', loginName: login(caller), callRef })
    },
  }
}

/**
 * `TelephonyService.execute` over `store`; its timers never fire (the answer cancels them). With `comlog`
 * (a SqlComlogStore over the store's database), the communication log as assembly/start-records.ts wires it.
 */
async function serviceVariant(dir, store, comlogStore) {
  const clock = { now: () => (now += 10), setTimer: () => ({ cancel() {} }), sleep: async () => {} }
  const sink = { publish: () => events++ }
  let log
  if (comlogStore) {
    const summary = new EventSummaryService(
      {
        missedCalls: (loginName) => comlogStore.countUnacknowledgedMissed(loginName),
        callbackRequests: () => 0,
      },
      sink,
    )
    const comlog = new ComlogService(comlogStore, sink, summary)
    log = {
      recorder: new CallLogRecorder(dir),
      onCommitted: (committed) => comlog.engineCommitted(committed),
    }
  }
  const service = await TelephonyService.start({
    store,
    directory: dir,
    clock,
    events: sink,
    devices: devices(),
    ...log,
  })
  return {
    calls: () => callCount(service.state),
    async cycle(caller, callee) {
      const { callRef } = await service.execute({
        type: 'makeCall',
        loginName: login(caller),
        deviceId: caller,
        callee,
        autoAnswer: true,
      })
      await service.execute({ type: 'answer', loginName: login(callee), callRef })
      await service.execute({ type: 'release', loginName: login(caller), callRef })
    },
    async close() {
      await service.stop()
      await store.close()
    },
  }
}

/** How each variant is made, in the order `setup` makes them. */
const MAKERS = {
  engine: ({ context }) => engineVariant(context, 0),
  'engine-busy': ({ context, background }) => engineVariant(context, background),
  'service-memory': ({ dir }) => serviceVariant(dir, new MemoryCallStore()),
  'service-sqlite': async ({ dir }) =>
    serviceVariant(dir, new SqlCallStore(await sqliteTables('calls.sqlite3'))),
  'service-sqlite-comlog': async ({ dir }) => {
    const db = await sqliteTables('comlog.sqlite3')
    return serviceVariant(dir, new SqlCallStore(db), new SqlComlogStore(db))
  },
  // The same, its WAL checkpointed inside the commits as SQLite does by default (wal-checkpointer.ts).
  'service-sqlite-comlog-inline': async ({ dir }) => {
    const db = await sqliteTables('comlog-inline.sqlite3', { checkpointThread: false })
    return serviceVariant(dir, new SqlCallStore(db), new SqlComlogStore(db))
  },
}

/** The tables of a new SQLite file in this worker's temporary directory (WAL, durable). */
async function sqliteTables(filename, options = {}) {
  sqliteDir ??= mkdtempSync(join(tmpdir(), 'openness-bench-engine-'))
  return callTables(
    await openDatabase({ kind: 'sqlite', filename: join(sqliteDir, filename), ...options }),
  )
}

/**
 * Makes the variants named (all of them by default). A worker that makes only some holds only their state:
 * the engine's comparison with an earlier build runs the variants that build's worker has, in a process
 * that made what that one made (what a process made before the rounds moves how V8 collects its garbage
 * during them).
 */
async function setup({ users: userCount = 100, background = 1000, variants: names }) {
  users = userCount
  const dir = directory(userCount, background)
  const context = { directory: dir, settings: DEFAULT_ENGINE_SETTINGS }
  for (const [name, make] of Object.entries(MAKERS))
    if (names === undefined || names.includes(name))
      variants[name] = await make({ dir, context, background })
  return {}
}

/** Cycles for `durationMs`, checked in batches of 100 (the clock is read between batches). */
async function round({ variant, durationMs }) {
  const measured = variants[variant]
  const calls = measured.calls()
  let cycles = 0
  events = 0
  const start = performance.now()
  let elapsed = 0
  const caller = () => String(20000 + (cycles % users))
  const callee = () => String(20000 + ((cycles + 1) % users))
  while (elapsed < durationMs) {
    // The engine alone is synchronous: no promise round trip in its loop.
    if (measured.sync) for (let i = 0; i < 100; i++, cycles++) measured.cycle(caller(), callee())
    else for (let i = 0; i < 100; i++, cycles++) await measured.cycle(caller(), callee())
    elapsed = performance.now() - start
  }
  if (measured.calls() !== calls) throw new Error(`${variant}: a cycle left a call behind`)
  return { cyclesPerSecond: cycles / (elapsed / 1000), eventsPerSecond: events / (elapsed / 1000) }
}

onCommands({
  setup,
  round,
  exit: async () => {
    for (const variant of Object.values(variants)) await variant.close?.()
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true })
  },
})
process.send({ type: 'ready' })
