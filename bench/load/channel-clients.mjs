// The chunk-channel clients of bench/benchmarks/fanout.mjs, a child with IPC (bench/lib/ipc.mjs): opens
// channels with POST as the SDKs do, records the receive time of every event line, and checks that each
// channel gets every event published since it opened exactly once, in order. One such process per
// server, so that 10,000 channels on each side stay within the file-descriptor limit of a process.
//   ← { cmd: 'subscribe', port, cookie, count, concurrency }  creates `count` subscriptions (service)
//   ← { cmd: 'open', port, count, afterSeq }   opens `count` channels (on the subscriptions' URLs, else
//        on the bare server's `/`), 500 at a time; → { openMs, open }
//   ← { cmd: 'expect', seq, timeoutMs }  → { delivered, count, p50, p99, max } once every channel got
//        event `seq` (or after the timeout); latency = receive time − the publish stamp in the line
//   ← { cmd: 'check' }  → { incomplete, anomalies }
import { Agent, request } from 'node:http'
import { onCommands } from '../lib/ipc.mjs'
import { latencySummary } from '../lib/stats.mjs'

const now = () => performance.timeOrigin + performance.now()
const OPEN_BATCH = 500
const EVENT_LINE =
  /^\{"eventName":"OnPreferencesChanged","loginName":"alice","benchSeq":(\d+),"benchPublishedAt":([0-9.]+),/

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
const requests = []
/** Per channel: the last event seq received (at first the last one published before it opened). */
const lastSeq = []
/** seq → { latency: Float64Array by channel (NaN until received), delivered, waiter } */
const events = new Map()
const anomalies = []
const pendingUrls = []
let closing = false
let lastExpected = 0

function anomaly(text) {
  if (anomalies.length < 20) anomalies.push(text)
  else if (anomalies.length === 20) anomalies.push('… more anomalies not shown')
}

function eventRecord(seq) {
  let record = events.get(seq)
  if (record === undefined) {
    record = { latency: new Float64Array(requests.length).fill(Number.NaN), delivered: 0 }
    events.set(seq, record)
  }
  return record
}

function line(index, text, at) {
  const match = EVENT_LINE.exec(text)
  if (match === null) return anomaly(`channel ${index}: unexpected line ${text.slice(0, 100)}`)
  const seq = Number(match[1])
  const record = eventRecord(seq)
  if (!Number.isNaN(record.latency[index])) return anomaly(`channel ${index}: event ${seq} twice`)
  if (seq !== lastSeq[index] + 1)
    anomaly(`channel ${index}: event ${seq} after event ${lastSeq[index]}`)
  lastSeq[index] = seq
  record.latency[index] = at - Number(match[2])
  if (++record.delivered === requests.length) record.waiter?.()
}

/** Opens channel `index` on `url`; resolves at its `Chunk started` line. */
function open(index, url) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { accept: '*/*', 'content-type': 'application/json' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume()
          return reject(new Error(`channel ${index}: HTTP ${res.statusCode}`))
        }
        res.setEncoding('utf8')
        let buffer = ''
        let started = false
        res.on('data', (chunk) => {
          const at = now()
          buffer += chunk
          let newline = buffer.indexOf('\n')
          while (newline !== -1) {
            const text = buffer.slice(0, newline)
            buffer = buffer.slice(newline + 1)
            newline = buffer.indexOf('\n')
            if (started) line(index, text, at)
            else if (text.includes('"Chunk started"')) {
              started = true
              resolve()
            } else reject(new Error(`channel ${index}: first line ${text.slice(0, 100)}`))
          }
        })
        res.on('close', () => {
          if (!closing) anomaly(`channel ${index} closed by the server`)
        })
      },
    )
    req.on('error', (error) => {
      if (closing) return
      reject(error)
      anomaly(`channel ${index}: ${error.message}`)
    })
    req.end()
    requests[index] = req
  })
}

async function subscribe({ port, cookie, count, concurrency = 32 }) {
  const body = JSON.stringify({
    filter: { selectors: [{ names: ['user'] }] },
    version: '1.0',
    timeout: 0,
  })
  let made = 0
  const worker = async () => {
    while (made < count) {
      made++
      const response = await fetch(`http://127.0.0.1:${port}/api/rest/1.0/subscriptions`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body,
      })
      const answer = await response.json()
      if (response.status !== 200 || answer.status !== 'ACCEPTED')
        throw new Error(`POST /subscriptions: ${response.status} ${JSON.stringify(answer)}`)
      pendingUrls.push(answer.privatePollingUrl)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { subscriptions: pendingUrls.length }
}

async function openChannels({ port, count, afterSeq }) {
  const start = performance.now()
  const first = requests.length
  for (let batch = first; batch < first + count; batch += OPEN_BATCH) {
    const opening = []
    for (let i = batch; i < Math.min(batch + OPEN_BATCH, first + count); i++) {
      lastSeq[i] = afterSeq
      opening.push(open(i, pendingUrls.shift() ?? `http://127.0.0.1:${port}/`))
    }
    await Promise.all(opening)
  }
  return { openMs: performance.now() - start, open: requests.length }
}

function expect({ seq, timeoutMs }) {
  const record = eventRecord(seq)
  lastExpected = seq
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      events.delete(seq)
      resolve({
        delivered: record.delivered,
        count: requests.length,
        ...latencySummary(record.latency),
      })
    }
    const timer = setTimeout(done, timeoutMs)
    record.waiter = done
    if (record.delivered === requests.length) done()
  })
}

/** Channels that did not get every event expected since they opened, in order. */
function check() {
  let incomplete = 0
  for (let i = 0; i < requests.length; i++) if (lastSeq[i] !== lastExpected) incomplete++
  return { incomplete, anomalies }
}

onCommands({
  subscribe,
  open: openChannels,
  expect,
  check,
  exit: () => {
    closing = true
    for (const req of requests) req?.destroy()
    agent.destroy()
  },
})
process.send({ type: 'ready' })
