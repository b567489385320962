// Child of bench/benchmarks/fanout.mjs: the ceiling. A bare node:http server (no Fastify, no platform) that
// holds every request as an open chunked response after a `Chunk started` line, and fans an event out
// to all of them by writing one line serialized once. Same IPC protocol as bench/servers/channel-server.mjs.
// BARE_PAYLOAD=buffer writes the line as one Buffer instead of a string (skips the per-response
// UTF-8 encoding); BARE_PAYLOAD=framed writes it framed once as an HTTP/1.1 chunk straight to every
// response's socket, as the service's channels do (skips node:http's per-write cork, chunk-size
// formatting and next-tick uncork). The default, response.write(string), is the baseline.
import { createServer } from 'node:http'
import { setImmediate as tick } from 'node:timers/promises'
import { benchEvent, forcedGcMemory, onCommands } from '../lib/ipc.mjs'

const CHUNK_STARTED = `${JSON.stringify({ eventName: 'OnChannelInformation', text: 'Chunk started' })}\n`
const payload = process.env.BARE_PAYLOAD ?? 'string'
const open = new Set()

const server = createServer((request, response) => {
  request.resume()
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache, no-store',
  })
  response.write(CHUNK_STARTED)
  open.add(response)
  response.on('close', () => open.delete(response))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))

onCommands({
  memory: async () => ({ usage: await forcedGcMemory() }),
  publish: async ({ seq }) => {
    const published = benchEvent(seq)
    const start = performance.now()
    const text = `${JSON.stringify(published)}\n`
    if (payload === 'framed') {
      const chunk = Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`)
      for (const response of open) response.socket.write(chunk)
    } else {
      const line = payload === 'buffer' ? Buffer.from(text) : text
      for (const response of open) response.write(line)
    }
    const fanOutMs = performance.now() - start
    // Node corks each response's socket and writes it on the next tick: the writes end here.
    await tick()
    const flushedMs = performance.now() - start
    return { seq, bytes: Buffer.byteLength(text), fanOutMs, flushedMs }
  },
  stats: () => ({ openChannels: open.size }),
  exit: async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  },
})
process.send({ type: 'ready', port: server.address().port })
