/**
 * The scenario library (scenarios/*.yaml, docs/scenarios.md "The library"): every file runs and passes on a
 * fresh service, is named after its file, and is deterministic: the same file gives the same timeline.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { SCENARIO_LIBRARY_DIR } from '../../src/assembly/config.js'
import type { ScenarioResult } from '../../src/control/scenarios/scenario-result.js'
import { type ScenarioService, startScenarioService } from './scenario-fixture.js'

const files = readdirSync(SCENARIO_LIBRARY_DIR).filter((file) => file.endsWith('.yaml'))
const textOf = (file: string) => readFileSync(join(SCENARIO_LIBRARY_DIR, file), 'utf8')

let fixture: ScenarioService | undefined
afterEach(async () => {
  await fixture?.close()
  fixture = undefined
})

async function run(file: string, on?: ScenarioService): Promise<ScenarioResult> {
  if (on === undefined) fixture = await startScenarioService()
  const service = on ?? (fixture as ScenarioService)
  const response = await service.run(textOf(file))
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as ScenarioResult
}

/** What must be the same at every run: everything but the payloads as delivered and the callRefs. */
function deterministic(result: ScenarioResult) {
  const { events: _, calls, ...rest } = result
  return { ...rest, callNames: Object.keys(calls) }
}

describe('the scenario library', () => {
  it('has the common CTI cases', () => {
    expect(files.map((file) => file.replace(/\.yaml$/, ''))).toEqual(
      expect.arrayContaining([
        'click-to-call',
        'incoming-call-screen-pop',
        'consultation-transfer',
        'conference',
        'missed-call',
        'voice-mail',
      ]),
    )
  })

  describe.each(files)('%s', (file) => {
    it('is named after its file, described, and expects something of every user it observes', () => {
      const document = parse(textOf(file)) as {
        name: string
        description?: string
        expect?: Record<string, unknown>
      }
      expect(document.name).toBe(file.replace(/\.yaml$/, ''))
      expect(document.description?.length).toBeGreaterThan(80)
      expect(Object.keys(document.expect ?? {})).toContain('events')
    })

    it('passes on a fresh service', async () => {
      const result = await run(file)

      expect(result.failures).toEqual([])
      expect(result.passed).toBe(true)
      expect(
        result.steps.every((step) => step.outcome === 'done' || step.outcome === 'skipped'),
      ).toBe(true)
      expect(result.expectations.length).toBeGreaterThan(0)
      expect(result.expectations.every((expectation) => expectation.passed)).toBe(true)
      // Names, never callRefs, in the timeline.
      for (const callRef of Object.values(result.calls))
        expect(JSON.stringify(result.timeline)).not.toContain(callRef)
    })
  })

  it('gives the same timeline on two services, and again on the same service', async () => {
    for (const file of ['missed-call.yaml', 'consultation-transfer.yaml']) {
      const first = await run(file)
      const other = await startScenarioService()
      try {
        const second = await run(file, other)
        const third = await run(file, other)

        expect(deterministic(second)).toEqual(deterministic(first))
        expect(deterministic(third)).toEqual(deterministic(first))
        expect(second.calls['customer'] ?? second.calls['c1']).not.toBe(
          third.calls['customer'] ?? third.calls['c1'],
        )
      } finally {
        await other.close()
        await fixture?.close()
        fixture = undefined
      }
    }
  })
})
