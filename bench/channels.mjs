// The channels benchmark (a measurement, not a test): N concurrent chunk channels on one node, events
// fanned out to all of them. Reports the server's memory per open channel and the delivery latency of
// an event to all channels (p50, p99, max), for the service and, next to it, for the ceiling: a bare
// node:http server holding N chunked responses and writing one line serialized once.
//
// Usage: npm run bench (builds first), or after a build: node bench/channels.mjs
// Environment: CHANNELS (10000), EVENTS (20), WARMUP (2 events first, not counted), SPACING_MS (250),
// OPEN_BATCH (500 channels opened at a time), SUBSCRIBE_CONCURRENCY (32), BARE (1; 0 skips the
// ceiling), BARE_PAYLOAD (string|buffer), BENCH_JSON (a file to write the figures to).
// Exits 0 when the run worked, whatever the figures (targets missed are reported, not failed); 1 when
// something broke: a channel that did not open, an event missing, duplicated or out of order.
//
// The server runs in a child process (bench/channel-server.mjs, bench/bare-chunked.mjs) started with
// --expose-gc, so that its memory is measured alone and after a forced GC. Receive times are taken in
// this process, publish times in the child, both as performance.timeOrigin + performance.now().
import { fork } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'

function integer(name, fallback, min = 0) {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer ≥ ${min}`)
  return value
}

const CHANNELS = integer('CHANNELS', 10_000, 1)
const EVENTS = integer('EVENTS', 20, 1)
const WARMUP = integer('WARMUP', 2)
const SPACING_MS = integer('SPACING_MS', 250)
const OPEN_BATCH = integer('OPEN_BATCH', 500, 1)
const SUBSCRIBE_CONCURRENCY = integer('SUBSCRIBE_CONCURRENCY', 32, 1)
const BARE = process.env.BARE !== '0'
const DELIVERY_TIMEOUT_MS = 15_000
const TARGETS = { kbPerChannel: 12, p99Ms: 130 }

const LOAD_BEFORE = loadavg()
  .map((load) => load.toFixed(2))
  .join(' ')
const now = () => performance.timeOrigin + performance.now()
const began = performance.now()
const log = (text) =>
  process.stderr.write(
    `[${((performance.now() - began) / 1000).toFixed(1).padStart(5)} s] ${text}\n`,
  )

/** A server child and its IPC calls. */
class ServerChild {
  constructor(script, env = {}) {
    this.name = script
    this.pending = new Map()
    this.nextId = 1
    this.process = fork(new URL(script, import.meta.url), [], {
      execArgv: ['--expose-gc'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.exited = new Promise((resolve) => this.process.once('exit', resolve))
    this.process.on('error', (error) => log(`${script}: ${error.message}`))
    this.ready = new Promise((resolve, reject) => {
      this.process.on('message', (message) => {
        if (message.type === 'ready') return resolve(message.port)
        const call = this.pending.get(message.id)
        if (call === undefined) return
        this.pending.delete(message.id)
        if (message.type === 'error') call.reject(new Error(`${script}: ${message.message}`))
        else call.resolve(message)
      })
      this.process.once('exit', (code, signal) => {
        const error = new Error(`${script} exited (code ${code}, signal ${signal})`)
        reject(error)
        for (const call of this.pending.values()) call.reject(error)
        this.pending.clear()
      })
    })
  }

  call(cmd, args = {}) {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (!this.process.connected) return reject(new Error(`${this.name} is gone`))
      this.pending.set(id, { resolve, reject })
      this.process.send({ cmd, id, ...args })
    })
  }

  async memory() {
    await sleep(300)
    return (await this.call('memory')).usage
  }

  /** The child's clock minus ours, from the exchange with the shortest round trip. */
  async clockOffset() {
    let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 }
    for (let i = 0; i < 20; i++) {
      const sent = now()
      const { now: theirs } = await this.call('now')
      const received = now()
      if (received - sent < best.rtt)
        best = { rtt: received - sent, offset: theirs - (sent + received) / 2 }
    }
    return best
  }

  async exit() {
    await this.call('exit').catch(() => {})
    await this.exited
  }
}

const EVENT_LINE =
  /^\{"eventName":"OnPreferencesChanged","loginName":"alice","benchSeq":(\d+),"benchPublishedAt":([0-9.]+),/

/** N channel clients: opens them, records the receive time of every event line, checks the order. */
class Channels {
  constructor(count, totalEvents) {
    this.count = count
    this.totalEvents = totalEvents
    this.agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
    this.requests = []
    this.lastSeq = new Int32Array(count)
    this.received = new Int32Array(count)
    /** latency[seq][channel], in ms; NaN until received. */
    this.latency = Array.from({ length: totalEvents + 1 }, () =>
      new Float64Array(count).fill(Number.NaN),
    )
    this.deliveredCount = new Int32Array(totalEvents + 1)
    this.waiters = new Map()
    this.anomalies = []
    this.closing = false
  }

  anomaly(text) {
    if (this.anomalies.length < 20) this.anomalies.push(text)
    else if (this.anomalies.length === 20) this.anomalies.push('… more anomalies not shown')
  }

  /** Opens channel `index` on `url` with POST, as the SDKs do; resolves at `Chunk started`. */
  open(index, url) {
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { accept: '*/*', 'content-type': 'application/json' },
        },
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
              const line = buffer.slice(0, newline)
              buffer = buffer.slice(newline + 1)
              newline = buffer.indexOf('\n')
              if (!started) {
                if (line.includes('"Chunk started"')) {
                  started = true
                  resolve()
                } else reject(new Error(`channel ${index}: first line ${line.slice(0, 100)}`))
                continue
              }
              this.line(index, line, at)
            }
          })
          res.on('close', () => {
            if (!this.closing) this.anomaly(`channel ${index} closed by the server`)
          })
        },
      )
      req.on('error', (error) => {
        if (this.closing) return
        reject(error)
        this.anomaly(`channel ${index}: ${error.message}`)
      })
      req.end()
      this.requests[index] = req
    })
  }

  line(index, line, at) {
    const match = EVENT_LINE.exec(line)
    if (match === null)
      return this.anomaly(`channel ${index}: unexpected line ${line.slice(0, 100)}`)
    const seq = Number(match[1])
    const latencies = this.latency[seq]
    if (latencies === undefined) return this.anomaly(`channel ${index}: unknown event ${seq}`)
    if (!Number.isNaN(latencies[index])) return this.anomaly(`channel ${index}: event ${seq} twice`)
    if (seq !== this.lastSeq[index] + 1)
      this.anomaly(`channel ${index}: event ${seq} after event ${this.lastSeq[index]}`)
    this.lastSeq[index] = seq
    this.received[index] += 1
    latencies[index] = at - Number(match[2])
    if (++this.deliveredCount[seq] === this.count) this.waiters.get(seq)?.()
  }

  /** Resolves with how many channels got event `seq`, once all did or after the timeout. */
  delivered(seq, timeoutMs) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.deliveredCount[seq]), timeoutMs)
      this.waiters.set(seq, () => {
        clearTimeout(timer)
        resolve(this.count)
      })
    })
  }

  /** Channels that did not get every event exactly once, in order. */
  incomplete() {
    let bad = 0
    for (let i = 0; i < this.count; i++)
      if (this.received[i] !== this.totalEvents || this.lastSeq[i] !== this.totalEvents) bad++
    return bad
  }

  close() {
    this.closing = true
    for (const req of this.requests) req?.destroy()
    this.agent.destroy()
  }
}

/** Opens `count` channels, OPEN_BATCH at a time. */
async function openAll(channels, urlOf) {
  const start = performance.now()
  for (let first = 0; first < channels.count; first += OPEN_BATCH) {
    const batch = []
    for (let i = first; i < Math.min(first + OPEN_BATCH, channels.count); i++)
      batch.push(channels.open(i, urlOf(i)))
    await Promise.all(batch)
  }
  return performance.now() - start
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

function summary(values) {
  const sorted = Float64Array.from(values.filter((value) => !Number.isNaN(value))).sort()
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  }
}

/** CPU time of the whole machine so far, in ms (Linux /proc/stat; undefined elsewhere). */
function machineCpuMs() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    // user nice system idle iowait irq softirq steal: everything but idle and iowait
    const busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
    return (busy * 1000) / 100 // USER_HZ is 100 on Linux
  } catch {
    return undefined
  }
}

const cpuMs = ({ user, system }) => (user + system) / 1000

/**
 * Runs `phase` and tells how much CPU other processes than the benchmark's two took meanwhile, in
 * cores: what the figures of a shared machine should be read against.
 */
async function withOtherLoad(child, phase) {
  const started = {
    wall: performance.now(),
    machine: machineCpuMs(),
    self: process.cpuUsage(),
    child: (await child.call('cpu')).cpu,
  }
  const result = await phase()
  const machine = machineCpuMs()
  const self = cpuMs(process.cpuUsage(started.self))
  const childMs = cpuMs((await child.call('cpu')).cpu) - cpuMs(started.child)
  const wall = performance.now() - started.wall
  const otherCores =
    machine === undefined
      ? undefined
      : Math.max(0, (machine - started.machine - self - childMs) / wall)
  return { ...result, cpu: { serverCores: childMs / wall, clientCores: self / wall, otherCores } }
}

/** Publishes the warm-up and measured events, one at a time, and waits for each to reach every channel. */
async function publishAll(child, channels) {
  const perEvent = []
  let missing = 0
  for (let seq = 1; seq <= WARMUP + EVENTS; seq++) {
    const start = performance.now()
    const delivered = channels.delivered(seq, DELIVERY_TIMEOUT_MS)
    const { fanOutMs, flushedMs, bytes } = await child.call('publish', { seq })
    const got = await delivered
    if (seq > WARMUP)
      perEvent.push({ seq, bytes, fanOutMs, flushedMs, ...summary(channels.latency[seq]) })
    if (got < channels.count) {
      missing += channels.count - got
      channels.anomaly(
        `event ${seq} reached ${got} of ${channels.count} channels: publishing stops`,
      )
      break
    }
    await sleep(Math.max(0, SPACING_MS - (performance.now() - start)))
  }
  await sleep(500) // let late duplicates show
  const all = new Float64Array(EVENTS * channels.count)
  for (let seq = WARMUP + 1; seq <= WARMUP + EVENTS; seq++)
    all.set(channels.latency[seq], (seq - WARMUP - 1) * channels.count)
  return {
    perEvent,
    overall: summary(all),
    // The target is about one event: the p99 of a typical event, and the worst event next to it.
    eventP99: {
      median: median(perEvent.map((event) => event.p99)),
      worst: Math.max(...perEvent.map((event) => event.p99)),
    },
    eventP50: median(perEvent.map((event) => event.p50)),
    missing,
  }
}

const delta = (after, before, key) => (after[key] - before[key]) / CHANNELS / 1024

/** One side of the comparison: the service, or the bare ceiling. */
async function run(label, script, { env, login }) {
  log(`${label}: starting ${script}`)
  const child = new ServerChild(script, env)
  const channels = new Channels(CHANNELS, WARMUP + EVENTS)
  try {
    const port = await child.ready
    const base = `http://127.0.0.1:${port}`
    const clock = await child.clockOffset()
    const memory = { start: await child.memory() }
    let urlOf = () => `${base}/`
    let subscribeMs
    if (login) {
      const cookie = await openSession(base)
      memory.session = await child.memory()
      const started = performance.now()
      const urls = await subscribeAll(base, cookie)
      subscribeMs = performance.now() - started
      log(`${label}: ${CHANNELS} subscriptions in ${(subscribeMs / 1000).toFixed(1)} s`)
      urlOf = (i) => urls[i]
    }
    memory.beforeChannels = await child.memory()
    const openMs = await openAll(channels, urlOf)
    const stats = await child.call('stats')
    log(
      `${label}: ${CHANNELS} channels open in ${(openMs / 1000).toFixed(1)} s (server counts ${stats.openChannels})`,
    )
    memory.idleChannels = await child.memory()
    const published = await withOtherLoad(child, () => publishAll(child, channels))
    memory.afterEvents = await child.memory()
    const incomplete = channels.incomplete()
    log(
      `${label}: ${WARMUP + EVENTS} events published; p99 per event ${published.eventP99.median.toFixed(1)} ms (median); ${incomplete} channels incomplete`,
    )
    return {
      label,
      clock,
      memory,
      openMs,
      subscribeMs,
      serverOpenChannels: stats.openChannels,
      perChannelKB: {
        rss: delta(memory.idleChannels, memory.beforeChannels, 'rss'),
        heapUsed: delta(memory.idleChannels, memory.beforeChannels, 'heapUsed'),
        // RSS = V8 heap (used + committed but free) + everything else (native: sockets, parsers, malloc)
        heapFree:
          delta(memory.idleChannels, memory.beforeChannels, 'heapTotal') -
          delta(memory.idleChannels, memory.beforeChannels, 'heapUsed'),
        native:
          delta(memory.idleChannels, memory.beforeChannels, 'rss') -
          delta(memory.idleChannels, memory.beforeChannels, 'heapTotal'),
        ...(login && {
          subscriptionRss: delta(memory.beforeChannels, memory.session, 'rss'),
          subscriptionHeap: delta(memory.beforeChannels, memory.session, 'heapUsed'),
        }),
      },
      ...published,
      incomplete,
      anomalies: channels.anomalies,
    }
  } finally {
    channels.closing = true
    await child.exit()
    channels.close()
  }
}

async function openSession(base) {
  const basic = `Basic ${Buffer.from('alice:demo-alice').toString('base64')}`
  const auth = await fetch(`${base}/api/rest/authenticate?version=1.0`, {
    headers: { authorization: basic },
  })
  if (auth.status !== 200) throw new Error(`authenticate: ${auth.status} ${await auth.text()}`)
  const cookie = `SvcUserId=${(await auth.json()).credential}`
  const session = await fetch(`${base}/api/rest/1.0/sessions`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ applicationName: 'bench' }),
  })
  if (session.status >= 300)
    throw new Error(`POST /sessions: ${session.status} ${await session.text()}`)
  await session.arrayBuffer()
  return cookie
}

async function subscribeAll(base, cookie) {
  const urls = new Array(CHANNELS)
  const body = JSON.stringify({
    filter: { selectors: [{ names: ['user'] }] },
    version: '1.0',
    timeout: 0,
  })
  let next = 0
  async function worker() {
    while (next < CHANNELS) {
      const index = next++
      const response = await fetch(`${base}/api/rest/1.0/subscriptions`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body,
      })
      const answer = await response.json()
      if (response.status !== 200 || answer.status !== 'ACCEPTED')
        throw new Error(`POST /subscriptions: ${response.status} ${JSON.stringify(answer)}`)
      urls[index] = answer.privatePollingUrl
    }
  }
  await Promise.all(Array.from({ length: SUBSCRIBE_CONCURRENCY }, worker))
  return urls
}

// --- the report ---

const kb = (value) => `${value.toFixed(1)} KB`
const ms = (value) => `${value.toFixed(1)} ms`
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const verdict = (ok) => (ok ? 'PASS' : 'FAIL')

function table(rows) {
  const widths = rows[0].map((_, column) =>
    Math.max(...rows.map((row) => String(row[column]).length)),
  )
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0
            ? String(cell).padEnd(widths[column])
            : String(cell).padStart(widths[column]),
        )
        .join('   '),
    )
    .join('\n')
}

function report(ours, bare) {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const lines = [
    '',
    `Channels benchmark: ${CHANNELS} concurrent chunk channels on one node, ${EVENTS} events of ${ours.perEvent[0]?.bytes ?? '?'} bytes each fanned out to all (after ${WARMUP} warm-up events), ${SPACING_MS} ms apart`,
    `Machine: ${availableParallelism()} cores (${cpu}), ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, Node.js ${process.version}; server in its own process, clients in this one; load average before the run ${LOAD_BEFORE}`,
    '',
  ]
  const kbOk = ours.perChannelKB.rss <= TARGETS.kbPerChannel
  const p99Ok = ours.eventP99.median < TARGETS.p99Ms
  const b = (pick) => (bare ? pick(bare) : '-')
  const row = (name, pick, target = '', result = '') => [name, pick(ours), b(pick), target, result]
  lines.push(
    table([
      ['', 'service', 'bare node:http', 'target', 'result'],
      row(
        'memory per idle channel (RSS)',
        (r) => kb(r.perChannelKB.rss),
        `≤ ${TARGETS.kbPerChannel} KB`,
        verdict(kbOk),
      ),
      row('  JS heap, live after GC', (r) => kb(r.perChannelKB.heapUsed)),
      row('  native, outside the V8 heap', (r) => kb(r.perChannelKB.native)),
      row('  V8 heap grown but free', (r) => kb(r.perChannelKB.heapFree)),
      row('  live (JS heap + native)', (r) => kb(r.perChannelKB.heapUsed + r.perChannelKB.native)),
      row('latency to all channels, p50 of an event', (r) => ms(r.eventP50)),
      row(
        'latency to all channels, p99 of an event',
        (r) => ms(r.eventP99.median),
        `< ${TARGETS.p99Ms} ms`,
        verdict(p99Ok),
      ),
      row('  p99 of the worst event', (r) => ms(r.eventP99.worst)),
      row('  p99 over all deliveries', (r) => ms(r.overall.p99)),
      row('  max over all deliveries', (r) => ms(r.overall.max)),
      row('server time to write an event to all', (r) =>
        ms(median(r.perEvent.map((e) => e.flushedMs))),
      ),
      row('  of which in the publish call', (r) => ms(median(r.perEvent.map((e) => e.fanOutMs)))),
      row(
        'CPU while publishing: server, clients (cores)',
        (r) => `${r.cpu.serverCores.toFixed(2)}, ${r.cpu.clientCores.toFixed(2)}`,
      ),
      row('CPU taken meanwhile by other processes', (r) =>
        r.cpu.otherCores === undefined ? '?' : `${r.cpu.otherCores.toFixed(2)} cores`,
      ),
      row('server RSS with the idle channels', (r) => mb(r.memory.idleChannels.rss)),
      row('time to open the channels', (r) => ms(r.openMs)),
    ]),
    '',
    `Memory per channel is (server memory with ${CHANNELS} idle channels − before the first channel) / ${CHANNELS}, after a forced GC;`,
    'RSS = live JS heap + native + heap V8 grew but holds free (GC sizing, not per-channel state: the service starts from a heap',
    'already grown by the subscriptions, the bare server from a small one).',
    `The subscriptions themselves (created before the channels) cost ${kb(ours.perChannelKB.subscriptionRss)} RSS and ${kb(ours.perChannelKB.subscriptionHeap)} of heap each on top.`,
    `Latency is receive time − publish stamp, for every (event, channel). "Of an event" figures are the median over the ${EVENTS} events of that`,
    `event's percentile over its ${CHANNELS} channels; the target applies to it (one event fanned out to all channels).`,
    'Server times are medians over the events.',
    `Clock check (child − parent, from the IPC exchange with the shortest round trip): service ${ours.clock.offset.toFixed(3)} ms, bare ${b((r) => `${r.clock.offset.toFixed(3)} ms`)} (round trip ${ours.clock.rtt.toFixed(3)} ms).`,
    '',
    'Per event: latency to the N channels; publish = the synchronous publish call in the server (Node only queues the writes there),',
    'written = until the next event-loop turn, when Node has handed every response its socket write (uncork on nextTick):',
    table([
      [
        'event',
        'p50',
        'p99',
        'max',
        'publish',
        'written',
        ...(bare ? ['bare p50', 'bare p99', 'bare max', 'publish', 'written'] : []),
      ],
      ...Array.from(
        { length: Math.max(ours.perEvent.length, bare?.perEvent.length ?? 0) },
        (_, i) => [
          i + 1,
          ...eventCells(ours.perEvent[i]),
          ...(bare ? eventCells(bare.perEvent[i]) : []),
        ],
      ),
    ]),
  )
  for (const side of [ours, bare].filter(Boolean))
    if ((side.cpu.otherCores ?? 0) > 0.15)
      lines.push(
        '',
        `Note: other processes took ${side.cpu.otherCores.toFixed(2)} cores while the ${side.label} events were published: its latencies are inflated; run again on a quiet machine.`,
      )
  for (const side of [ours, bare].filter(Boolean)) {
    if (side.anomalies.length > 0)
      lines.push('', `${side.label} anomalies:`, ...side.anomalies.map((a) => `  ${a}`))
    lines.push(
      `${side.label}: ${side.incomplete === 0 ? `every channel got every event exactly once, in order` : `${side.incomplete} channels did not get every event exactly once, in order`}`,
    )
  }
  return lines.join('\n')
}

/** One event's cells in the per-event table; dashes for an event not published (the run broke). */
function eventCells(event) {
  if (event === undefined) return ['-', '-', '-', '-', '-']
  return [ms(event.p50), ms(event.p99), ms(event.max), ms(event.fanOutMs), ms(event.flushedMs)]
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}

let broken = false
try {
  const ours = await run('service', './channel-server.mjs', { login: true })
  const bare = BARE
    ? await run('bare node:http', './bare-chunked.mjs', { login: false })
    : undefined
  console.log(report(ours, bare))
  for (const side of [ours, bare].filter(Boolean))
    if (side.incomplete > 0 || side.missing > 0 || side.anomalies.length > 0) broken = true
  if (process.env.BENCH_JSON) {
    writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify({ channels: CHANNELS, events: EVENTS, warmup: WARMUP, ours, bare }, null, 2),
    )
  }
} catch (error) {
  console.error(error)
  broken = true
}
log(broken ? 'something broke: exit 1' : 'done')
process.exit(broken ? 1 : 0)
