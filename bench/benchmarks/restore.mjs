// Reset, snapshots and restore (docs/sandbox.md): the time of a restore, what a test suite pays between
// two of its tests, on the demo directory and on a generated directory of 10,000 users, each in a durable
// SQLite file as `npm start` keeps it; and the time to take the snapshot. In process, through the platform
// the control plane drives (RunningPlatform.states): the figure is the platform's own work, without HTTP.
// Before each restore a preference is changed and a call placed, so that every restore puts back an
// account and ends a call, as between two tests (no session is open: closing one costs what a logout does). No baseline: the target is absolute (issue 16: under 50 ms for the demo).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { startPlatform } from '../../packages/server/dist/assembly/service.js'
import { AdjustableClock } from '../../packages/server/dist/clock/adjustable-clock.js'
import { cheapHash, cheapPasswords, DEMO_DIRECTORY } from '../lib/service.mjs'
import { latencySummary } from '../lib/stats.mjs'

export default {
  name: 'restore',
  title: 'Restore of a snapshot: the demo directory and 10,000 users (SQLite file)',
  order: 75,
  timeoutS: 600,
  baseline: undefined,
  figures: [
    {
      key: 'demoRestore',
      label: 'restore, demo directory, median',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 50, text: '< 50 ms' },
    },
    { key: 'demoRestoreP99', label: 'restore, demo directory, p99', unit: 'ms' },
    { key: 'demoSnapshot', label: 'snapshot, demo directory', unit: 'ms' },
    { key: 'bigRestore', label: 'restore, 10,000 users, median', unit: 'ms' },
    { key: 'bigRestoreP99', label: 'restore, 10,000 users, p99', unit: 'ms' },
    { key: 'bigSnapshot', label: 'snapshot, 10,000 users', unit: 'ms' },
  ],
  async run(ctx) {
    const dir = ctx.tempDir('restore-')
    const demo = await startOn(dir, 'demo', cheapPasswords(readFileSync(DEMO_DIRECTORY, 'utf8')))
    const big = await startOn(dir, 'big', generatedDirectory(ctx.scale(10_000, 200)))
    const restores = ctx.scale(50, 3)
    try {
      await ctx.interleave(
        {
          demo: async () => measure(demo, restores, 'demo'),
          big: async () => measure(big, restores, 'big'),
        },
        { rounds: ctx.rounds(3), warmup: ctx.scale(1, 0) },
      )
    } finally {
      await demo.running.close()
      await big.running.close()
    }
    ctx.usedGenerator('in process')
  },
}

/** Starts the platform on its own SQLite file over the directory text, its import stored. */
async function startOn(dir, name, directoryText) {
  const directoryFile = join(dir, `${name}-directory.yaml`)
  writeFileSync(directoryFile, directoryText)
  const running = await startPlatform({
    database: { kind: 'sqlite', filename: join(dir, `${name}.sqlite3`) },
    directoryFile,
    clock: new AdjustableClock(),
    sessionTtlSeconds: 300,
  })
  await running.completeImport()
  const first = parse(directoryText).users[0]
  return { running, caller: first.devices[0].id, login: first.loginName }
}

/** One round: a snapshot, then `count` restores, each after a preference changed and a call placed. */
async function measure({ running, caller, login }, count, prefix) {
  const { states, platform, telephony } = running
  let began = performance.now()
  await states.snapshot('bench')
  const snapshot = performance.now() - began
  const latencies = []
  for (let i = 0; i < count; i++) {
    const account = platform.directory.findUser(login)
    await platform.directory.updatePreferences(account, { guiLanguage: i % 2 ? 'de' : 'fr' })
    await telephony.execute({ type: 'incomingCall', from: '+33612345678', to: caller })
    began = performance.now()
    await states.restore('bench')
    latencies.push(performance.now() - began)
  }
  const { p50, p99 } = latencySummary(latencies)
  return {
    [`${prefix}Restore`]: p50,
    [`${prefix}RestoreP99`]: p99,
    [`${prefix}Snapshot`]: snapshot,
  }
}

/**
 * The demo company with `count` generated users on five-digit extensions, and the demo's administrators (and
 * neither its hunting nor its supervision groups, nor its contact center, which name its users).
 */
function generatedDirectory(count) {
  const demo = parse(readFileSync(DEMO_DIRECTORY, 'utf8'))
  const hash = cheapHash('bench')
  const users = Array.from({ length: count }, (_, i) => {
    const number = String(20_000 + i)
    return {
      loginName: `user${i}`,
      passwordHash: hash,
      salutation: 'MR',
      firstName: `First${i}`,
      lastName: `Last${i}`,
      type: 'STANDARD',
      companyPhone: number,
      companyEmail: `user${i}@example.com`,
      apiRights: ['TELEPHONY_BASIC'],
      devices: [{ type: 'DESKPHONE', id: number, role: 'MAIN' }],
    }
  })
  const administrators = demo.administrators.map(({ password, ...administrator }) => ({
    ...administrator,
    passwordHash: cheapHash(password),
  }))
  // The demo's groups and contact center name the demo's users, whom this directory replaces.
  const {
    huntingGroups: _hunting,
    supervisionGroups: _supervision,
    contactCenter: _contactCenter,
    ...company
  } = demo
  return stringify({
    ...company,
    numberingPlan: { ...demo.numberingPlan, extensionLength: 5, publicNumberPrefix: '+331556' },
    licenses: { ...demo.licenses, TELEPHONY_BASIC: count },
    users,
    administrators,
  })
}
