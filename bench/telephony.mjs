// The telephony API through HTTP with event channels open (issue 5): complete call cycles between pairs of
// demo users, each user with its own session, subscription and chunk channel over a real socket. A cycle:
// the caller places the call (POST /telephony/calls), the callee answers (POST .../answer), the caller
// releases it (DELETE /telephony/calls/{callRef}); it ends when both channels received OnCallRemoved.
// Reports cycles/s, and the latency from sending the answer request to the caller's channel delivering the
// OnCallModified that shows the call ACTIVE (p50, p99, max).
//
// Usage: npm run bench (builds first), or after a build: node bench/telephony.mjs
// Environment: BENCH_MS (10000 of measured cycles, after 1000 of warm-up), PAIRS (4 pairs calling at once;
// at most 8 with the demo directory's TELEPHONY_ADVANCED users), BENCH_JSON (a file to write the figures to).
// The service runs as `node packages/server/dist/main.js` in a child process, on loopback, over a fresh
// data directory (SQLite, durable: every command is one committed transaction).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const DURATION_MS = Number(process.env.BENCH_MS ?? 10_000)
const WARMUP_MS = 1_000
const PAIRS = Math.min(Number(process.env.PAIRS ?? 4), 8)
const TARGETS = { cyclesPerSecond: 500, answerToEventP99Ms: 20 }
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

/** A free loopback port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** One HTTP exchange; resolves with status, headers and parsed body. */
function http(port, method, path, { cookie, body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...headers,
          ...(cookie && { cookie }),
          ...(payload !== undefined && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: text === '' ? undefined : JSON.parse(text),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

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
async function party(port, [login, deviceId]) {
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
  return { login, deviceId, cookie, waitFor, close: () => channel.destroy() }
}

const isEvent =
  (name, callRef, test = () => true) =>
  (event) =>
    event.eventName === name && event.callRef === callRef && test(event)

/** One complete cycle between a caller and a callee; returns the answer-to-event latency in ms. */
async function cycle(port, caller, callee) {
  const made = await http(port, 'POST', '/api/rest/1.0/telephony/calls', {
    cookie: caller.cookie,
    body: { deviceId: caller.deviceId, callee: callee.deviceId, autoAnswer: true },
  })
  if (made.status !== 201) throw new Error(`make call: ${made.status} ${JSON.stringify(made.body)}`)
  const callRef = String(made.headers.location).split('/').pop()
  const active = caller.waitFor(
    isEvent('OnCallModified', callRef, (event) => event.callData?.state === 'ACTIVE'),
  )
  const sent = now()
  const answered = await http(port, 'POST', `/api/rest/1.0/telephony/calls/${callRef}/answer`, {
    cookie: callee.cookie,
    body: { deviceId: callee.deviceId },
  })
  if (answered.status !== 204) throw new Error(`answer: ${answered.status}`)
  const latency = (await active) - sent
  const removed = [caller, callee].map((user) => user.waitFor(isEvent('OnCallRemoved', callRef)))
  const released = await http(port, 'DELETE', `/api/rest/1.0/telephony/calls/${callRef}`, {
    cookie: caller.cookie,
  })
  if (released.status !== 204) throw new Error(`release: ${released.status}`)
  await Promise.all(removed)
  return latency
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'openness-bench-'))
  const port = await freePort()
  const server = spawn(process.execPath, ['packages/server/dist/main.js'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      HTTP_PORT: String(port),
      HTTPS_PORT: '0',
      CONTROL_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    for (let tries = 0; ; tries++) {
      try {
        if ((await http(port, 'GET', '/api/rest')).status === 200) break
      } catch (error) {
        if (tries > 600) throw error
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const users = []
    for (const user of USERS.slice(0, PAIRS * 2)) users.push(await party(port, user))
    const pairs = []
    for (let i = 0; i < users.length; i += 2) pairs.push([users[i], users[i + 1]])
    const latencies = []
    let cycles = 0
    let measuring = false
    const warmupEnd = now() + WARMUP_MS
    const end = warmupEnd + DURATION_MS
    let measuredFrom = 0
    await Promise.all(
      pairs.map(async ([caller, callee]) => {
        while (now() < end) {
          if (!measuring && now() >= warmupEnd) {
            measuring = true
            measuredFrom = now()
          }
          const latency = await cycle(port, caller, callee)
          if (measuring) {
            latencies.push(latency)
            cycles += 1
          }
        }
      }),
    )
    const seconds = (now() - measuredFrom) / 1000
    latencies.sort((a, b) => a - b)
    const figures = {
      pairs: PAIRS,
      cycles,
      cyclesPerSecond: Math.round(cycles / seconds),
      answerToEventMs: {
        p50: Number(percentile(latencies, 50).toFixed(2)),
        p99: Number(percentile(latencies, 99).toFixed(2)),
        max: Number(latencies.at(-1)?.toFixed(2)),
      },
      targets: TARGETS,
    }
    for (const user of users) user.close()
    console.log(
      `telephony over HTTP, ${PAIRS} pairs with channels open (durable SQLite): ${figures.cyclesPerSecond} cycles/s ` +
        `(target ≥ ${TARGETS.cyclesPerSecond}); answer → OnCallModified on the caller's channel: ` +
        `p50 ${figures.answerToEventMs.p50} ms, p99 ${figures.answerToEventMs.p99} ms ` +
        `(target < ${TARGETS.answerToEventP99Ms}), max ${figures.answerToEventMs.max} ms`,
    )
    if (process.env.BENCH_JSON)
      writeFileSync(process.env.BENCH_JSON, JSON.stringify(figures, null, 2))
  } finally {
    server.kill()
    await new Promise((resolve) => server.once('exit', resolve))
    rmSync(dataDir, { recursive: true, force: true })
    agent.destroy()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
