// Child of bench/benchmarks/fanout.mjs: the service on one node, alone in its process so that its memory
// is measured apart from the 10,000 clients. Started with --expose-gc; talks to the parent over IPC:
//   → { type: 'ready', port }                    once the HTTP listener is bound on 127.0.0.1
//   ← { cmd: 'memory', id }   → { type: 'memory', id, usage }   process.memoryUsage() after a forced GC
//   ← { cmd: 'publish', id, seq } → { type: 'publish', id, seq, bytes, fanOutMs, flushedMs }
//        (flushedMs: from publish to the last socket write() returned)
//   ← { cmd: 'stats', id }    → { type: 'stats', id, openChannels, subscriptions }
//   ← { cmd: 'now', id }      → { type: 'now', id, now }        for the clock check
//   ← { cmd: 'exit' }
// The published event is an OnPreferencesChanged for alice of about 500 bytes; it carries its publish
// time (performance.timeOrigin + performance.now(), stamped just before the router serializes it) so
// that the receivers compute the delivery latency.

import { setImmediate as tick } from 'node:timers/promises'
import { buildApp } from '../../packages/server/dist/assembly/app.js'
import { DEMO_DIRECTORY_FILE } from '../../packages/server/dist/assembly/config.js'
import { startListeners } from '../../packages/server/dist/assembly/listeners.js'
import { startPlatform } from '../../packages/server/dist/assembly/service.js'
import { SystemClock } from '../../packages/server/dist/clock/system-clock.js'
import { benchEvent, forcedGcMemory, onCommands } from '../lib/ipc.mjs'

const running = await startPlatform({
  database: { kind: 'sqlite', filename: ':memory:' },
  directoryFile: DEMO_DIRECTORY_FILE,
  clock: new SystemClock(),
  sessionTtlSeconds: 24 * 3600,
  scryptCost: { N: 1024, r: 8, p: 1 },
  // The clients subscribe their 10,000 channels through a few sessions: far more than a session's quota allows
  // an application (docs/security.md, finding 7), which the benchmark is not about.
  quotas: { subscriptionsPerSession: 100_000 },
  // JOURNAL_SIZE as the service reads it (docs/journal.md): the journal's cost on the fan-out is measured
  // by running the benchmark with JOURNAL_SIZE=0 and without.
  ...(process.env.JOURNAL_SIZE && { journalSize: Number(process.env.JOURNAL_SIZE) }),
})
// The platform's event sink: the router every platform event goes through (Directory publishes to it).
const sink = running.events
if (typeof sink?.publish !== 'function')
  throw new Error('startPlatform() does not return the event router (`events`): rebuild the server')
const app = await buildApp(running.platform, { openApi: false })
const listeners = await startListeners(app, { host: '127.0.0.1', httpPort: 0 })
running.platform.urls.httpPort = listeners.httpPort

onCommands({
  memory: async () => ({ usage: await forcedGcMemory() }),
  publish: async ({ seq }) => {
    const published = benchEvent(seq)
    const start = performance.now()
    sink.publish(published)
    const fanOutMs = performance.now() - start
    // The channels write their events to their sockets during publish(); what goes through
    // response.write (a channel behind on its queue) is written on the next tick: the writes end here.
    await tick()
    const flushedMs = performance.now() - start
    return { seq, bytes: Buffer.byteLength(JSON.stringify(published)) + 1, fanOutMs, flushedMs }
  },
  stats: async () => ({
    openChannels: running.platform.outlets.openChannels,
    subscriptions: await running.platform.subscriptions.count(),
  }),
  exit: async () => {
    await listeners.close()
    await app.close()
    await running.close()
  },
})
process.send({ type: 'ready', port: listeners.httpPort })
