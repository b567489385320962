// Call cycles into a hunting group against the same cycles between two users, measured in a process of its own
// (bench/benchmarks/hunting-groups.mjs), a child with IPC (bench/lib/ipc.mjs). A cycle: a caller makes a call
// with autoAnswer, the callee answers, the caller releases it. Four variants, each with its own state:
//   pair-engine      `execute` alone: caller i calls user i (one of 20), who answers
//   group-engine     `execute` alone: caller i calls the group 2100 (the 20 users, CIRCULAR), the member it
//                    offers the call to answers
//   pair-service     `TelephonyService.execute` with the in-memory call store, as pair-engine
//   group-service    the same, as group-engine
//   ← { cmd: 'setup', id } → {}
//   ← { cmd: 'round', id, variant, durationMs } → { cyclesPerSecond, eventsPerSecond }
import { execute } from '../../packages/server/dist/platform/telephony/call-engine.js'
import { newCallRefKey } from '../../packages/server/dist/platform/telephony/call-refs.js'
import { DEFAULT_ENGINE_SETTINGS } from '../../packages/server/dist/platform/telephony/engine-operation.js'
import { TelephonyService } from '../../packages/server/dist/platform/telephony/telephony-service.js'
import {
  callCount,
  initialState,
} from '../../packages/server/dist/platform/telephony/telephony-state.js'
import { MemoryCallStore } from '../../packages/server/dist/storage/memory/memory-call-store.js'
import { onCommands } from '../lib/ipc.mjs'

const MEMBERS = 20
const GROUP = '2100'
const people = new Map()
let now = 1_000_000
let events = 0
const variants = {}

/** Callers 40000…40019 and the group's members 20000…20019. */
for (let i = 0; i < MEMBERS; i++) {
  people.set(String(40000 + i), { loginName: `caller${i}`, firstName: 'Caller', lastName: `${i}` })
  people.set(String(20000 + i), { loginName: `member${i}`, firstName: 'Member', lastName: `${i}` })
}
const login = (deviceId) => people.get(deviceId).loginName
/** A login name's device, as the directory's index finds it (DirectoryTelephony.resolve). */
const deviceByLogin = new Map([...people].map(([deviceId, person]) => [person.loginName, deviceId]))
const directory = {
  ownerOfDevice: (deviceId) => people.get(deviceId),
  resolve: (dialed) => {
    const person = people.get(dialed)
    if (person) return { number: dialed, deviceId: dialed, loginName: person.loginName }
    const deviceId = deviceByLogin.get(dialed)
    return deviceId === undefined ? undefined : { number: deviceId, deviceId, loginName: dialed }
  },
}
const context = { directory, settings: DEFAULT_ENGINE_SETTINGS }
const group = {
  number: GROUP,
  name: 'Bench',
  policy: 'CIRCULAR',
  members: Array.from({ length: MEMBERS }, (_, i) => `member${i}`),
  noAnswerMs: 15_000,
  whenBusy: 'QUEUE',
  queueSize: 10,
  selfJoin: false,
}
const devices = () =>
  [...people].map(([deviceId, person]) => ({
    deviceId,
    loginName: person.loginName,
    state: 'IN_SERVICE',
    mutable: true,
    muted: false,
  }))

/** The member a call rings (the one offered it in a group call, the callee otherwise). */
function ringing(call) {
  const connection = call.connections.find(
    (c) => c.state === 'RINGING_INCOMING' && c.endpoint.loginName !== undefined,
  )
  return connection.endpoint
}

function engineVariant(toGroup) {
  const holder = { state: initialState(devices(), newCallRefKey()) }
  const run = (command) => {
    now += 10
    const result = execute(holder.state, command, now, context)
    holder.state = result.state
    events += result.events.length
    return result
  }
  run({ type: 'setHuntingGroup', group })
  return {
    sync: true,
    calls: () => callCount(holder.state),
    cycle(i) {
      const caller = String(40000 + (i % MEMBERS))
      const callee = toGroup ? GROUP : String(20000 + (i % MEMBERS))
      const { callRef } = run({
        type: 'makeCall',
        loginName: login(caller),
        deviceId: caller,
        callee,
        autoAnswer: true,
      })
      const member = ringing(holder.state.calls.get(callRef))
      run({ type: 'answer', loginName: member.loginName, callRef })
      run({ type: 'release', loginName: login(caller), callRef })
    },
  }
}

async function serviceVariant(toGroup) {
  const clock = { now: () => (now += 10), setTimer: () => ({ cancel() {} }), sleep: async () => {} }
  const service = await TelephonyService.start({
    store: new MemoryCallStore(),
    directory,
    clock,
    events: { publish: () => events++ },
    devices: devices(),
  })
  await service.execute({ type: 'setHuntingGroup', group })
  return {
    calls: () => callCount(service.state),
    async cycle(i) {
      const caller = String(40000 + (i % MEMBERS))
      const callee = toGroup ? GROUP : String(20000 + (i % MEMBERS))
      const { callRef } = await service.execute({
        type: 'makeCall',
        loginName: login(caller),
        deviceId: caller,
        callee,
        autoAnswer: true,
      })
      const member = ringing(service.state.calls.get(callRef))
      await service.execute({ type: 'answer', loginName: member.loginName, callRef })
      await service.execute({ type: 'release', loginName: login(caller), callRef })
    },
    close: () => service.stop(),
  }
}

async function setup() {
  variants['pair-engine'] = engineVariant(false)
  variants['group-engine'] = engineVariant(true)
  variants['pair-service'] = await serviceVariant(false)
  variants['group-service'] = await serviceVariant(true)
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
  while (elapsed < durationMs) {
    if (measured.sync) for (let i = 0; i < 100; i++, cycles++) measured.cycle(cycles)
    else for (let i = 0; i < 100; i++, cycles++) await measured.cycle(cycles)
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
  },
})
process.send({ type: 'ready' })
