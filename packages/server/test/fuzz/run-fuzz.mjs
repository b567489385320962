#!/usr/bin/env node
/**
 * `npm run fuzz -- --runs N [--seed S] [vitest options]`: the fuzz test of `npm test` (hostile-requests.test.ts)
 * with N inputs per operation instead of CI's few, then a summary: inputs tried, statuses seen, the operations that
 * failed with their seed. Vitest runs the TypeScript sources: nothing is built first.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '../../../..')
const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  if (at === -1) return undefined
  const [value] = args.splice(at, 2).slice(1)
  if (value === undefined || !/^-?\d+$/.test(value)) throw new Error(`${name} takes a whole number`)
  return value
}
const runs = option('--runs') ?? '1000'
const seed = option('--seed')
const summaryFile = join(tmpdir(), `openness-fuzz-${process.pid}.json`)

const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
)
const test = relative(root, join(here, 'hostile-requests.test.ts'))
const { status } = spawnSync(process.execPath, [vitest, 'run', test, ...args], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_RUNS: runs,
    FUZZ_SUMMARY: summaryFile,
    ...(seed !== undefined && { FUZZ_SEED: seed }),
  },
})
if (!existsSync(summaryFile)) {
  console.error('fuzz: the test wrote no summary')
  process.exit(status ?? 1)
}
const summary = JSON.parse(readFileSync(summaryFile, 'utf8'))
rmSync(summaryFile)
printSummary(summary)
process.exit(status ?? 1)

function printSummary({ runsPerOperation, seconds, operations }) {
  const entries = Object.entries(operations)
  const statuses = {}
  let inputs = 0
  for (const [, operation] of entries) {
    inputs += operation.inputs
    for (const [code, count] of Object.entries(operation.statuses))
      statuses[code] = (statuses[code] ?? 0) + count
  }
  const failed = entries.filter(([, operation]) => operation.failure !== undefined)
  const shown = Object.entries(statuses)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ')
  console.log('\nFuzz summary')
  console.log(`  ${entries.length} operations, ${runsPerOperation} runs each, ${seconds} s`)
  console.log(`  ${inputs} inputs tried; statuses ${shown}`)
  console.log(`  ${failed.length} operations failed`)
  for (const [label, operation] of failed)
    console.log(`\n  ${label}\n    ${operation.failure.split('\n').slice(0, 12).join('\n    ')}`)
}
