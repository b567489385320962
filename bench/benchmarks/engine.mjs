// Call cycles through the engine (bench/workers/engine-worker.mjs, in a process of its own): the engine
// alone in memory, idle and with 1,000 calls in progress, then through TelephonyService with the
// in-memory call store and with the SQL call store on a durable SQLite file, without and with the
// communication log (its records written with each release), and the latter with its WAL checkpointed inside
// the commits instead of from a thread (storage/sql/wal-checkpointer.ts). Rounds go through the six variants
// in turn. Baselines: the engine as built at 363b03c (BEFORE_THE_LOG, the build rest-calls compares with,
// built once from this repository's history: bench/lib/reference-build.mjs), its own worker over its own
// build, each of the four variants it has measured right after this build's; every feature since then
// (routing, pickup groups, scrambled callRefs, group commit, ...) shows in their ratios, the engine alone's
// and the memory store's held to 0.9 × (issue 33). For the log, the same store without it, and for the
// checkpoints, the thread (docs/performance.md).
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { referenceBuild } from '../lib/reference-build.mjs'
import { ROOT } from '../lib/service.mjs'
import { BEFORE_THE_LOG } from './rest-calls.mjs'

const WORKER = fileURLToPath(new URL('../workers/engine-worker.mjs', import.meta.url))
/** Where a build of this repository keeps the same worker. */
const WORKER_PATH = 'bench/workers/engine-worker.mjs'
const EARLIER = BEFORE_THE_LOG.slice(0, 7)
const VARIANTS = {
  engine: 'engine alone, in memory',
  'engine-busy': 'engine alone, 1,000 other calls in progress',
  'service-memory': 'TelephonyService, in-memory call store',
  'service-sqlite': 'TelephonyService, SQLite file (WAL, durable)',
  'service-sqlite-comlog': 'the same, with the communication log',
  'service-sqlite-comlog-inline':
    'the same, checkpoints in the commits (SQLITE_CHECKPOINT_THREAD=off)',
}
/** The variants the earlier build's worker has too (the log and its checkpoints came after it). */
const COMPARED = ['engine', 'engine-busy', 'service-memory', 'service-sqlite']
/**
 * Those whose ratio issue 33 holds to 0.9 ×. `engine-busy` goes by the garbage collection of calls that last
 * (its gap to 363b03c is all GC: docs/performance.md), `service-sqlite` by each commit's fsync: shown, not judged.
 */
const HELD = ['engine', 'service-memory']

/** The figure of a variant measured in the earlier build, and that of this build's against it. */
const earlierKey = (variant) => `${variant}@${EARLIER}`
const againstKey = (variant) => `${variant}VsEarlier`

/** A variant's own figure, then, for the compared ones, the earlier build's and the ratio to it. */
function figuresOf(variant, label) {
  const own = {
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
  }
  if (!COMPARED.includes(variant)) return [own]
  return [
    own,
    { key: earlierKey(variant), label: `  the same, built at ${EARLIER}`, unit: 'cycles/s' },
    {
      key: againstKey(variant),
      label: `  ${variant} against ${EARLIER}`,
      unit: 'cycles/s',
      baseline: earlierKey(variant),
      ...(HELD.includes(variant) && {
        target: { on: 'ratio', op: '>=', value: 0.9, text: `≥ 0.9 × ${EARLIER}` },
      }),
    },
  ]
}

export default {
  name: 'engine',
  title: 'Call cycles through the engine (make with autoAnswer, answer, release)',
  order: 50,
  timeoutS: 180,
  baseline: `the engine built at ${EARLIER} (issue 33), for the variants it has; for the communication log, the same SQLite store without it (service-sqlite)`,
  figures: Object.entries(VARIANTS).flatMap(([variant, label]) => figuresOf(variant, label)),
  /**
   * The earlier build, made once from this repository's history (minutes the first time; kept in the
   * system's temporary directory, shared with rest-calls). The smoke test takes this build in its place.
   */
  prepare(ctx) {
    if (ctx.smoke) return undefined
    return referenceBuild(BEFORE_THE_LOG, { root: ROOT, log: ctx.log })
  },
  async run(ctx, earlier) {
    const setup = { users: 100, background: ctx.scale(1000, 20) }
    // This build's compared variants in a worker that makes those only, as the earlier build's does: the
    // same state made before the rounds (it decides how V8 allocates later on); the log's in another.
    const worker = new IpcChild(WORKER)
    const logWorker = new IpcChild(WORKER)
    const earlierWorker = new IpcChild(
      earlier === undefined ? WORKER : join(earlier.dir, WORKER_PATH),
    )
    if (earlier === undefined)
      ctx.note(`smoke mode: the earlier build (${EARLIER}) is this build; no earlier build is made`)
    const logged = Object.keys(VARIANTS).filter((variant) => !COMPARED.includes(variant))
    for (const [child, variants] of [
      [worker, COMPARED],
      [logWorker, logged],
      [earlierWorker, COMPARED],
    ]) {
      await child.ready
      await child.call('setup', { ...setup, variants })
    }
    ctx.usedGenerator('in process')
    const durationMs = ctx.scale(1_000, 100)
    const events = { current: [], earlier: [] }
    /** A round of `variant` in `child`: its cycles a second, and its events per cycle kept under `side`. */
    const round = async (child, variant, side) => {
      const result = await child.call('round', { variant, durationMs })
      if (variant === 'engine') events[side].push(result.eventsPerSecond / result.cyclesPerSecond)
      return result.cyclesPerSecond
    }
    const rounds = {}
    for (const variant of Object.keys(VARIANTS)) {
      const compared = COMPARED.includes(variant)
      rounds[variant] = async () => {
        const cycles = await round(compared ? worker : logWorker, variant, 'current')
        return compared
          ? { [variant]: cycles, [againstKey(variant)]: cycles }
          : { [variant]: cycles }
      }
      // Right after this build's round of the same variant, so that the two see the same machine.
      if (compared)
        rounds[`${variant} (${EARLIER})`] = async () => ({
          [earlierKey(variant)]: await round(earlierWorker, variant, 'earlier'),
        })
    }
    await ctx.interleave(rounds, { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) })
    ctx.note(
      `${events.current[0]?.toFixed(0)} events per cycle (${EARLIER}: ${events.earlier[0]?.toFixed(0)}): both builds do the same work`,
    )
    await Promise.all([worker.exit(), logWorker.exit(), earlierWorker.exit()])
  },
}
