/**
 * Every shell snippet of README.md runs, so that none can rot (issue 16): each block, in the README's order,
 * with bash, in a checkout of its own, against the service `npm start` started there from the built bundle;
 * each must end with exit code 0, print no error record, and print what the README says it prints. Twice: on
 * the README's ports (when something else holds one, that run is skipped, saying so), and on other ports, where
 * the test does what the README tells its reader (HTTP_PORT, HTTPS_PORT, CONTROL_PORT for npm start; the
 * ports in the URLs; CONTROL_URL as the Control plane block sets it).
 *
 * What to do with each block is in snippet-plans.ts: a block it does not list fails the first test below.
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { README, type ReadmeBlock, readmeBlocks } from './readme-blocks.js'
import { buildIfStale, takenPorts } from './readme-checkout.js'
import { otherPorts, ReadmeRun, readmePorts } from './readme-run.js'
import { FILL_INS, PLANS, PORTS, type RunPlan, SKIPPED, withPorts } from './snippet-plans.js'
import { missingInOrder, RunningBlock, runBlock } from './snippet-shell.js'

const blocks = readmeBlocks()

beforeAll(() => buildIfStale(), 300_000)

describe('README.md shell blocks', () => {
  it('are each run or skipped in snippet-plans.ts, under a key of their own, and each entry names one', () => {
    const keys = blocks.map((block) => block.key)
    const unlisted = blocks
      .filter((block) => PLANS[block.key] === undefined && SKIPPED[block.key] === undefined)
      .map((block) => `README.md line ${block.line} (${block.heading}): ${block.key}`)
    expect(unlisted, 'blocks neither run nor skipped: add each to PLANS or SKIPPED').toEqual([])
    expect(
      keys.filter((key, index) => keys.indexOf(key) !== index),
      'two blocks, one key',
    ).toEqual([])
    const entries = [...Object.keys(PLANS), ...Object.keys(SKIPPED)]
    expect(
      entries.filter((key) => !keys.includes(key)),
      'entries naming no block',
    ).toEqual([])
    expect(Object.keys(PLANS).filter((key) => SKIPPED[key] !== undefined)).toEqual([])
    const readme = readFileSync(README, 'utf8')
    expect(FILL_INS.filter((fill) => !readme.includes(fill.text)).map((fill) => fill.text)).toEqual(
      [],
    )
  })
})

/**
 * The runs: on the README's ports (skipped when one is in use), and on free ones, chosen as the run starts so
 * that nothing else takes them meanwhile.
 */
const servicePorts = Object.values(PORTS.service)
const inUse = await takenPorts(servicePorts)
const runs = [
  {
    name: `on the README's ports (${servicePorts.join(', ')})`,
    ports: async () => readmePorts(),
    other: false,
    skip: inUse.length > 0 ? `${inUse.join(', ')} in use` : undefined,
  },
  { name: 'on other ports', ports: otherPorts, other: true, skip: undefined },
]

for (const { name, ports, other, skip: runSkip } of runs) {
  // The two runs go side by side (each its own checkout, ports, service and servers' schema); the blocks of
  // one run follow each other.
  describe
    .skipIf(runSkip !== undefined)
    .concurrent(`README.md snippets ${name}${runSkip ? ` (skipped: ${runSkip})` : ''}`, () => {
      let run: ReadmeRun | undefined
      /** Blocks still running (a channel) until the next block ended. */
      const runningOn: {
        block: ReadmeBlock
        running: RunningBlock
        thenPrints: readonly string[]
      }[] = []

      /** Why the run on the README's ports cannot go on: one of them was taken since it was found free. */
      let takenSince: string | undefined
      beforeAll(async () => {
        try {
          run = await ReadmeRun.start(await ports())
        } catch (error) {
          if (other || !String(error).includes('EADDRINUSE')) throw error
          takenSince = `a port of the README was taken since: ${String(error).slice(0, 2000)}`
          return
        }
        return async () => {
          for (const { running } of runningOn.splice(0)) await running.end()
          await run?.close()
        }
      }, 180_000)

      for (const block of blocks) {
        const plan = PLANS[block.key]
        const label = `line ${block.line} (${block.heading}): ${block.key}`
        if (plan === undefined) continue
        const skip = skipReason(plan, other)
        if (skip !== undefined) {
          it.skip(`${label} (skipped: ${skip})`, () => {})
          continue
        }
        it.sequential(label, async (test) => {
          if (takenSince !== undefined) test.skip(takenSince)
          if (run === undefined) throw new Error('the service did not start')
          await runPlanned(run, block, plan, runningOn)
        }, 150_000)
      }
    })
}

/** Why a block the test runs is skipped in this run, if it is. */
function skipReason(plan: RunPlan, other: boolean): string | undefined {
  if (!other && plan.onOtherPortsOnly !== undefined)
    return `run on other ports only: ${plan.onOtherPortsOnly}`
  return plan.needs?.()
}

/** Runs one block as its plan says, then checks what the blocks still running beside it printed meanwhile. */
async function runPlanned(
  run: ReadmeRun,
  block: ReadmeBlock,
  plan: RunPlan,
  runningOn: { block: ReadmeBlock; running: RunningBlock; thenPrints: readonly string[] }[],
): Promise<void> {
  const text = run.prepared(block)
  if (plan.runsOn) {
    const running = new RunningBlock(text, run.place)
    runningOn.push({ block, running, thenPrints: plan.runsOn.thenPrints })
    const printed = await running.printedInOrder(plan.prints, 30_000)
    expect(printed, `it never printed ${plan.prints.join(', ')}\n${running.printed()}`).toBe(true)
    expect(running.ended, `it ended\n${running.printed()}`).toBe(false)
    return
  }
  const ran = await runBlock(text, run.place, {
    guardMs: 120_000,
    until: plan.startsNodes ? 'exited' : 'closed',
  })
  try {
    expect(ran.timedOut, `it did not end\n${ran.block.printed()}`).toBe(false)
    expect(ran.end.code, `its exit code\n${ran.block.printed()}`).toBe(0)
    expect(ran.block.stdout, 'it printed an error record').not.toContain('"httpStatus":')
    const missing = missingInOrder(ran.block.stdout, plan.prints)
    expect(
      missing,
      `it never printed this (after what came before it)\n${ran.block.printed()}`,
    ).toBe(undefined)
    if (plan.startsNodes) {
      for (const url of plan.startsNodes.answer.map((url) => withPorts(url, run.ports))) {
        const body = await answer(url, 90_000, ran.block)
        expect(body, `${url} answered`).toContain(plan.startsNodes.saying)
      }
    }
  } finally {
    if (plan.startsNodes) await ran.block.end()
  }
  for (const { block: beside, running, thenPrints } of runningOn.splice(0)) {
    const printed = await running.printedInOrder(thenPrints, 30_000)
    await running.end()
    expect(
      printed,
      `line ${beside.line} (${beside.key}), running beside this block, never printed ${thenPrints.join(', ')}\n${running.printed()}`,
    ).toBe(true)
  }
}

/** The body of `url`'s first 200 answer; throws after `guardMs`, naming what the block printed. */
async function answer(url: string, guardMs: number, block: RunningBlock): Promise<string> {
  const deadline = Date.now() + guardMs
  for (;;) {
    try {
      const response = await fetch(url)
      if (response.status === 200) return await response.text()
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} never answered 200\n${block.printed()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
