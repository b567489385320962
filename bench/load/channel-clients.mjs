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
//
// A channel is a raw `net` socket: the POST is written by hand (the bytes node:http's client sends), and
// the response is read into one buffer shared by every socket (`onread`) and decoded by a small state
// machine: status line and headers, then HTTP/1.1 chunks, then lines. node:http's client spent about as
// much CPU per event as the server it measured (a stream, a decoder and string concatenation per
// chunk), and on two cores that CPU is taken from the server: the clients measured themselves.
import { connect } from 'node:net'
import { onCommands } from '../lib/ipc.mjs'
import { latencySummary } from '../lib/stats.mjs'

const now = () => performance.timeOrigin + performance.now()
const OPEN_BATCH = 500
const EVENT_LINE =
  /^\{"eventName":"OnPreferencesChanged","loginName":"alice","benchSeq":(\d+),"benchPublishedAt":([0-9.]+),/
/** Enough of an event line for EVENT_LINE, decoded as latin1 (its prefix is ASCII). */
const EVENT_PREFIX_BYTES = 160
const LF = 10

/** Every socket reads into this buffer; each read is consumed before the next one lands. */
const readBuffer = Buffer.allocUnsafe(256 * 1024)
const channels = []
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
    record = { latency: new Float64Array(channels.length).fill(Number.NaN), delivered: 0 }
    events.set(seq, record)
  }
  return record
}

/** One event line of channel `index`, `bytes[start, end)` without its newline, received `at`. */
function eventLine(index, bytes, start, end, at) {
  const match = EVENT_LINE.exec(bytes.latin1Slice(start, Math.min(end, start + EVENT_PREFIX_BYTES)))
  if (match === null)
    return anomaly(
      `channel ${index}: unexpected line ${bytes.toString('utf8', start, end).slice(0, 100)}`,
    )
  const seq = Number(match[1])
  const record = eventRecord(seq)
  if (!Number.isNaN(record.latency[index])) return anomaly(`channel ${index}: event ${seq} twice`)
  if (seq !== lastSeq[index] + 1)
    anomaly(`channel ${index}: event ${seq} after event ${lastSeq[index]}`)
  lastSeq[index] = seq
  record.latency[index] = at - Number(match[2])
  if (++record.delivered === channels.length) record.waiter?.()
}

/**
 * One channel's response decoder: head (status line and headers), then chunks (`<hex size>\r\n`, data,
 * `\r\n`), their data cut into lines. A head, size line or line split across reads is copied aside.
 */
class ChannelReader {
  state = 'head'
  /** The start of a head, chunk size line or chunk end received so far. */
  control = null
  /** The start of a line received so far. */
  partial = null
  chunkLeft = 0
  started = false

  constructor(index, onStarted, onFailed) {
    this.index = index
    this.onStarted = onStarted
    this.onFailed = onFailed
  }

  /** `bytes`, received `at`. */
  read(bytes, at) {
    const end = bytes.length
    let offset = 0
    while (offset < end && this.state !== 'failed') {
      if (this.state === 'data') {
        offset = this.data(bytes, offset, end, at)
        continue
      }
      const piece = joined(this.control, bytes.subarray(offset, end))
      const stop = this.state === 'head' ? headEnd(piece) : piece.indexOf(LF) + 1
      if (stop <= 0) {
        this.control = Buffer.from(piece)
        return
      }
      offset = end - (piece.length - stop)
      this.control = null
      this.controlPiece(piece.latin1Slice(0, stop))
    }
  }

  /** The head, a chunk size line or a chunk's closing CRLF, each with its terminator. */
  controlPiece(text) {
    if (this.state === 'head') {
      if (!text.startsWith('HTTP/1.1 200 ')) return this.fail(`status ${text.split('\r\n')[0]}`)
      if (!/\r\ntransfer-encoding: chunked\r\n/i.test(text)) return this.fail('not chunked')
      this.state = 'size'
    } else if (this.state === 'crlf') {
      if (text !== '\r\n') return this.fail(`chunk ends with ${JSON.stringify(text)}`)
      this.state = 'size'
    } else {
      this.chunkLeft = Number.parseInt(text, 16)
      if (!(this.chunkLeft >= 0)) return this.fail(`chunk size ${JSON.stringify(text)}`)
      if (this.chunkLeft === 0) return this.fail('the response ended')
      this.state = 'data'
    }
  }

  /** Chunk data from `bytes[from, end)`: whole lines are handled in place; returns where it stopped. */
  data(bytes, from, end, at) {
    const stop = Math.min(end, from + this.chunkLeft)
    this.chunkLeft -= stop - from
    let start = from
    let newline = bytes.indexOf(LF, start)
    while (newline !== -1 && newline < stop) {
      if (this.partial === null) this.line(bytes, start, newline, at)
      else {
        const whole = joined(this.partial, bytes.subarray(start, newline))
        this.partial = null
        this.line(whole, 0, whole.length, at)
      }
      start = newline + 1
      newline = bytes.indexOf(LF, start)
    }
    if (start < stop)
      this.partial =
        this.partial === null
          ? Buffer.from(bytes.subarray(start, stop))
          : joined(this.partial, bytes.subarray(start, stop))
    if (this.chunkLeft === 0) this.state = 'crlf'
    return stop
  }

  line(bytes, start, end, at) {
    if (this.started) return eventLine(this.index, bytes, start, end, at)
    const text = bytes.toString('utf8', start, end)
    if (!text.includes('"Chunk started"')) return this.fail(`first line ${text.slice(0, 100)}`)
    this.started = true
    this.onStarted()
  }

  fail(reason) {
    this.state = 'failed'
    this.onFailed(new Error(`channel ${this.index}: ${reason}`))
  }
}

/** `piece` after what was kept of it before (a view on the shared buffer when nothing was). */
function joined(kept, piece) {
  return kept === null ? piece : Buffer.concat([kept, piece])
}

/** The length of the head up to its blank line, or 0 while it is incomplete. */
function headEnd(bytes) {
  const found = bytes.indexOf('\r\n\r\n', 0, 'latin1')
  return found === -1 ? 0 : found + 4
}

/** Opens channel `index` on `url`; resolves at its `Chunk started` line. */
function open(index, url) {
  const { hostname, port, pathname } = new URL(url)
  return new Promise((resolve, reject) => {
    const reader = new ChannelReader(index, resolve, (error) => {
      reject(error)
      anomaly(error.message)
      socket.destroy()
    })
    const socket = connect({
      host: hostname,
      port: Number(port),
      noDelay: true,
      onread: {
        buffer: readBuffer,
        callback: (length, bytes) => {
          reader.read(bytes.subarray(0, length), now())
          return true
        },
      },
    })
    socket.on('connect', () =>
      socket.write(
        `POST ${pathname} HTTP/1.1\r\naccept: */*\r\ncontent-type: application/json\r\n` +
          `Host: ${hostname}:${port}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      ),
    )
    socket.on('close', () => {
      if (!closing && reader.state !== 'failed') anomaly(`channel ${index} closed by the server`)
    })
    socket.on('error', (error) => {
      if (closing) return
      reject(error)
      anomaly(`channel ${index}: ${error.message}`)
    })
    channels[index] = socket
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
  const first = channels.length
  for (let batch = first; batch < first + count; batch += OPEN_BATCH) {
    const opening = []
    for (let i = batch; i < Math.min(batch + OPEN_BATCH, first + count); i++) {
      lastSeq[i] = afterSeq
      opening.push(open(i, pendingUrls.shift() ?? `http://127.0.0.1:${port}/`))
    }
    await Promise.all(opening)
  }
  return { openMs: performance.now() - start, open: channels.length }
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
        count: channels.length,
        ...latencySummary(record.latency),
      })
    }
    const timer = setTimeout(done, timeoutMs)
    record.waiter = done
    if (record.delivered === channels.length) done()
  })
}

/** Channels that did not get every event expected since they opened, in order. */
function check() {
  let incomplete = 0
  for (let i = 0; i < channels.length; i++) if (lastSeq[i] !== lastExpected) incomplete++
  return { incomplete, anomalies }
}

onCommands({
  subscribe,
  open: openChannels,
  expect,
  check,
  exit: () => {
    closing = true
    for (const socket of channels) socket?.destroy()
  },
})
process.send({ type: 'ready' })
