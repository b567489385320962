/**
 * Runs a README block with bash as a reader's terminal would, with three differences that make a failure
 * visible: `set -eo pipefail` (a failing line fails the block; an ERR trap names it on stderr), standard input
 * empty, and each block a process group of its own, so that what it leaves running (a channel, nodes started
 * with `&`) is ended with it. The variables a block exports carry to the next blocks, as in one terminal: each
 * block starts by reading the exports the previous one wrote, and ends by writing its own.
 */
import { type ChildProcess, spawn } from 'node:child_process'

/** Where the blocks of one run execute. */
export interface ShellPlace {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  /** The file the exports carry in, from block to block. */
  readonly exportsFile: string
}

/** How a block's bash ended. */
export interface BlockEnd {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** One block's bash process (and whatever it started), with what it printed. */
export class RunningBlock {
  stdout = ''
  stderr = ''
  /** Resolves when bash itself ended (what it started with `&` may run on). */
  readonly exited: Promise<BlockEnd>
  /** Resolves when its output ended too: bash and everything that held its output ended. */
  readonly closed: Promise<void>
  readonly #child: ChildProcess

  constructor(text: string, place: ShellPlace) {
    const exports = `'${place.exportsFile}'`
    const script = [
      `[ -f ${exports} ] && source ${exports}`,
      'set -eo pipefail',
      `trap 'echo "readme snippet: exit code $? from: $BASH_COMMAND" >&2' ERR`,
      text,
      `export -p > ${exports}`,
    ].join('\n')
    this.#child = spawn('bash', ['-c', script], {
      cwd: place.cwd,
      env: place.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString()
    })
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString()
    })
    this.exited = new Promise((resolve) =>
      this.#child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    this.closed = new Promise((resolve) => this.#child.once('close', () => resolve()))
  }

  /** bash's process id, which is also its group's. */
  get pid(): number {
    return this.#child.pid ?? 0
  }

  /** Whether bash ended already. */
  get ended(): boolean {
    return this.#child.exitCode !== null || this.#child.signalCode !== null
  }

  /** What it printed, both streams, for a failure's message. */
  printed(): string {
    return `--- stdout\n${this.stdout.slice(-6000)}\n--- stderr\n${this.stderr.slice(-3000)}`
  }

  /** Resolves true once its output holds every text of `texts` in order, false after `guardMs`. */
  async printedInOrder(texts: readonly string[], guardMs: number): Promise<boolean> {
    const deadline = Date.now() + guardMs
    while (missingInOrder(this.stdout, texts) !== undefined) {
      if (Date.now() > deadline) return false
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return true
  }

  /**
   * Ends its group (SIGTERM, then SIGKILL if some of it still runs after `graceMs`) and waits until it is gone,
   * or seems so: a process whose parent ended is reaped by the machine's first process, and a zombie that one
   * never reaps would still count as a member, so the wait stops a moment after the SIGKILL.
   */
  async end(graceMs = 10_000): Promise<void> {
    signalGroup(this.pid, 'SIGTERM')
    const killAt = Date.now() + graceMs
    while (groupAlive(this.pid) && Date.now() < killAt + 2_000) {
      if (Date.now() > killAt) signalGroup(this.pid, 'SIGKILL')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await this.exited
  }
}

/** The first of `texts` that `output` does not hold after the ones before it (in order); undefined if none. */
export function missingInOrder(output: string, texts: readonly string[]): string | undefined {
  let from = 0
  for (const text of texts) {
    const at = output.indexOf(text, from)
    if (at < 0) return text
    from = at + text.length
  }
  return undefined
}

/** Sends `signal` to the process group `pgid`; nothing when it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (pgid <= 0) return
  try {
    process.kill(-pgid, signal)
  } catch {
    // Gone already.
  }
}

/** Whether a process of the group `pgid` still runs. */
export function groupAlive(pgid: number): boolean {
  if (pgid <= 0) return false
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Runs a block until it ended: its output closed (bash and all it started ended), or with `until: 'exited'`,
 * bash itself (what it started with `&` runs on); it is ended after `guardMs`. Resolves with how bash ended.
 */
export async function runBlock(
  text: string,
  place: ShellPlace,
  options: { guardMs: number; until?: 'closed' | 'exited' },
): Promise<{ block: RunningBlock; end: BlockEnd; timedOut: boolean }> {
  const block = new RunningBlock(text, place)
  let timer: NodeJS.Timeout | undefined
  const guard = new Promise<'guard'>((resolve) => {
    timer = setTimeout(() => resolve('guard'), options.guardMs)
  })
  const outcome = await Promise.race([
    options.until === 'exited' ? block.exited : block.closed,
    guard,
  ])
  clearTimeout(timer)
  if (outcome === 'guard') await block.end()
  return { block, end: await block.exited, timedOut: outcome === 'guard' }
}
