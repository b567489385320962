// The call engine alone, in memory (issue 4): complete call cycles through `execute`, one command at a time
// as the service runs them: make call with autoAnswer, answer, release. Prints cycles/s and events/s.
// Usage: npm run bench (builds first), or `node bench/engine.mjs` after `npm run -s build`.
// Measured twice: on an otherwise idle engine, and with BENCH_BACKGROUND answered calls in progress between
// other users (a command should cost what the calls it touches cost, not what all calls cost).
// Options: BENCH_MS (2000 per run, 3 runs, best shown), BENCH_USERS (100 users, each calling the next one),
// BENCH_BACKGROUND (1000).
import {
  DEFAULT_ENGINE_SETTINGS,
  execute,
} from '../packages/server/dist/platform/telephony/call-engine.js'
import {
  callCount,
  initialState,
} from '../packages/server/dist/platform/telephony/telephony-state.js'

const DURATION_MS = Number(process.env.BENCH_MS ?? 2000)
const USERS = Number(process.env.BENCH_USERS ?? 100)
const BACKGROUND = Number(process.env.BENCH_BACKGROUND ?? 1000)
const TARGET = 20_000

const people = new Map()
for (let i = 0; i < USERS; i++)
  people.set(String(20000 + i), {
    loginName: `user${i}`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
  })
const directory = {
  ownerOfDevice: (deviceId) => people.get(deviceId),
  resolve: (dialed) => {
    const person = people.get(dialed)
    return person && { number: dialed, deviceId: dialed, loginName: person.loginName }
  },
}
// Devices of the background calls: 2 per call, numbered from 30000.
for (let i = 0; i < 2 * BACKGROUND; i++)
  people.set(String(30000 + i), {
    loginName: `busy${i}`,
    firstName: `Busy${i}`,
    lastName: `Last${i}`,
  })
const context = { directory, settings: DEFAULT_ENGINE_SETTINGS }
const devices = [...people].map(([deviceId, person]) => ({
  deviceId,
  loginName: person.loginName,
  state: 'IN_SERVICE',
  mutable: true,
  muted: false,
}))

let state = initialState(devices)
let now = 1_000_000
let events = 0
/** The clock moves on by `ms`; returns the new time. */
function tick(ms) {
  now += ms
  return now
}

/** One complete call: user i calls user i+1, who answers; the caller hangs up. */
function cycle(i) {
  const caller = String(20000 + (i % USERS))
  const callee = String(20000 + ((i + 1) % USERS))
  const callerLogin = people.get(caller).loginName
  const made = execute(
    state,
    { type: 'makeCall', loginName: callerLogin, deviceId: caller, callee, autoAnswer: true },
    tick(10),
    context,
  )
  const callRef = made.callRef
  const answered = execute(
    made.state,
    { type: 'answer', loginName: people.get(callee).loginName, callRef },
    tick(10),
    context,
  )
  const released = execute(
    answered.state,
    { type: 'release', loginName: callerLogin, callRef },
    tick(10),
    context,
  )
  state = released.state
  events += made.events.length + answered.events.length + released.events.length
}

function measure() {
  const baseline = { calls: callCount(state), timers: state.timers.length }
  let cycles = 0
  events = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < DURATION_MS) {
    for (let i = 0; i < 1000; i++) cycle(cycles++)
    elapsed = performance.now() - start
  }
  if (callCount(state) !== baseline.calls || state.timers.length !== baseline.timers)
    throw new Error('a cycle left a call or a timer behind')
  return {
    cycles: cycles / (elapsed / 1000),
    events: events / (elapsed / 1000),
    perCycle: events / cycles,
  }
}

const fmt = (n) => Math.round(n).toLocaleString('en-US')
function report(label) {
  for (let i = 0; i < 20_000; i++) cycle(i) // warm-up
  const runs = [measure(), measure(), measure()]
  const best = runs.reduce((a, b) => (b.cycles > a.cycles ? b : a))
  console.log(
    `${label.padEnd(58)} ${fmt(best.cycles).padStart(8)} cycles/s ${fmt(best.events).padStart(9)} events/s` +
      `  (${best.perCycle} events/cycle; runs ${runs.map((run) => fmt(run.cycles)).join(', ')}; target ≥ ${fmt(TARGET)})`,
  )
}

report('engine call cycles (make, answer, release), in memory')
if (BACKGROUND > 0) {
  // Background calls: busy(2k) calls busy(2k+1), answered, left in progress.
  for (let k = 0; k < BACKGROUND; k++) {
    const caller = String(30000 + 2 * k)
    const callee = String(30000 + 2 * k + 1)
    const made = execute(
      state,
      {
        type: 'makeCall',
        loginName: people.get(caller).loginName,
        deviceId: caller,
        callee,
        autoAnswer: true,
      },
      tick(1),
      context,
    )
    state = execute(
      made.state,
      { type: 'answer', loginName: people.get(callee).loginName, callRef: made.callRef },
      tick(1),
      context,
    ).state
  }
  report(`the same with ${fmt(BACKGROUND)} other calls in progress`)
}
