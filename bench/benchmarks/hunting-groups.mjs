// Call cycles into a 20-member CIRCULAR hunting group against the same cycles between two users, in one worker
// and one run (bench/workers/hunting-worker.mjs): the engine alone in memory, and through TelephonyService with
// the in-memory call store. Target (issue 34): group cycles at least 0.8 × pair cycles (docs/performance.md,
// "`hunting-groups`: call cycles into a hunting group").
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'

const WORKER = fileURLToPath(new URL('../workers/hunting-worker.mjs', import.meta.url))
const VARIANTS = {
  engine: 'the engine alone, in memory',
  service: 'TelephonyService, in-memory call store',
}

export default {
  name: 'hunting-groups',
  title:
    'Call cycles into a 20-member circular hunting group (make with autoAnswer, answer, release)',
  order: 55,
  timeoutS: 120,
  baseline: 'the same cycles between two users, in the same worker and run',
  figures: Object.entries(VARIANTS).flatMap(([variant, label]) => [
    { key: `pair-${variant}`, label: `two users, ${label}`, unit: 'cycles/s' },
    {
      key: `group-${variant}`,
      label: `into the group, ${label}`,
      unit: 'cycles/s',
      baseline: `pair-${variant}`,
      target: { on: 'ratio', op: '>=', value: 0.8, text: '≥ 0.8 × two users' },
    },
  ]),
  async run(ctx) {
    const worker = new IpcChild(WORKER)
    await worker.ready
    await worker.call('setup', {})
    ctx.usedGenerator('in process')
    const durationMs = ctx.scale(1_000, 100)
    const rounds = {}
    for (const side of ['pair', 'group'])
      for (const variant of Object.keys(VARIANTS)) {
        const key = `${side}-${variant}`
        rounds[key] = async () => ({
          [key]: (await worker.call('round', { variant: key, durationMs })).cyclesPerSecond,
        })
      }
    await ctx.interleave(rounds, { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) })
    await worker.exit()
  },
}
