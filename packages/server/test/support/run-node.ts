/** Runs Node programs as child processes and collects what they print: the example's and the image's tests. */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The repository's root. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** A program's exit code and output. */
export interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `node <args>` in `cwd` (the repository's root by default) with `env` and only this process's PATH beside
 * it, no standard input, and resolves once it exited.
 */
export function runNode(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? REPOSITORY_ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}
