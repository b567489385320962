/**
 * Checkpoints a SQLite database in WAL mode from a thread of its own, so that copying the WAL's pages back
 * into the database file, and the two fsyncs that go with it, no longer run inside a commit on the service's
 * thread (docs/performance.md, "The cost of writing records"). Every `intervalMs`, the thread's own connection
 * runs a PASSIVE checkpoint: it copies what it can without waiting for the writer and never blocks it.
 *
 * The service's connection keeps its automatic checkpoint, at WRITER_AUTOCHECKPOINT pages instead of SQLite's
 * 1,000: under a steady load a passive checkpoint rarely ends at the very moment no frame is being added, and
 * only a checkpoint that reaches the WAL's end lets the writer start the file over; the writer's own
 * checkpoint then has only the frames since the thread's last one to copy. Should the thread fail, the
 * writer's checkpoint is put back to SQLite's default, a process warning says so, and the database goes on as
 * without it.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'

/** The writer's automatic checkpoint while the thread runs: a bound on the WAL (about 40 MB), not a rhythm. */
export const WRITER_AUTOCHECKPOINT = 10_000
/** SQLite's own default, put back when the thread fails. */
const DEFAULT_AUTOCHECKPOINT = 1_000

/**
 * The thread's code (CommonJS, evaluated): its own connection, a passive checkpoint every interval, and
 * the number of checkpoints done sent back on request (tests). better-sqlite3 is loaded from the path the
 * service resolved, so that the thread finds it from a bundle as from the compiled sources.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.library)
const db = new Database(workerData.filename, { timeout: workerData.busyTimeoutMs })
let checkpoints = 0
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
    checkpoints++
  } catch (error) {
    // Another connection's checkpoint in progress: the next interval tries again.
    if (error.code !== 'SQLITE_BUSY') throw error
  }
}, workerData.intervalMs)
parentPort.on('message', (message) => {
  if (message === 'count') parentPort.postMessage({ checkpoints })
  if (message === 'stop') {
    clearInterval(timer)
    db.close()
    parentPort.close()
  }
})
`

export interface WalCheckpointer {
  /** How many checkpoints the thread has run (tests). */
  checkpoints(): Promise<number>
  /** Stops the thread; its connection is closed before it exits, which the promise waits for. */
  stop(): Promise<void>
}

/**
 * Starts checkpointing `filename` (which `writer` has open in WAL mode) every `intervalMs` from a thread of
 * its own, and raises the writer's automatic checkpoint to WRITER_AUTOCHECKPOINT.
 */
export function startWalCheckpointer(
  writer: SQLite.Database,
  filename: string,
  { intervalMs, busyTimeoutMs }: { intervalMs: number; busyTimeoutMs: number },
): WalCheckpointer {
  const library = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { library, filename, intervalMs, busyTimeoutMs },
  })
  // The thread never keeps the process alive: a service that closes its database stops it, and one that
  // exits without closing loses nothing (the next open recovers the WAL).
  worker.unref()
  let stopped = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  writer.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT}`)
  worker.once('error', (error) => {
    if (stopped || !writer.open) return
    writer.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`)
    // Nothing is lost (the commits checkpoint again), but it is said, once.
    process.emitWarning(
      `SQLite checkpoint thread failed (${error.message}); ${filename} is checkpointed in its commits`,
    )
  })
  return {
    checkpoints: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (message: { checkpoints: number }) => resolve(message.checkpoints))
        worker.once('error', reject)
        worker.postMessage('count')
      }),
    stop() {
      if (!stopped) {
        stopped = true
        worker.postMessage('stop')
      }
      return exited
    },
  }
}
