// Child of bench/benchmarks/fanout.mjs: the ceiling. A bare node:http server (no Fastify, no platform) that
// holds every request as an open chunked response after a `Chunk started` line, and fans an event out
// to all of them by writing one line serialized once. Same IPC protocol as bench/servers/channel-server.mjs.
// BARE_PAYLOAD=buffer writes the line as one Buffer instead of a string (skips the per-response
// UTF-8 encoding).
import { createServer } from 'node:http'
import { setImmediate as tick } from 'node:timers/promises'
import { benchEvent, forcedGcMemory, onCommands } from '../lib/ipc.mjs'

const CHUNK_STARTED = `${JSON.stringify({ eventName: 'OnChannelInformation', text: 'Chunk started' })}\n`
const asBuffer = process.env.BARE_PAYLOAD === 'buffer'
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
    const line = asBuffer ? Buffer.from(text) : text
    for (const response of open) response.write(line)
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
