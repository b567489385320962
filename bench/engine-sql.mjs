// The call engine through its runtime (issue 4): complete call cycles (make call with autoAnswer, answer,
// release) through `TelephonyService.execute`, which stores the state after every command before it
// publishes the events: with the in-memory call store, then with the SQL call store on a SQLite file
// (WAL, synchronous FULL: each command is one durable transaction). Prints cycles/s.
// Usage: npm run bench (builds first), or `node bench/engine-sql.mjs` after `npm run -s build`.
// Measured on an otherwise idle engine, and with BENCH_BACKGROUND answered calls in progress.
// Options: BENCH_MS (2000 per run, 3 runs, best shown), BENCH_USERS (100), BENCH_BACKGROUND (1000).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TelephonyService } from '../packages/server/dist/platform/telephony/telephony-service.js'
import { callCount } from '../packages/server/dist/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../packages/server/dist/storage/memory/memory-call-store.js'
import { callTables, openDatabase } from '../packages/server/dist/storage/sql/database.js'
import { SqlCallStore } from '../packages/server/dist/storage/sql/sql-call-store.js'

const DURATION_MS = Number(process.env.BENCH_MS ?? 2000)
const USERS = Number(process.env.BENCH_USERS ?? 100)
const BACKGROUND = Number(process.env.BENCH_BACKGROUND ?? 1000)

const people = new Map()
for (let i = 0; i < USERS; i++)
  people.set(String(20000 + i), {
    loginName: `user${i}`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
  })
for (let i = 0; i < 2 * BACKGROUND; i++)
  people.set(String(30000 + i), {
    loginName: `busy${i}`,
    firstName: `Busy${i}`,
    lastName: `Last${i}`,
  })
const directory = {
  ownerOfDevice: (deviceId) => people.get(deviceId),
  resolve: (dialed) => {
    const person = people.get(dialed)
    return person && { number: dialed, deviceId: dialed, loginName: person.loginName }
  },
}
const devices = [...people].map(([deviceId, person]) => ({
  deviceId,
  loginName: person.loginName,
  state: 'IN_SERVICE',
  mutable: true,
  muted: false,
}))
let now = 1_000_000
// Time moves on 10 ms a command; the engine's timers (ringing timeouts, cancelled by the answer) never fire.
const clock = {
  now: () => (now += 10),
  setTimer: () => ({ cancel() {} }),
  sleep: async () => {},
}
let events = 0
const sink = { publish: () => events++ }

const login = (deviceId) => people.get(deviceId).loginName

/** One complete call: caller calls callee, who answers; the caller hangs up. */
async function cycle(service, caller, callee) {
  const { callRef } = await service.execute({
    type: 'makeCall',
    loginName: login(caller),
    deviceId: caller,
    callee,
    autoAnswer: true,
  })
  await service.execute({ type: 'answer', loginName: login(callee), callRef })
  await service.execute({ type: 'release', loginName: login(caller), callRef })
}

async function measure(service) {
  const calls = callCount(service.state)
  let cycles = 0
  events = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < DURATION_MS) {
    for (let i = 0; i < 100; i++, cycles++)
      await cycle(service, String(20000 + (cycles % USERS)), String(20000 + ((cycles + 1) % USERS)))
    elapsed = performance.now() - start
  }
  if (callCount(service.state) !== calls) throw new Error('a cycle left a call behind')
  return { cycles: cycles / (elapsed / 1000), events: events / (elapsed / 1000) }
}

const fmt = (n) => Math.round(n).toLocaleString('en-US')
async function report(label, service) {
  for (let i = 0; i < 2000; i++)
    await cycle(service, String(20000 + (i % USERS)), String(20000 + ((i + 1) % USERS))) // warm-up
  const runs = [await measure(service), await measure(service), await measure(service)]
  const best = runs.reduce((a, b) => (b.cycles > a.cycles ? b : a))
  console.log(
    `${label.padEnd(58)} ${fmt(best.cycles).padStart(8)} cycles/s ${fmt(best.events).padStart(9)} events/s` +
      `  (runs ${runs.map((run) => fmt(run.cycles)).join(', ')})`,
  )
}

async function background(service) {
  for (let k = 0; k < BACKGROUND; k++) {
    const caller = String(30000 + 2 * k)
    const callee = String(30000 + 2 * k + 1)
    const { callRef } = await service.execute({
      type: 'makeCall',
      loginName: login(caller),
      deviceId: caller,
      callee,
      autoAnswer: true,
    })
    await service.execute({ type: 'answer', loginName: login(callee), callRef })
  }
}

async function run(name, store) {
  const service = await TelephonyService.start({ store, directory, clock, events: sink, devices })
  await report(`service call cycles, ${name}`, service)
  if (BACKGROUND > 0) {
    await background(service)
    await report(`  the same with ${fmt(BACKGROUND)} other calls in progress`, service)
  }
  await service.stop()
  await store.close()
}

await run('memory call store', new MemoryCallStore())
const directoryPath = mkdtempSync(join(tmpdir(), 'openness-engine-sql-'))
try {
  const db = await openDatabase({ kind: 'sqlite', filename: join(directoryPath, 'calls.sqlite3') })
  await run('SQL call store, SQLite file (WAL)', new SqlCallStore(callTables(db)))
} finally {
  rmSync(directoryPath, { recursive: true, force: true })
}
