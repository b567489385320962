/**
 * The control plane's scenario routes (docs/scenarios.md): a file's problems named by path and line, a broken
 * expectation told with what came instead, steps that fail, conditions, the world, reset, the library routes.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SCENARIO_LIBRARY_DIR } from '../../src/assembly/config.js'
import { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import type { ScenarioResult } from '../../src/control/scenarios/scenario-result.js'
import { expectRestError } from '../support/assertions.js'
import { AUTH, startControlService } from './control-fixture.js'
import { type ScenarioService, startScenarioService } from './scenario-fixture.js'

let fixture: ScenarioService

beforeEach(async () => {
  fixture = await startScenarioService()
})
afterEach(() => fixture.close())

async function passedOrNot(yaml: string, query?: string): Promise<ScenarioResult> {
  const response = await fixture.run(yaml, query)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as ScenarioResult
}

/** A call from outside to bob, who never answers: the ringing timeout ends it at 30 s. */
const MISSED = `
name: missed
script:
  - do: calls make
    from: "+33612345678"
    to: "1002"
    call: c1
end: 31s
`

describe('POST /control/v1/scenarios/run', () => {
  it('runs a YAML scenario and answers its timeline, its steps and its expectations', async () => {
    const result = await passedOrNot(`${MISSED}
expect:
  events:
    bob:
      - OnCallCreated: { callRef: c1 }
      - OnCallRemoved: { callRef: c1, cause: NOT_ANSWERED }
        at: 30s
`)

    expect(result).toMatchObject({
      name: 'missed',
      passed: true,
      duration: 31,
      failures: [],
      steps: [{ step: 0, at: 0, do: 'calls make', outcome: 'done', status: 201 }],
      expectations: [{ expectation: 'expect.events.bob', passed: true }],
    })
    expect(result.timeline).toEqual([
      { at: 0, kind: 'step', text: 'calls make from=+33612345678 to=1002 call=c1 → 201 c1' },
      {
        at: 0,
        kind: 'event',
        user: 'bob',
        text: 'OnCallCreated c1 RINGING_INCOMING with +33612345678',
      },
      { at: 30, kind: 'event', user: 'bob', text: 'OnCallRemoved c1 cause NOT_ANSWERED' },
      {
        at: 30,
        kind: 'event',
        user: 'bob',
        text: 'OnComRecordCreated c1 CALLEE not answered ABANDONED',
      },
      { at: 30, kind: 'event', user: 'bob', text: 'OnEventSummaryUpdated missedCallsNb 1' },
    ])
    expect(result.calls).toEqual({ c1: expect.stringMatching(/^[0-9a-f]{16}$/) })
    expect(
      result.events['bob']?.map(({ at, event }) => [
        at,
        (event as { eventName: string }).eventName,
      ]),
    ).toEqual([
      [0, 'OnCallCreated'],
      [30, 'OnCallRemoved'],
      [30, 'OnComRecordCreated'],
      [30, 'OnEventSummaryUpdated'],
    ])
  })

  it('takes the scenario as JSON, and as YAML sent as text/plain', async () => {
    const response = await fixture.control.inject({
      method: 'POST',
      url: '/control/v1/scenarios/run',
      headers: AUTH,
      payload: {
        name: 'json',
        script: [{ do: 'calls make', from: '+33612345678', to: '1002', call: 'c1' }],
        expect: { events: { bob: ['OnCallCreated'] } },
      },
    })

    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ name: 'json', passed: true })

    const plain = await fixture.control.inject({
      method: 'POST',
      url: '/control/v1/scenarios/run',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      payload: MISSED,
    })
    expect(plain.statusCode, plain.body).toBe(200)
    expect(plain.json()).toMatchObject({ name: 'missed', passed: true })
  })

  it('fails a broken expectation, saying what came instead', async () => {
    const result = await passedOrNot(`${MISSED}
expect:
  events:
    bob:
      - OnCallCreated: { callRef: c1 }
      - OnCallModified: { callRef: c1, callData: { state: ACTIVE } }
      - OnCallRemoved: { cause: NOT_ANSWERED }
        at: 20s
  eventSummary:
    bob: { missedCallsNb: 2 }
`)

    expect(result.passed).toBe(false)
    expect(result.expectations).toEqual([
      {
        expectation: 'expect.events.bob',
        passed: false,
        detail:
          '[1] OnCallModified {"callRef":"c1","callData":{"state":"ACTIVE"}} not received after OnCallCreated c1 ' +
          'RINGING_INCOMING with +33612345678 at 0s; bob received no OnCallModified after it, but: ' +
          'OnCallRemoved c1 cause NOT_ANSWERED at 30s; OnComRecordCreated c1 CALLEE not answered ABANDONED at 30s; ' +
          'OnEventSummaryUpdated missedCallsNb 1 at 30s',
      },
      {
        expectation: 'expect.eventSummary.bob',
        passed: false,
        detail: 'missedCallsNb: expected 2, got 1',
      },
    ])
    expect(result.failures).toEqual(
      result.expectations.map(({ expectation, detail }) => `${expectation}: ${detail}`),
    )
  })

  it('names the closest event and its differences, the time included', async () => {
    const result = await passedOrNot(`${MISSED}
expect:
  events:
    bob:
      - OnCallRemoved: { callRef: c1, cause: BUSY }
        at: 20s
`)

    expect(result.expectations[0]?.detail).toBe(
      '[0] OnCallRemoved {"callRef":"c1","cause":"BUSY"} not received; the closest, OnCallRemoved c1 ' +
        'cause NOT_ANSWERED at 30s: at: expected 20s, got 30s; cause: expected BUSY, got NOT_ANSWERED',
    )
  })

  it("checks the records written in a user's log during the run, exactly", async () => {
    const result = await passedOrNot(`${MISSED}
expect:
  comlog:
    bob:
      - comRef: c1
        participants: [{ role: CALLEE, answered: true }]
`)

    expect(result.expectations).toEqual([
      {
        expectation: 'expect.comlog.bob',
        passed: false,
        detail: '[0]: participants: expected a list of 1 item, got a list of 2 items',
      },
    ])
  })

  it('stops the script at a step that fails, and runs no later step', async () => {
    const result = await passedOrNot(`
name: refused
script:
  - do: calls make
    from: "+33612345678"
    to: "1002"
    call: c1
  - at: 2s
    as: alice
    do: answer
    call: c1
  - at: 4s
    do: devices answer
    device: "1002"
`)

    expect(result.passed).toBe(false)
    expect(result.steps.map((step) => [step.do, step.outcome, step.status])).toEqual([
      ['calls make', 'done', 201],
      ['answer', 'failed', 403],
      ['devices answer', 'not run', undefined],
    ])
    expect(result.failures).toEqual([
      expect.stringMatching(/^script\[1\] \(answer\): answered 403 NOT_ALLOWED: .*not a call of/),
    ])
    expect(result.duration).toBe(2)
  })

  it("accepts a refusal a step expects, and checks the answer's body", async () => {
    const result = await passedOrNot(`
name: expected-refusal
script:
  - do: devices offhook
    device: "1002"
    expect: { status: 403, body: { type: NOT_EXPECTED } }
  - do: devices answer
    device: "1002"
    expect: { status: 403, body: { type: NOT_FOUND } }
`)

    expect(result.steps.map((step) => step.outcome)).toEqual(['done', 'failed'])
    expect(result.failures).toEqual([
      'script[1] (devices answer): body type: expected NOT_FOUND, got NOT_EXPECTED',
    ])
  })

  it('runs or skips a step by the state of a call, and answers after N rings by the world', async () => {
    const result = await passedOrNot(`
name: conditions
world:
  devices:
    "1001": { answerAfterRings: 2 }
script:
  - do: calls make
    from: "+33612345678"
    to: "1001"
    call: answered
  - do: calls make
    from: "+33698765432"
    to: "1002"
    call: unanswered
  - at: 12s
    unless: { call: answered, state: CONNECTED }
    do: outside hangup
    number: "+33612345678"
  - if: { call: unanswered, party: bob, state: RINGING_INCOMING }
    do: outside hangup
    number: "+33698765432"
expect:
  events:
    alice:
      - OnCallModified: { callRef: answered, callData: { state: ACTIVE } }
        at: 10s
    bob:
      - OnCallRemoved: { callRef: unanswered }
        at: 12s
`)

    expect(result.failures).toEqual([])
    expect(result.steps.map((step) => step.outcome)).toEqual(['done', 'done', 'skipped', 'done'])
    expect(result.timeline).toContainEqual({
      at: 10,
      kind: 'behaviour',
      text: 'device 1001 answers answered (after 2 rings)',
    })
    expect(result.timeline).toContainEqual({
      at: 12,
      kind: 'step',
      text: 'outside hangup number=+33612345678: skipped, unless answered CONNECTED (it is)',
    })
  })

  it("plays faults as an application meets them, and any request of the API with a call's name in its path", async () => {
    const result = await passedOrNot(`
name: switch-over
script:
  - as: alice
    do: makeCall
    body: { callee: "1002" }
    call: c1
  - at: 1s
    as: alice
    do: request
    method: GET
    path: /telephony/calls/{c1}
    expect: { status: 200, body: { callRef: c1, callData: { state: RINGING_OUTGOING } } }
  - at: 2s
    do: faults switch-over
    seconds: 5
  - at: 3s
    as: alice
    do: request
    method: GET
    path: /telephony/calls/{c1}
    expect: { status: 503, body: { type: NOT_READY } }
  # Ready again at 7 s, but the switch-over closed alice's session: her application is told so.
  - at: 8s
    as: alice
    do: release
    call: c1
    expect: { status: 403, body: { type: INVALID_SESSION } }
  - do: devices hangup
    device: "1001"
expect:
  events:
    bob:
      - OnCallCreated: { callRef: c1 }
        at: 0s
      - OnCallRemoved: { callRef: c1 }
        at: 8s
`)

    expect(result.failures).toEqual([])
    expect(result.steps.map((step) => [step.at, step.do, step.status])).toEqual([
      [0, 'makeCall', 201],
      [1, 'request', 200],
      [2, 'faults switch-over', 200],
      [3, 'request', 503],
      [8, 'release', 403],
      [8, 'devices hangup', 204],
    ])
  })

  it('lets outside parties answer, be busy or reject when called, by the world', async () => {
    const result = await passedOrNot(`
name: outside
world:
  outside:
    - { number: "0155660101", behaviour: ANSWER, afterSeconds: 2, hangUpAfterSeconds: 5 }
    - { prefix: "01556602", behaviour: BUSY }
    - { number: "0155660301", behaviour: REJECT, afterSeconds: 1 }
script:
  - as: alice
    do: makeCall
    body: { callee: "00155660101" }
    call: answers
  - as: bob
    do: makeCall
    body: { callee: "00155660299" }
    call: busy
  - as: carol
    do: makeCall
    body: { callee: "00155660301" }
    call: rejects
end: 10s
expect:
  events:
    alice:
      - OnCallModified: { callRef: answers, callData: { state: ACTIVE } }
        at: 2s
      - OnCallRemoved: { callRef: answers }
        at: 7s
    bob:
      - OnCallRemoved: { callRef: busy, cause: BUSY }
        at: 0s
    carol:
      - OnCallRemoved: { callRef: rejects, cause: DESTINATION_NOT_OBTAINABLE }
        at: 1s
`)

    expect(result.failures).toEqual([])
    expect(result.passed).toBe(true)
  })

  it('arranges the world through the control plane, and stops before the script when it is refused', async () => {
    const result = await passedOrNot(`
name: world
world:
  users:
    - { loginName: bob, department: Support }
  routing:
    zoe: { dndState: { activate: true } }
  pickupGroups:
    front: [alice, nobody]
script:
  - do: calls make
    from: "+33612345678"
    to: "1002"
`)

    expect(result.passed).toBe(false)
    expect(result.failures).toEqual([
      expect.stringMatching(/^world\.pickupGroups\.front: BAD_PARAMETER: .*nobody/),
      expect.stringMatching(/^world\.routing\.zoe: NOT_FOUND: /),
    ])
    expect(result.steps).toEqual([{ step: 0, at: 0, do: 'calls make', outcome: 'not run' }])
    expect(result.timeline).toEqual([{ at: 0, kind: 'world', text: 'user bob changed' }])
    const bob = await fixture.control.inject({
      method: 'GET',
      url: '/control/v1/users/bob',
      headers: AUTH,
    })
    expect(bob.json()).toMatchObject({ department: 'Support' })
  })

  it("defines the world's contact center, and names its problems by their path", async () => {
    const refused = await passedOrNot(`
name: contact-center
world:
  contactCenter:
    pilots: [{ number: "3000", name: Sales, rules: [{ ruleNumber: 1, name: Day, queue: "3999" }] }]
script:
  - do: calls make
    from: "+33612345678"
    to: "1002"
`)
    expect(refused.failures).toEqual([
      expect.stringMatching(
        /^world\.contactCenter: BAD_PARAMETER: .*pilots\[0\]\.rules\[0\]\.queue: no queue '3999'/,
      ),
    ])
    const defined = await passedOrNot(`
name: contact-center
world:
  contactCenter:
    pilots: [{ number: "3000", name: Sales, rules: [{ ruleNumber: 1, name: Day, queue: "3100" }] }]
    queues: [{ number: "3100", name: Sales queue, processingGroup: "3200" }]
    processingGroups: [{ number: "3200", name: Sales agents }]
    operators: [{ loginName: bob, type: AGENT, processingGroups: ["3200"] }]
script:
  - as: bob
    do: request
    method: POST
    path: /acd/agent/logon
    body: { proAcdDeviceNumber: "1002" }
  - as: bob
    do: request
    method: POST
    path: /acd/agent/withdraw
    body: { reasonIndex: 0 }
    expect: { status: 400 }
expect:
  events:
    bob:
      - OnAgentStateChanged: { state: { subState: READY } }
`)
    expect(defined.failures).toEqual([])
    expect(defined.timeline).toContainEqual({
      at: 0,
      kind: 'world',
      text: 'contact center defined',
    })
    expect(defined.timeline).toContainEqual(
      expect.objectContaining({ kind: 'event', user: 'bob', text: 'OnAgentStateChanged READY' }),
    )
  })

  it('refuses, before anything, the users the file names that the directory does not have', async () => {
    const result = await passedOrNot(`
name: users
script:
  - as: zoe
    do: makeCall
    body: { callee: "1002" }
expect:
  events:
    bobb: [OnCallCreated]
`)

    expect(result.failures).toEqual([
      'script[0].as: zoe is not a user of the directory',
      'expect.events.bobb: bobb is not a user of the directory',
    ])
    expect(result.timeline).toEqual([])
  })

  it('names every problem of a file by its path and line, at once', async () => {
    const response = await fixture.run(`name: broken
script:
  - at: 5s
    do: calls mak
    from: "+33612345678"
  - at: 2s
    do: answer
    call: c9
  - after: 3 seconds
    do: devices answer
    device: 1002
    as: bob
  - do: makeCall
    as: alice
    body: { callee: "1002" }
    call: c2
    if: { call: c2, state: ACTIVE }
expect:
  events:
    bob:
      - OnCallCreate: { callRef: c3 }
`)

    expect(String(expectRestError(response, 400, 'BAD_PARAMETER').helpMessage).split('\n')).toEqual(
      [
        'The scenario has 11 problems:',
        '  line 4: script[0].do: calls mak is not an action; did you mean calls make?',
        '  line 6: script[1].at: is before the previous step (5s): steps run in time order',
        // A missing field is told at the line of its step.
        "  line 6: script[1].as: is required: answer is done by a user's application (as: <login name>)",
        '  line 8: script[1].call: c9 is not the name of a call placed by an earlier step (none is named yet)',
        '  line 9: script[2].after: must be a duration such as 3s, 500ms, 1.5s, 2m, or a number of seconds',
        '  line 11: script[2].device: must be a string; write it in quotes: "1002"',
        "  line 12: script[2].as: devices answer is the control plane's (the operator's): no user acts",
        '  line 17: script[3].if.call: c2 is not the name of a call placed by an earlier step (none is named yet)',
        '  line 17: script[3].if.party: is required: ACTIVE is the state of one party (or give RINGING, CONNECTED, ENDED)',
        '  line 21: expect.events.bob[0].OnCallCreate: OnCallCreate is not an event of the API; did you mean OnCallCreated?',
        '  line 21: expect.events.bob[0].OnCallCreate.callRef: c3 is not the name of a call of the script (callRefs differ from run to run: name the call where it is placed, call: <name>)',
      ],
    )
  })

  it('tells a YAML syntax error and an empty body', async () => {
    expect(
      expectRestError(await fixture.run('name: x\nscript: [\n'), 400, 'BAD_PARAMETER').helpMessage,
    ).toMatch(/^The scenario has 1 problem:\n {2}line \d+, column \d+: YAML syntax: /)
    expectRestError(await fixture.run(''), 400, 'BAD_PARAMETER', /^body: the scenario is required/)
  })

  it('names the problems of a JSON scenario by path', async () => {
    const response = await fixture.control.inject({
      method: 'POST',
      url: '/control/v1/scenarios/run',
      headers: AUTH,
      payload: { name: 'json', script: [{ do: 'faults clear', at: -1, colour: 'red' }], end: '1h' },
    })

    expect(String(expectRestError(response, 400, 'BAD_PARAMETER').helpMessage).split('\n')).toEqual(
      [
        'The scenario has 3 problems:',
        '  script[0].at: must be at least 0',
        '  end: must be a duration such as 3s, 500ms, 1.5s, 2m, or a number of seconds',
        '  script[0].colour: is not a field of faults clear (it has none of its own; every step may have at, after, do, as, call, if, unless, expect)',
      ],
    )
  })

  it('refuses reset on a service without one, and resets first on a service with one', async () => {
    expectRestError(
      await fixture.run(MISSED, '?reset=true'),
      400,
      'NOT_SUPPORTED',
      /^reset: this service cannot reset/,
    )
    expectRestError(await fixture.run(`reset: true\n${MISSED}`), 400, 'NOT_SUPPORTED')
    expectRestError(
      await fixture.run(MISSED, '?reset=maybe'),
      400,
      'BAD_PARAMETER',
      /reset: must be true or false/,
    )

    const reset = vi.fn(async () => undefined)
    const resettable = await startScenarioService({ reset })
    try {
      const response = await resettable.run(MISSED, '?reset=true')
      expect(response.statusCode, response.body).toBe(200)
      expect(reset).toHaveBeenCalledTimes(1)
      expect((await resettable.run(`reset: true\n${MISSED}`)).statusCode).toBe(200)
      expect(reset).toHaveBeenCalledTimes(2)
      expect((await resettable.run(MISSED)).statusCode).toBe(200)
      expect(reset).toHaveBeenCalledTimes(2)
    } finally {
      await resettable.close()
    }
  })

  it("holds the running service's clock and moves it itself: exact times, no waiting", async () => {
    const clock = new AdjustableClock()
    const running = await startScenarioService({ clock })
    try {
      const started = Date.now()
      const response = await running.run(
        readFileSync(join(SCENARIO_LIBRARY_DIR, 'voice-mail.yaml'), 'utf8'),
      )
      const result = response.json() as ScenarioResult

      expect(result.failures).toEqual([])
      expect(result.timeline.map((entry) => entry.at)).toEqual(
        (
          await passedOrNot(readFileSync(join(SCENARIO_LIBRARY_DIR, 'voice-mail.yaml'), 'utf8'))
        ).timeline.map((entry) => entry.at),
      )
      // The run moved the clock by exactly its 50 s, whatever time its own work took, and waited for none.
      expect(clock.offsetMs).toBe(50_000)
      expect(Date.now() - started).toBeLessThan(10_000)
      // Let go, the clock follows the system's time again.
      const before = clock.now()
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(clock.now()).toBeGreaterThan(before)
    } finally {
      await running.close()
    }
  })

  it('runs one scenario at a time', async () => {
    const [first, second] = await Promise.all([fixture.run(MISSED), fixture.run(MISSED)])

    const results = [first.json() as ScenarioResult, second.json() as ScenarioResult]
    expect(results.map((result) => [result.passed, result.duration])).toEqual([
      [true, 31],
      [true, 31],
    ])
    expect(results[1]?.timeline).toEqual(results[0]?.timeline)
  })
})

describe('the library routes', () => {
  it('lists the library with each description, and shows a file', async () => {
    const list = await fixture.control.inject({
      method: 'GET',
      url: '/control/v1/scenarios',
      headers: AUTH,
    })
    expect(list.statusCode).toBe(200)
    const { scenarios } = list.json() as { scenarios: { name: string; description?: string }[] }
    expect(scenarios.map((scenario) => scenario.name)).toContain('missed-call')
    expect(scenarios.find((scenario) => scenario.name === 'missed-call')?.description).toMatch(
      /^An outside caller dials bob's public number/,
    )

    const shown = await fixture.control.inject({
      method: 'GET',
      url: '/control/v1/scenarios/missed-call',
      headers: AUTH,
    })
    expect(shown.statusCode).toBe(200)
    expect(shown.headers['content-type']).toMatch(/^application\/yaml/)
    expect(shown.body).toMatch(/^# A missed call/)
    expectRestError(
      await fixture.control.inject({
        method: 'GET',
        url: '/control/v1/scenarios/nothing',
        headers: AUTH,
      }),
      404,
      'NOT_FOUND',
      /No scenario 'nothing' in the library/,
    )
  })

  it('runs a scenario of the library by name', async () => {
    const response = await fixture.control.inject({
      method: 'POST',
      url: '/control/v1/scenarios/missed-call/run',
      headers: AUTH,
    })

    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ name: 'missed-call', passed: true })
  })

  it('lists a file of the library that cannot run with its problems', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const folder = await mkdtemp(join(tmpdir(), 'scenarios-'))
    await writeFile(join(folder, 'bad.yaml'), 'name: bad\nscript: []\n')
    const other = await startScenarioService({ library: folder })
    try {
      const list = await other.control.inject({
        method: 'GET',
        url: '/control/v1/scenarios',
        headers: AUTH,
      })
      expect(list.json()).toEqual({
        scenarios: [{ name: 'bad', problems: ['line 2: script: must list at least 1 item'] }],
      })
    } finally {
      await other.close()
      await rm(folder, { recursive: true })
    }
  })

  it('are not there without the scenario services (a control plane over a directory alone)', async () => {
    const plain = await startControlService()
    try {
      const response = await plain.control.inject({
        method: 'GET',
        url: '/control/v1/scenarios',
        headers: AUTH,
      })
      expect(response.statusCode).toBe(404)
    } finally {
      await plain.close()
    }
  })

  it('are in the OpenAPI document, with the result record', async () => {
    const response = await fixture.control.inject({
      method: 'GET',
      url: '/control/v1/openapi.json',
      headers: AUTH,
    })
    const document = response.json() as { paths: Record<string, Record<string, unknown>> }
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/control/v1/scenarios/run',
        '/control/v1/scenarios',
        '/control/v1/scenarios/{name}',
        '/control/v1/scenarios/{name}/run',
      ]),
    )
    expect(JSON.stringify(document.paths['/control/v1/scenarios/run'])).toContain('ScenarioResult')
  })
})
