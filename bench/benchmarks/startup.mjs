// Start-up: from spawning `node packages/server/dist/main.js` (embedded default: the demo directory,
// SQLite in the data directory) to its first successful `GET /api/rest`, on a cold data directory (the
// first start: the directory file is imported and every demo password hashed with scrypt) and warm
// (the second start on the same directory: nothing to import). Cold and warm alternate, round by round.
// The service logs at info level here, so that its 'directory loaded' line (after startPlatform: store
// opened, directory imported, telephony started) splits the time into platform and the rest.

/** Milliseconds from spawn to the service's 'directory loaded' log line, if it printed one. */
function platformMs(service) {
  const line = service.logs().find((entry) => entry.msg === 'directory loaded')
  return line ? line.time - service.startedAt : Number.NaN
}

export default {
  name: 'startup',
  title: 'Start-up: process start to the first successful GET /api/rest',
  order: 10,
  timeoutS: 120,
  baseline: undefined,
  figures: [
    {
      key: 'cold',
      label: 'cold data directory (first start: import, hash passwords)',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 1500, text: '< 1,500 ms' },
    },
    { key: 'coldPlatform', label: '  of which spawn → platform started (log)', unit: 'ms' },
    { key: 'warm', label: 'warm data directory (second start)', unit: 'ms' },
    { key: 'warmPlatform', label: '  of which spawn → platform started (log)', unit: 'ms' },
  ],
  async run(ctx) {
    // Smoke mode starts on the directory with cheap hashes: seconds, not the cold figure.
    const directoryFile = ctx.smoke ? ctx.cheapDirectory() : undefined
    if (ctx.smoke) ctx.note('smoke: directory with hashes of negligible cost')
    const { startService } = await import('../lib/service.mjs')
    let dataDir
    let offered = false
    const start = async (key) => {
      const service = await startService({ dataDir, directoryFile, logLevel: 'info' })
      const figures = { [key]: service.startupMs, [`${key}Platform`]: platformMs(service) }
      await service.stop()
      return figures
    }
    await ctx.interleave(
      {
        cold: async () => {
          dataDir = ctx.tempDir('openness-bench-startup-')
          return start('cold')
        },
        warm: async () => {
          const figures = await start('warm')
          // The other benchmarks may start from this directory instead of preparing one.
          if (!offered) ctx.offerTemplate(directoryFile, dataDir)
          offered = true
          return figures
        },
      },
      { rounds: ctx.rounds(3) },
    )
  },
}
