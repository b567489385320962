// The load generator of bench/benchmarks/rest-calls.mjs, a child with IPC (bench/lib/ipc.mjs): pairs of
// demo users, each user with its own session, subscription to the `telephony` package and chunk channel
// over a real socket. A cycle: the caller places the call (POST /telephony/calls), the callee answers
// (POST .../answer), the caller releases it (DELETE /telephony/calls/{callRef}); it ends when both
// channels delivered OnCallRemoved. The latency is from sending the answer request to the caller's
// channel delivering the OnCallModified that shows the call ACTIVE.
//   ← { cmd: 'setup', id, port, pairs }          logs the users in, opens their channels
//   ← { cmd: 'setup', id, ports, pairs }         the same over several nodes of a cluster: user i talks to
//                                               ports[i % ports.length] (a caller and its callee on two)
//   ← { cmd: 'round', id, durationMs }  → { cycles, seconds, latencies: { p50, p99, max } }
import { Agent, request } from 'node:http'
import { exchange } from '../lib/http.mjs'
import { onCommands } from '../lib/ipc.mjs'
import { latencySummary } from '../lib/stats.mjs'

// STANDARD users with TELEPHONY_ADVANCED in the demo directory, and their devices.
const USERS = [
  ['alice', '1001'],
  ['bob', '1002'],
  ['franck', '1006'],
  ['gaelle', '1007'],
  ['ines', '1009'],
  ['karim', '1011'],
  ['carol', '1003'],
  ['erin', '1005'],
  ['henri', '1008'],
  ['julien', '1010'],
]
const agent = new Agent({ keepAlive: true, maxSockets: 64 })
const now = () => performance.now()
let ports = []
let pairs = []
let users = []

/** One HTTP exchange on the loader's agent (bench/lib/http.mjs), to the node at `port`. */
const http = (port, method, path, options = {}) =>
  exchange({ port, method, path, agent, ...options })

/** A chunk channel: calls `onEvent` with each parsed line. */
function openChannel(url, onEvent) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { accept: '*/*' } }, (res) => {
      let buffer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        buffer += chunk
        let newline = buffer.indexOf('\n')
        while (newline !== -1) {
          const line = buffer.slice(0, newline)
          buffer = buffer.slice(newline + 1)
          if (line.trim() !== '') onEvent(JSON.parse(line))
          newline = buffer.indexOf('\n')
        }
      })
      resolve(req)
    })
    req.on('error', reject)
    req.end()
  })
}

/** A logged-in user with an open channel; `waitFor` resolves on the next event matching a predicate. */
async function party([login, deviceId], port) {
  const auth = await http(port, 'GET', '/api/rest/authenticate?version=1.0', {
    headers: { authorization: `Basic ${Buffer.from(`${login}:demo-${login}`).toString('base64')}` },
  })
  if (auth.status !== 200) throw new Error(`login ${login}: ${auth.status}`)
  const cookie = String(auth.headers['set-cookie']).split(';')[0]
  const session = await http(port, 'POST', '/api/rest/1.0/sessions', {
    cookie,
    body: { applicationName: 'bench' },
  })
  if (session.status !== 200) throw new Error(`session ${login}: ${session.status}`)
  const subscription = await http(port, 'POST', '/api/rest/1.0/subscriptions', {
    cookie,
    body: { filter: { selectors: [{ names: ['telephony'] }] }, version: '1.0', timeout: 10 },
  })
  if (subscription.status !== 200) throw new Error(`subscription ${login}: ${subscription.status}`)
  const waiters = []
  const channel = await openChannel(subscription.body.privatePollingUrl, (event) => {
    const index = waiters.findIndex((waiter) => waiter.matches(event))
    if (index !== -1) waiters.splice(index, 1)[0].resolve(now())
  })
  const waitFor = (matches) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${login}: event not received`)), 10_000)
      waiters.push({
        matches,
        resolve: (at) => {
          clearTimeout(timer)
          resolve(at)
        },
      })
    })
  /** Ends the channel and closes the session (its subscription with it), so that a later loader starts clean. */
  const close = async () => {
    channel.destroy()
    await http(port, 'DELETE', '/api/rest/1.0/sessions', { cookie }).catch(() => {})
  }
  return { login, deviceId, port, cookie, waitFor, close }
}

const isEvent =
  (name, callRef, test = () => true) =>
  (event) =>
    event.eventName === name && event.callRef === callRef && test(event)

/** One complete cycle between a caller and a callee; returns the answer-to-event latency in ms. */
async function cycle(caller, callee) {
  const made = await http(caller.port, 'POST', '/api/rest/1.0/telephony/calls', {
    cookie: caller.cookie,
    body: { deviceId: caller.deviceId, callee: callee.deviceId, autoAnswer: true },
  })
  if (made.status !== 201) throw new Error(`make call: ${made.status} ${JSON.stringify(made.body)}`)
  const callRef = String(made.headers.location).split('/').pop()
  const active = caller.waitFor(
    isEvent('OnCallModified', callRef, (event) => event.callData?.state === 'ACTIVE'),
  )
  const sent = now()
  const answered = await http(
    callee.port,
    'POST',
    `/api/rest/1.0/telephony/calls/${callRef}/answer`,
    {
      cookie: callee.cookie,
      body: { deviceId: callee.deviceId },
    },
  )
  if (answered.status !== 204) throw new Error(`answer: ${answered.status}`)
  const latency = (await active) - sent
  const removed = [caller, callee].map((user) => user.waitFor(isEvent('OnCallRemoved', callRef)))
  const released = await http(caller.port, 'DELETE', `/api/rest/1.0/telephony/calls/${callRef}`, {
    cookie: caller.cookie,
  })
  if (released.status !== 204) throw new Error(`release: ${released.status}`)
  await Promise.all(removed)
  return latency
}

async function setup(message) {
  ports = message.ports ?? [message.port]
  const count = Math.min(message.pairs, USERS.length / 2)
  users = []
  for (const [index, user] of USERS.slice(0, count * 2).entries())
    users.push(await party(user, ports[index % ports.length]))
  pairs = []
  for (let i = 0; i < users.length; i += 2) pairs.push([users[i], users[i + 1]])
  return { pairs: pairs.length }
}

async function round({ durationMs }) {
  const latencies = []
  const start = now()
  const end = start + durationMs
  await Promise.all(
    pairs.map(async ([caller, callee]) => {
      while (now() < end) latencies.push(await cycle(caller, callee))
    }),
  )
  return {
    cycles: latencies.length,
    seconds: (now() - start) / 1000,
    latencies: latencySummary(latencies),
  }
}

onCommands({
  setup,
  round,
  exit: async () => {
    await Promise.all(users.map((user) => user.close()))
    agent.destroy()
  },
})
process.send({ type: 'ready' })
