// What the benchmarks share with their children (servers, baselines, load generators, workers): the IPC
// command loop, the memory reading, the fan-out benchmark's event.
import { setImmediate as tick } from 'node:timers/promises'

/** Pads the event so that its line is about 500 bytes on the wire. */
export const EVENT_PADDING = 'x'.repeat(170)

/** The ~500-byte OnPreferencesChanged-like event, stamped with its publish time. */
export function benchEvent(seq) {
  return {
    eventName: 'OnPreferencesChanged',
    loginName: 'alice',
    // Kept first so that the receivers find them without parsing the whole line.
    benchSeq: seq,
    benchPublishedAt: performance.timeOrigin + performance.now(),
    preferences: {
      guiLanguage: 'fr_FR',
      tuiLanguage: 'fr_FR',
      personalMobile: '+33 6 12 34 56 78',
      professionalMobile: '+33 6 98 76 54 32',
      personalPhone: '+33 1 23 45 67 89',
      telephony: { clirMode: 'NONE' },
      colleague: EVENT_PADDING,
    },
  }
}

/** process.memoryUsage() after full garbage collections (the child runs with --expose-gc). */
export async function forcedGcMemory() {
  if (typeof globalThis.gc !== 'function') throw new Error('run the server child with --expose-gc')
  for (let i = 0; i < 3; i++) {
    globalThis.gc()
    await tick()
  }
  return process.memoryUsage()
}

/**
 * Answers the parent's commands: `{ cmd, id, ...args }` → `{ type: cmd, id, ...result }`. `now` (the
 * clock check) and `cpu` (process.cpuUsage()) are built in; after `exit` the process ends.
 */
const builtIn = {
  now: () => ({ now: performance.timeOrigin + performance.now() }),
  cpu: () => ({ cpu: process.cpuUsage() }),
}

export function onCommands(handlers) {
  process.on('message', async (message) => {
    const { cmd, id } = message
    try {
      const handler = builtIn[cmd] ?? handlers[cmd]
      if (handler === undefined) throw new Error(`unknown command ${cmd}`)
      const result = await handler(message)
      process.send({ type: cmd, id, ...result }, () => {
        if (cmd === 'exit') process.exit(0)
      })
    } catch (error) {
      process.send({ type: 'error', id, message: String(error?.stack ?? error) })
    }
  })
  process.on('disconnect', () => process.exit(0))
}
