// Start-up: from spawning the service as `npm start` runs it (`node packages/server/dist/main.bundle.js`,
// embedded default: the demo directory, SQLite in the data directory, the HTTPS listener with its
// development certificate and the control plane, on free ports) to its first successful `GET /api/rest`,
// on a cold data directory (the first start: the directory file is imported, the development certificate
// made; the demo passwords are hashed in the background once the service listens) and warm (the second
// start on the same directory: nothing to import). Cold and warm alternate, round by round; a cold start
// is stopped only once it logged 'directory stored', so that the warm one finds it stored.
// The service logs at info level here, so that its 'directory loaded' line (after startPlatform: store
// opened, directory read, telephony started) splits the time into platform and the rest.

/** Milliseconds from spawn to the service's `msg` log line, if it printed one. */
function loggedMs(service, msg) {
  const line = service.logs().find((entry) => entry.msg === msg)
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
      label: 'cold data directory (first start: import, certificate)',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 1500, text: '< 1,500 ms' },
    },
    { key: 'coldPlatform', label: '  of which spawn → platform started (log)', unit: 'ms' },
    {
      key: 'coldStored',
      label: '  spawn → directory stored (14 scrypt hashes, background)',
      unit: 'ms',
    },
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
      const service = await startService({
        dataDir,
        directoryFile,
        logLevel: 'info',
        allListeners: true,
      })
      const figures = {
        [key]: service.startupMs,
        [`${key}Platform`]: loggedMs(service, 'directory loaded'),
      }
      if (key === 'cold') {
        await service.untilLogged('directory stored')
        figures.coldStored = loggedMs(service, 'directory stored')
      }
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
