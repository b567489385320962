// The load generator of bench/benchmarks/session-churn.mjs, a child with IPC (bench/lib/ipc.mjs): one
// worker per login name, each looping on a complete session cycle on its own keep-alive connection:
// authenticate (GET /api/rest/authenticate with Basic credentials, password demo-<login>), open the
// session (POST /sessions), read the user (GET /users/{login}), close the session (DELETE /sessions).
//   ← { cmd: 'round', id, port, logins, durationMs }
//   → { cycles, seconds, failures, lastFailure, steps: { authenticate: { p50, p99, max }, … } }
// A worker ends the cycle it is in when the time is up; failed cycles are counted, not retried.
import { Agent } from 'node:http'
import { exchange } from '../lib/http.mjs'
import { onCommands } from '../lib/ipc.mjs'
import { latencySummary } from '../lib/stats.mjs'

const STEPS = ['authenticate', 'open', 'read', 'close']

async function cycle(agent, port, login, times) {
  const basic = `Basic ${Buffer.from(`${login}:demo-${login}`).toString('base64')}`
  const step = async (name, expected, method, path, headers, body) => {
    const start = performance.now()
    const answer = await exchange({ port, method, path, agent, headers, body })
    times[name].push(performance.now() - start)
    if (answer.status !== expected)
      throw new Error(`${name} ${login}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`)
    return answer
  }
  const auth = await step('authenticate', 200, 'GET', '/api/rest/authenticate?version=1.0', {
    authorization: basic,
  })
  const cookie = `SvcUserId=${auth.body.credential}`
  await step(
    'open',
    200,
    'POST',
    '/api/rest/1.0/sessions',
    { cookie },
    { applicationName: 'churn' },
  )
  await step('read', 200, 'GET', `/api/rest/1.0/users/${login}`, { cookie })
  await step('close', 204, 'DELETE', '/api/rest/1.0/sessions', { cookie })
}

async function round({ port, logins, durationMs }) {
  const times = Object.fromEntries(STEPS.map((name) => [name, []]))
  let cycles = 0
  let failures = 0
  let lastFailure = ''
  const started = performance.now()
  const end = started + durationMs
  await Promise.all(
    logins.map(async (login) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      while (performance.now() < end) {
        try {
          await cycle(agent, port, login, times)
          cycles++
        } catch (error) {
          failures++
          lastFailure = error.message
        }
      }
      agent.destroy()
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const steps = Object.fromEntries(STEPS.map((name) => [name, latencySummary(times[name])]))
  return { cycles, seconds, failures, lastFailure, steps }
}

onCommands({ round, exit: () => {} })
process.send({ type: 'ready' })
