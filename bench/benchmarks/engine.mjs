// Call cycles through the engine (bench/workers/engine-worker.mjs, in a process of its own): the engine
// alone in memory, idle and with 1,000 calls in progress, then through TelephonyService with the
// in-memory call store and with the SQL call store on a durable SQLite file, without and with the
// communication log (its records written with each release), and the latter with its WAL checkpointed inside
// the commits instead of from a thread (storage/sql/wal-checkpointer.ts). Rounds go through the six variants
// in turn. No baseline but for the log, measured against the same store without it, and for the checkpoints,
// against the thread: the engine's own cost is the figure (docs/performance.md).
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'

const WORKER = fileURLToPath(new URL('../workers/engine-worker.mjs', import.meta.url))
const VARIANTS = {
  engine: 'engine alone, in memory',
  'engine-busy': 'engine alone, 1,000 other calls in progress',
  'service-memory': 'TelephonyService, in-memory call store',
  'service-sqlite': 'TelephonyService, SQLite file (WAL, durable)',
  'service-sqlite-comlog': 'the same, with the communication log',
  'service-sqlite-comlog-inline':
    'the same, checkpoints in the commits (SQLITE_CHECKPOINT_THREAD=off)',
}

export default {
  name: 'engine',
  title: 'Call cycles through the engine (make with autoAnswer, answer, release)',
  order: 50,
  timeoutS: 120,
  baseline: 'for the communication log only: the same SQLite store without it (service-sqlite)',
  figures: Object.entries(VARIANTS).map(([variant, label]) => ({
    key: variant,
    label,
    unit: 'cycles/s',
    ...(variant === 'engine' && {
      target: { on: 'median', op: '>=', value: 20_000, text: '≥ 20,000/s' },
    }),
    ...(variant === 'service-sqlite-comlog-inline' && { baseline: 'service-sqlite-comlog' }),
    ...(variant === 'service-sqlite-comlog' && {
      baseline: 'service-sqlite',
      target: { on: 'ratio', op: '>=', value: 0.9, text: '≥ 0.9 × without' },
    }),
  })),
  async run(ctx) {
    const worker = new IpcChild(WORKER)
    await worker.ready
    await worker.call('setup', { users: 100, background: ctx.scale(1000, 20) })
    ctx.usedGenerator('in process')
    const durationMs = ctx.scale(1_000, 100)
    const events = []
    await ctx.interleave(
      Object.fromEntries(
        Object.keys(VARIANTS).map((variant) => [
          variant,
          async () => {
            const result = await worker.call('round', { variant, durationMs })
            if (variant === 'engine') events.push(result.eventsPerSecond / result.cyclesPerSecond)
            return { [variant]: result.cyclesPerSecond }
          },
        ]),
      ),
      { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) },
    )
    ctx.note(`${events[0]?.toFixed(0)} events per cycle`)
    await worker.exit()
  },
}
