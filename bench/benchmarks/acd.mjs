// The contact center (issue 35), in one worker (bench/workers/acd-worker.mjs): a floor of 500 agents in 10
// processing groups and 20 pilots taking a minute of calls at 50 a second on a VIRTUAL clock, the engine alone in
// memory, each command's REAL wall time measured: the queue-to-offer decision's p50, p99 and max (target p99
// < 5 ms), the calls lost (target 0), the peak queue; again with half the pilots needing a skill 30 of each
// group's 50 agents have. Then call cycles between two users without a contact center against the same with the
// whole contact center provisioned and its agents logged on, and with agents as the two users (private calls),
// the engine alone and through TelephonyService with the in-memory call store (target ≥ 0.8 × without).
// docs/performance.md, "`acd`: a floor of 500 agents".
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { median } from '../lib/stats.mjs'

const WORKER = fileURLToPath(new URL('../workers/acd-worker.mjs', import.meta.url))
const CYCLES = {
  engine: 'the engine alone, in memory',
  service: 'TelephonyService, in-memory call store',
}
const FIVE_MS = { on: 'median', op: '<', value: 5, text: '< 5 ms' }
const NONE_LOST = { on: 'median', op: '<=', value: 0, text: '0' }
const AT_LEAST_080 = { on: 'ratio', op: '>=', value: 0.8, text: '≥ 0.8 × without' }

export default {
  name: 'acd',
  title:
    'Contact center: 500 agents, 20 pilots, 50 calls/s for a minute (virtual clock); call cycles with it and without',
  order: 56,
  timeoutS: 240,
  baseline:
    'for the call cycles, the same cycles on a state without a contact center, same worker and run',
  figures: [
    {
      key: 'offer-p99',
      label: 'queue-to-offer decision p99 (wall time of a command that offers)',
      unit: 'ms',
      target: FIVE_MS,
    },
    { key: 'offer-p50', label: '  p50', unit: 'ms' },
    { key: 'offer-max', label: '  max', unit: 'ms' },
    {
      key: 'offer-p99-cpu',
      label: '  p99 in CPU time (the process, during the command)',
      unit: 'ms',
    },
    { key: 'lost', label: 'calls lost (not served)', unit: 'calls', target: NONE_LOST },
    { key: 'peak-queue', label: 'peak of the calls waiting, all queues', unit: 'calls' },
    {
      key: 'floor-commands-per-second',
      label: 'floor commands a second (engine time only)',
      unit: 'commands/s',
    },
    {
      key: 'offer-p99-skills',
      label: 'half the pilots need a skill: decision p99',
      unit: 'ms',
      target: FIVE_MS,
    },
    { key: 'lost-skills', label: '  calls lost', unit: 'calls', target: NONE_LOST },
    { key: 'peak-queue-skills', label: '  peak of the calls waiting', unit: 'calls' },
    ...Object.entries(CYCLES).flatMap(([variant, label]) => [
      {
        key: `cycles-no-acd-${variant}`,
        label: `cycles, no contact center, ${label}`,
        unit: 'cycles/s',
      },
      {
        key: `cycles-acd-${variant}`,
        label: '  with it, 500 agents READY (users no agents)',
        unit: 'cycles/s',
        baseline: `cycles-no-acd-${variant}`,
        target: AT_LEAST_080,
      },
      {
        key: `cycles-agents-${variant}`,
        label: '  with it, two agents in a private call',
        unit: 'cycles/s',
        baseline: `cycles-no-acd-${variant}`,
        target: AT_LEAST_080,
      },
    ]),
  ],
  async run(ctx) {
    const worker = new IpcChild(WORKER, { execArgv: ['--expose-gc'] })
    await worker.ready
    ctx.usedGenerator('in process')
    const calls = ctx.scale(3_000, 250)
    const floors = []
    const floorRound = (skills) => async () => {
      const floor = await worker.call('floor', { calls, skills }, 180_000)
      if (floor.errors > 0)
        throw new Error(`the floor: ${floor.errors} commands failed, first ${floor.firstError}`)
      floors.push({ skills, ...floor })
      const suffix = skills ? '-skills' : ''
      return {
        [`offer-p99${suffix}`]: floor.offerP99,
        [`lost${suffix}`]: floor.lost,
        [`peak-queue${suffix}`]: floor.peakQueue,
        ...(!skills && {
          'offer-p50': floor.offerP50,
          'offer-max': floor.offerMax,
          'offer-p99-cpu': floor.offerCpuP99,
          'floor-commands-per-second': floor.commandsPerSecond,
        }),
      }
    }
    await ctx.interleave(
      { floor: floorRound(false), 'floor-skills': floorRound(true) },
      { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
    )
    const measured = floors.slice(floors.length - 2 * ctx.rounds(3))
    for (const skills of [false, true]) {
      const mine = measured.filter((floor) => floor.skills === skills)
      const range = (key, digits = 0) => {
        const values = mine.map((floor) => floor[key])
        const low = Math.min(...values).toFixed(digits)
        const high = Math.max(...values).toFixed(digits)
        return low === high ? low : `${low}–${high}`
      }
      ctx.note(
        `floor${skills ? ' with skills' : ''}: ${calls} calls, ${range('offeredFromQueue')} of them offered after waiting ` +
          `(the others on arrival), longest wait ${range('queueWaitMax')} ms of virtual time, ` +
          `${range('commands')} commands over ${range('virtualSeconds', 1)} virtual s in ${range('wallMs')} ms of wall time`,
      )
    }

    await worker.call('setup', {}, 180_000)
    const durationMs = ctx.scale(1_000, 100)
    const rounds = {}
    /** Each round's cycles by CPU second, by variant, warm-up included (it is dropped below). */
    const byCpu = {}
    for (const shape of ['no-acd', 'acd', 'agents'])
      for (const variant of Object.keys(CYCLES)) {
        const key = `cycles-${shape}-${variant}`
        byCpu[key] = []
        rounds[key] = async () => {
          const round = await worker.call('round', { variant: `${shape}-${variant}`, durationMs })
          byCpu[key].push(round.cyclesPerCpuSecond)
          return { [key]: round.cyclesPerSecond }
        }
      }
    await ctx.interleave(rounds, { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) })
    await worker.exit()
    // The same ratios by CPU time: what the cycles cost, whatever other processes took of the machine meanwhile.
    const cpuRatios = []
    for (const variant of Object.keys(CYCLES))
      for (const shape of ['acd', 'agents']) {
        const base = byCpu[`cycles-no-acd-${variant}`].slice(-ctx.rounds(5))
        const ratios = byCpu[`cycles-${shape}-${variant}`]
          .slice(-ctx.rounds(5))
          .map((value, i) => value / base[i])
        cpuRatios.push(`${shape}-${variant} ${median(ratios).toFixed(2)} ×`)
      }
    ctx.note(`cycles against no contact center by CPU time (the worker's): ${cpuRatios.join(', ')}`)
  },
}
