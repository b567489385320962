// Call cycles over REST with event channels open: 4 pairs of demo users, each with a session, a
// subscription to `telephony` and a chunk channel over a real socket, loop on make call (autoAnswer),
// answer, release, each cycle ending when both channels delivered OnCallRemoved (bench/load/
// telephony-load.mjs, its own process). The service is `node packages/server/dist/main.js` over its own
// data directory (SQLite, durable: every command is one committed transaction). Reports cycles/s and
// the latency from sending the answer to the caller's channel delivering the OnCallModified (ACTIVE).
// No baseline: nothing bare does this.
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { withCpu } from '../lib/cpu.mjs'
import { startService } from '../lib/service.mjs'
import { median } from '../lib/stats.mjs'

const LOADER = fileURLToPath(new URL('../load/telephony-load.mjs', import.meta.url))

export default {
  name: 'rest-calls',
  title: 'Call cycles over REST, both parties with event channels open',
  order: 60,
  timeoutS: 120,
  baseline: undefined,
  figures: [
    {
      key: 'cps',
      label: 'REST call cycles, both channels open',
      unit: 'cycles/s',
      target: { on: 'median', op: '>=', value: 500, text: '≥ 500/s' },
    },
    { key: 'p50', label: 'answer → OnCallModified on the channel, p50', unit: 'ms' },
    {
      key: 'p99',
      label: 'answer → OnCallModified on the channel, p99',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 20, text: '< 20 ms' },
    },
  ],
  async run(ctx) {
    const directoryFile = ctx.cheapDirectory()
    const service = await startService({ dataDir: await ctx.dataDir(directoryFile), directoryFile })
    const loader = new IpcChild(LOADER)
    await loader.ready
    const pairs = ctx.scale(4, 1)
    await loader.call('setup', { port: service.port, pairs })
    ctx.usedGenerator(`node loader, ${pairs} pairs`)
    const durationMs = ctx.scale(3_000, 500)
    const cpu = { service: [], loader: [], msPerCycle: [] }
    await ctx.interleave(
      {
        service: async (round) => {
          const { result, cores } = await withCpu(service.child.pid, () =>
            withCpu(loader.process.pid, () => loader.call('round', { durationMs })),
          )
          const cps = result.result.cycles / result.result.seconds
          if (round >= 0) {
            cpu.service.push(cores)
            cpu.loader.push(result.cores)
            cpu.msPerCycle.push((cores * 1000) / cps)
          }
          const { p50, p99 } = result.result.latencies
          return { cps, p50, p99 }
        },
      },
      { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) },
    )
    const msPerCycle = median(cpu.msPerCycle)
    ctx.note(
      `CPU (medians): service ${median(cpu.service).toFixed(2)} cores, ${msPerCycle.toFixed(2)} ms a cycle (one full core: ~${Math.round(1000 / msPerCycle)} cycles/s); load generator ${median(cpu.loader).toFixed(2)} cores`,
    )
    await loader.exit()
    await service.stop()
  },
}
