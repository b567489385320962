/** The command line's scenario commands against a control plane with the scenario routes, over real sockets. */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { SCENARIO_LIBRARY_DIR } from '../../src/assembly/config.js'
import { type CliRun, runCli } from './control-fixture.js'
import { type ScenarioService, startScenarioService } from './scenario-fixture.js'

let fixture: ScenarioService
let url: string

beforeEach(async () => {
  fixture = await startScenarioService()
  await fixture.control.listen({ host: '127.0.0.1', port: 0 })
  url = `http://127.0.0.1:${(fixture.control.server.address() as AddressInfo).port}`
})
afterEach(() => fixture.close())

function cli(argv: string[], stdin = ''): Promise<CliRun> {
  return runCli(url, argv, { stdin })
}

const MISSED_CALL = join(SCENARIO_LIBRARY_DIR, 'missed-call.yaml')

describe('openness-control scenarios', () => {
  it('lists them in its help', async () => {
    const { out } = await cli(['--help'])
    for (const command of [
      'scenarios list',
      'scenarios show <name>',
      'scenarios run <file|-|name>',
      '--reset',
    ])
      expect(out).toContain(command)
  })

  it('lists the library and shows a file of it as it is', async () => {
    const listed = await cli(['scenarios', 'list'])
    expect(listed.code, listed.err).toBe(0)
    const { scenarios } = parse(listed.out) as { scenarios: { name: string }[] }
    expect(scenarios.map((scenario) => scenario.name)).toContain('voice-mail')

    const shown = await cli(['scenarios', 'show', 'missed-call'])
    expect(shown).toEqual({ code: 0, out: readFileSync(MISSED_CALL, 'utf8'), err: '' })
    expect(await cli(['scenarios', 'show', 'nothing'])).toEqual({
      code: 1,
      out: '',
      err: "No scenario 'nothing' in the library (GET /control/v1/scenarios lists them)\n",
    })
  })

  it('runs a file and prints its timeline and its verdict, exit code 0', async () => {
    const { code, out, err } = await cli(['scenarios', 'run', MISSED_CALL])

    expect(err).toBe('')
    expect(code).toBe(0)
    expect(out.split('\n')).toEqual([
      "Scenario missed-call: An outside caller dials bob's public number, +33155661002, and bob does not " +
        "answer; after 12 s the caller gives up, unless bob answered meanwhile. Bob's application sees the call " +
        'come and go, a record of it in his communication log (CALLEE, not answered, ABANDONED; the caller is ' +
        'the CALLER) and his event summary count one missed call.',
      '',
      "      0s  world     bob's communication log and mailbox emptied",
      '      0s  operator  calls make from=+33612345678 to=+33155661002 call=c1 → 201 c1',
      '      0s  → bob     OnCallCreated c1 RINGING_INCOMING with +33612345678',
      '     12s  operator  outside hangup number=+33612345678 → 204',
      '     12s  → bob     OnCallModified c1 RELEASING removed +33612345678',
      '     12s  → bob     OnCallRemoved c1',
      '     12s  → bob     OnComRecordCreated c1 CALLEE not answered ABANDONED',
      '     12s  → bob     OnEventSummaryUpdated missedCallsNb 1',
      '',
      'Expectations:',
      expect.stringMatching(/^ {2}✓ expect\.events\.bob: 4 events in order: /),
      '  ✓ expect.comlog.bob: 1 record: c1 CALLEE not answered ABANDONED',
      expect.stringMatching(/^ {2}✓ expect\.eventSummary\.bob: \{"missedCallsNb":1,/),
      '',
      "PASSED: 2 steps, 3 expectations met, 12s of the service's clock",
      '',
    ])
  })

  it('runs a scenario of the library by name, and the whole result with --json', async () => {
    const named = await cli(['scenarios', 'run', 'voice-mail'])
    expect(named.code, named.out).toBe(0)
    expect(named.out).toContain('→ bob     OnMessageAdded from +33612345678 15s')

    const json = await cli(['--json', 'scenarios', 'run', 'missed-call'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.out)).toMatchObject({ name: 'missed-call', passed: true, failures: [] })
  })

  it('exits 1 for a scenario that fails, saying why, from standard input', async () => {
    const broken = readFileSync(MISSED_CALL, 'utf8').replace(
      'missedCallsNb: 1, voiceMessagesNb: 0',
      'missedCallsNb: 3',
    )
    const { code, out } = await cli(['scenarios', 'run', '-'], broken)

    expect(code).toBe(1)
    expect(out).toContain('  ✗ expect.eventSummary.bob: missedCallsNb: expected 3, got 1')
    expect(out.trimEnd().split('\n').slice(-2)).toEqual([
      'FAILED: 2 steps, 2 of 3 expectations met',
      '  expect.eventSummary.bob: missedCallsNb: expected 3, got 1',
    ])
  })

  it('exits 1 with the problems of a file that cannot run, by line', async () => {
    const { code, out, err } = await cli(
      ['scenarios', 'run', '-'],
      'name: x\nscript:\n  - do: calls\n',
    )

    expect({ code, out }).toEqual({ code: 1, out: '' })
    expect(err).toBe(
      'The scenario has 1 problem:\n  line 3: script[0].do: calls is not an action; did you mean calls make?\n',
    )
  })

  it('exits 1 when it cannot read the file, or the service cannot reset', async () => {
    const missing = await cli(['scenarios', 'run', './no/such.yaml'])
    expect(missing.code).toBe(1)
    expect(missing.err).toMatch(/^openness-control: cannot read \.\/no\/such\.yaml: ENOENT/)

    const reset = await cli(['scenarios', 'run', '--reset', 'missed-call'])
    expect(reset.code).toBe(1)
    expect(reset.err).toMatch(/^reset: this service cannot reset/)
  })
})
