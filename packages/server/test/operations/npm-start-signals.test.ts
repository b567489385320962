/**
 * `npm start` forwards SIGTERM to the server (issue 15, "Operations"): a process manager or a container that stops
 * npm must stop the server, not orphan it. The repository's start script is run by the real npm in a scratch
 * package, its build step replaced by `true` and the service by a stub that records the signals it gets, so that this
 * test builds nothing (other tests build and run dist/ at the same time).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const MAIN = 'packages/server/dist/main.bundle.js'

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openness-npm-start-'))
})
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** Resolves once `file` holds `text`, or rejects after `ms`. */
async function until(file: string, text: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    const held = await readFile(file, 'utf8').catch(() => '')
    if (held.includes(text)) return
    if (Date.now() > deadline) throw new Error(`${file} never held '${text}' (it holds '${held}')`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('npm start', () => {
  it('runs the server in place of its shell, so that a SIGTERM to npm reaches the server', async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    const start = scripts['start'] ?? ''
    expect(start).toContain(`node ${MAIN}`)
    expect(start).toContain('node scripts/build-if-stale.mjs && exec node')
    const record = join(dir, 'signals.txt')
    const stub = join(dir, 'server.cjs')
    await writeFile(
      stub,
      `const { appendFileSync } = require('node:fs')
appendFileSync(${JSON.stringify(record)}, 'started\\n')
process.on('SIGTERM', () => { appendFileSync(${JSON.stringify(record)}, 'SIGTERM\\n'); process.exit(0) })
setInterval(() => {}, 1000)
`,
    )
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'npm-start-signals',
        private: true,
        scripts: {
          start: start.replace('node scripts/build-if-stale.mjs', 'true').replace(MAIN, stub),
        },
      }),
    )
    const npm = spawn('npm', ['start'], { cwd: dir, stdio: 'ignore' })
    const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()))
    try {
      await until(record, 'started', 20_000)
      npm.kill('SIGTERM')
      await until(record, 'SIGTERM', 5_000)
      // npm ends with its script.
      await exited
    } finally {
      npm.kill('SIGKILL')
    }
  }, 30_000)
})
