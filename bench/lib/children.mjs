// The child processes of the benchmarks: every one is registered here, so that the runner ends all of
// them when a benchmark ends, whether it worked, failed or ran out of time.
import { fork, spawn } from 'node:child_process'

const alive = new Set()

/** Registers `child` until it exits; returns a promise of its exit { code, signal }. */
function track(child) {
  alive.add(child)
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      alive.delete(child)
      resolve({ code, signal })
    })
    child.once('error', () => {
      alive.delete(child)
      resolve({ code: null, signal: null })
    })
  })
}

/** `child_process.spawn`, registered; `exited` resolves with { code, signal }. */
export function spawnTracked(command, args, options) {
  const child = spawn(command, args, options)
  const exited = track(child)
  return { child, exited }
}

/** Ends every child still running: SIGTERM, then SIGKILL after `graceMs`. */
export async function endAll(graceMs = 3_000) {
  const children = [...alive]
  if (children.length === 0) return
  const exits = children.map(
    (child) =>
      new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve))),
  )
  for (const child of children) child.kill('SIGTERM')
  const timer = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  }, graceMs)
  await Promise.all(exits)
  clearTimeout(timer)
}

/** Kills what is left when the runner itself exits (a crash, Ctrl-C). */
export function killAllNow() {
  for (const child of alive) child.kill('SIGKILL')
}

/**
 * A Node child with an IPC channel that answers the commands of bench/lib/ipc.mjs `onCommands`:
 * `ready` resolves with its first `{ type: 'ready', ... }` message; `call(cmd, args)` with its answer.
 */
export class IpcChild {
  constructor(script, { execArgv = [], env = {}, args = [] } = {}) {
    this.name = String(script).split('/').slice(-2).join('/')
    this.pending = new Map()
    this.nextId = 1
    this.process = fork(script, args, {
      execArgv,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.exited = track(this.process)
    this.ready = new Promise((resolve, reject) => {
      this.process.on('message', (message) => {
        if (message.type === 'ready') return resolve(message)
        const call = this.pending.get(message.id)
        if (call === undefined) return
        this.pending.delete(message.id)
        clearTimeout(call.timer)
        if (message.type === 'error') call.reject(new Error(`${this.name}: ${message.message}`))
        else call.resolve(message)
      })
      this.exited.then(({ code, signal }) => {
        const error = new Error(`${this.name} exited (code ${code}, signal ${signal})`)
        reject(error)
        for (const call of this.pending.values()) {
          clearTimeout(call.timer)
          call.reject(error)
        }
        this.pending.clear()
      })
    })
    // A child that never sends `ready` must not hold a rejection nobody awaits.
    this.ready.catch(() => {})
  }

  /** Sends `{ cmd, id, ...args }`; resolves with the answer, rejects after `timeoutMs`. */
  call(cmd, args = {}, timeoutMs = 120_000) {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (!this.process.connected) return reject(new Error(`${this.name} is gone`))
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`${this.name}: no answer to ${cmd} within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(id, { resolve, reject, timer })
      this.process.send({ cmd, id, ...args })
    })
  }

  /** Asks the child to exit, and kills it when it does not within a few seconds. */
  async exit() {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return
    await this.call('exit', {}, 5_000).catch(() => {})
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5_000)
    await this.exited
    clearTimeout(timer)
  }
}
