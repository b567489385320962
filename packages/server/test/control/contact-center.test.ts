/**
 * The contact center on the control plane and the command line (docs/contact-center-control.md): its definition
 * checked and replaced, the floor as it runs, agents' actions on their behalf, pilots opened and closed, traffic
 * generators and simulated agents, and the tickets of the ticket store; every bad input a clear RestErrorInfo that
 * changes nothing.
 */
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { expectRestError } from '../support/assertions.js'
import { AUTH, type ControlService, runCli, startControlService } from './control-fixture.js'

let fixture: ControlService
beforeEach(async () => {
  fixture = await startControlService()
})
afterEach(() => fixture?.close())

function control(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return fixture.control.inject({
    method,
    url: `/control/v1${url}`,
    headers: AUTH,
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

/** A small contact center on the demo directory's users. */
export const DEFINITION = {
  timeZone: 'Europe/Paris',
  pilots: [
    { number: '3000', name: 'Sales', rules: [{ ruleNumber: 1, name: 'Day', queue: '3100' }] },
    {
      number: '3001',
      name: 'Support',
      rules: [
        { ruleNumber: 1, name: 'Day', queue: '3101', skills: [{ number: 2, level: 2 }] },
        { ruleNumber: 2, name: 'Night', queue: '3101' },
      ],
      calendar: { normal: { saturday: [{ time: '00:00', ruleNumber: 2 }] } },
    },
  ],
  queues: [
    { number: '3100', name: 'Sales queue', processingGroup: '3200', size: 10 },
    { number: '3101', name: 'Support queue', processingGroup: '3200' },
  ],
  processingGroups: [
    {
      number: '3200',
      name: 'Front office',
      noAnswerSeconds: 15,
      wrapUpSeconds: 10,
      withdrawReasons: [
        { index: 1, label: 'Lunch' },
        { index: 2, label: 'Training' },
      ],
    },
  ],
  operators: [
    { loginName: 'bob', type: 'AGENT', processingGroups: ['3200'] },
    {
      loginName: 'carol',
      type: 'AGENT',
      processingGroups: ['3200'],
      skills: [{ number: 2, level: 3 }],
    },
    { loginName: 'erin', type: 'AGENT', processingGroups: ['3200'] },
    { loginName: 'henri', type: 'SUPERVISOR', processingGroups: ['3200'] },
  ],
  skills: [
    { number: 1, name: 'English' },
    { number: 2, name: 'French' },
  ],
}

async function define(): Promise<void> {
  const defined = await control('PUT', '/contactCenter/definition', DEFINITION)
  expect(defined.statusCode, defined.body).toBe(200)
}

/** Runs the service's clock `ms` forward, one due timer after the other, each command done before the next. */
async function runFor(ms: number): Promise<void> {
  const { clock, running } = fixture.service
  const end = clock.now() + ms
  for (;;) {
    await running.telephony.idle()
    const next = clock.nextDueAt()
    if (next === undefined || next > end) break
    await clock.advance(Math.max(0, next - clock.now()))
  }
  await clock.advance(end - clock.now())
  await running.telephony.idle()
}

interface Floor {
  pilots: { number: string; state: string; mode: string; waiting: number }[]
  queues: { number: string; waiting: { callRef: string; caller: string; pilot: string }[] }[]
  agents: { loginName: string; mainState: string; subState?: string; call?: string }[]
  processingGroups: { number: string; agents: string[] }[]
  ticketsPending: number
}

async function floor(): Promise<Floor> {
  const shown = await control('GET', '/contactCenter')
  expect(shown.statusCode, shown.body).toBe(200)
  return shown.json() as Floor
}

const agentOf = (shown: Floor, loginName: string) =>
  shown.agents.find((agent) => agent.loginName === loginName)

describe('the definition', () => {
  it("is the demo directory's at first; an empty one removes the contact center: 404 with what to do", async () => {
    const demo = (await control('GET', '/contactCenter/definition')).json() as {
      pilots: { number: string }[]
    }
    expect(demo.pilots.map((pilot) => pilot.number)).toEqual(['3000', '3001'])
    const removed = await control('PUT', '/contactCenter/definition', {})
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json()).toEqual({})
    expectRestError(
      await control('GET', '/contactCenter'),
      404,
      'NOT_FOUND',
      /PUT \/contactCenter\/definition/,
    )
    expectRestError(await control('GET', '/contactCenter/definition'), 404, 'NOT_FOUND')
  })

  it('is replaced as a whole and shown with its defaults; the floor follows', async () => {
    await define()
    const shown = (await control('GET', '/contactCenter/definition')).json()
    expect(shown).toMatchObject({
      timeZone: 'Europe/Paris',
      pilots: [
        {
          number: '3000',
          ruleNumber: 1,
          open: true,
          possibleTransfer: true,
          supervisedTransfer: false,
          calendar: { normal: {}, exceptions: {} },
        },
        {
          number: '3001',
          calendar: { normal: { saturday: [{ time: '00:00', ruleNumber: 2, mode: 'normal' }] } },
        },
      ],
      queues: [{ size: 10 }, { size: 20 }],
      processingGroups: [{ noAnswerSeconds: 15, wrapUpSeconds: 10, transactionCode: false }],
      operators: [{ loginName: 'bob', skills: [], help: true, selfAssign: false }, {}, {}, {}],
    })
    const running = await floor()
    expect(running.pilots.map((pilot) => [pilot.number, pilot.state])).toEqual([
      ['3000', 'Blocked'],
      ['3001', 'Blocked'],
    ])
    expect(running.agents.map((agent) => `${agent.loginName}:${agent.mainState}`)).toEqual([
      'bob:LOG_OFF',
      'carol:LOG_OFF',
      'erin:LOG_OFF',
      'henri:LOG_OFF',
    ])
    // Sent again as shown, it is the same.
    const again = await control('PUT', '/contactCenter/definition', shown)
    expect(again.json()).toEqual(shown)
  })

  it('refuses a bad one with every problem, and changes nothing', async () => {
    await define()
    const bad = structuredClone(DEFINITION) as Record<string, unknown> & typeof DEFINITION
    bad.pilots.push({
      number: '1001',
      name: 'Clash',
      rules: [{ ruleNumber: 1, name: 'x', queue: '3999' }],
    })
    bad.operators.push({ loginName: 'nobody', type: 'AGENT', processingGroups: ['3299'] })
    ;(bad.pilots[1] as { calendar: unknown }).calendar = {
      normal: { monday: [{ time: '25:00', ruleNumber: 7 }] },
    }
    const refused = await control('PUT', '/contactCenter/definition', bad)
    const error = expectRestError(refused, 400, 'BAD_PARAMETER')
    for (const problem of [
      'pilots[2].number: 1001 is already a device of alice',
      "pilots[2].rules[0].queue: no queue '3999'",
      'pilots[1].calendar.normal.monday[0].time: "25:00" must be a time of day HH:mm',
      'pilots[1].calendar.normal.monday[0].ruleNumber: pilot 3001 has no rule 7',
      "operators[4].loginName: no user 'nobody'",
      "operators[4].processingGroups[0]: no processing group '3299'",
    ])
      expect(error.helpMessage).toContain(problem)
    const unknown = await control('PUT', '/contactCenter/definition', { pilot: [] })
    expect(expectRestError(unknown, 400, 'BAD_PARAMETER').helpMessage).toContain(
      'pilot: is not a known field; did you mean pilots?',
    )
    const typed = await control('PUT', '/contactCenter/definition', {
      queues: [{ number: 3100, name: 'Q', processingGroup: '3200' }],
    })
    expect(expectRestError(typed, 400, 'BAD_PARAMETER').helpMessage).toContain(
      'queues[0].number: must be a string; write it in quotes: "3100"',
    )
    expect((await floor()).pilots).toHaveLength(2)
  })
})

describe('the floor and the agents', () => {
  beforeEach(define)

  it('logs an agent on at its main device, pauses, withdraws, readies and logs it off, as its desktop would', async () => {
    const steps: [string, unknown, string][] = [
      ['logon', undefined, 'READY'],
      ['pause', undefined, 'PAUSE'],
      ['withdraw', { reason: 2 }, 'WITHDRAW'],
      ['ready', undefined, 'READY'],
    ]
    for (const [action, body, subState] of steps) {
      const done = await control('POST', `/contactCenter/agents/bob/${action}`, body)
      expect(done.statusCode, `${action}: ${done.body}`).toBe(204)
      expect(agentOf(await floor(), 'bob')).toMatchObject({ mainState: 'LOG_ON', subState })
    }
    const running = await floor()
    expect(agentOf(running, 'bob')).toMatchObject({ set: '1002', processingGroup: '3200' })
    expect(running.processingGroups[0]?.agents).toEqual(['bob'])
    expect(running.pilots[0]).toMatchObject({ state: 'Opened', mode: 'normal' })
    expect((await control('POST', '/contactCenter/agents/bob/logoff')).statusCode).toBe(204)
    expect(agentOf(await floor(), 'bob')).toEqual({
      loginName: 'bob',
      type: 'AGENT',
      mainState: 'LOG_OFF',
    })
  })

  it('shows a call waiting in its queue, then offered to the agent who becomes ready', async () => {
    await control('POST', '/contactCenter/agents/carol/logon', { set: '1003' })
    await control('POST', '/contactCenter/agents/carol/pause')
    const made = await control('POST', '/calls', { from: '0612345678', to: '3000' })
    const { callRef } = made.json() as { callRef: string }
    const waiting = await floor()
    expect(waiting.queues[0]?.waiting).toEqual([
      { callRef, pilot: '3000', caller: '0612345678', since: expect.any(String) },
    ])
    expect(waiting.pilots[0]).toMatchObject({ waiting: 1 })
    await control('POST', '/contactCenter/agents/carol/ready')
    const offered = await floor()
    expect(offered.queues[0]?.waiting).toEqual([])
    expect(agentOf(offered, 'carol')).toMatchObject({ subState: 'BUSY', call: callRef })
  })

  it('refuses what the agent may not do, clearly', async () => {
    const cases: [string, unknown, number, string, string][] = [
      ['/contactCenter/agents/nobody/ready', undefined, 404, 'NOT_FOUND', "No operator 'nobody'"],
      ['/contactCenter/agents/alice/logon', undefined, 404, 'NOT_FOUND', "No operator 'alice'"],
      [
        '/contactCenter/agents/bob/ready',
        undefined,
        403,
        'NOT_EXPECTED',
        'logged off: log on first',
      ],
      ['/contactCenter/agents/bob/logon', { set: '1001' }, 403, 'NOT_ALLOWED', 'not a set of'],
      ['/contactCenter/agents/bob/logon', { set: '9999' }, 404, 'NOT_FOUND', "no set '9999'"],
      [
        '/contactCenter/agents/bob/logon',
        { processingGroup: '3999' },
        404,
        'NOT_FOUND',
        "No processing group '3999'",
      ],
      [
        '/contactCenter/agents/bob/logon',
        { desk: '1002' },
        400,
        'BAD_PARAMETER',
        'desk: not a known field',
      ],
      ['/contactCenter/agents/bob/withdraw', {}, 400, 'BAD_PARAMETER', 'reason: required'],
    ]
    for (const [url, body, status, type, message] of cases) {
      const refused = await control('POST', url, body)
      expect(expectRestError(refused, status, type as never).helpMessage, url).toContain(message)
    }
    await control('POST', '/contactCenter/agents/bob/logon')
    const reason = await control('POST', '/contactCenter/agents/bob/withdraw', { reason: 9 })
    expect(expectRestError(reason, 400, 'BAD_PARAMETER').helpMessage).toContain(
      'no withdraw reason 9',
    )
    expect(agentOf(await floor(), 'bob')).toMatchObject({ subState: 'READY' })
  })

  it('closes and opens a pilot', async () => {
    expect((await control('POST', '/contactCenter/pilots/3000/close')).statusCode).toBe(204)
    expect((await floor()).pilots[0]).toMatchObject({ state: 'Closed', mode: 'closed' })
    expect((await control('POST', '/contactCenter/pilots/3000/open')).statusCode).toBe(204)
    expect((await floor()).pilots[0]).toMatchObject({ mode: 'normal' })
    expectRestError(
      await control('POST', '/contactCenter/pilots/3999/open'),
      404,
      'NOT_FOUND',
      /No pilot '3999'/,
    )
  })
})

describe('traffic and simulated agents', () => {
  beforeEach(define)

  it('starts, shows, changes and stops a generator; its callers arrive on the clock', async () => {
    const started = await control('PUT', '/contactCenter/traffic/3000', {
      callsPerMinute: 12,
      patienceSeconds: 30,
      seed: 7,
    })
    expect(started.statusCode, started.body).toBe(200)
    expect(started.json()).toMatchObject({
      pilot: '3000',
      callsPerMinute: 12,
      patienceSeconds: 30,
      from: '0590',
      seed: 7,
      calls: 0,
      skipped: 0,
      inProgress: 0,
    })
    await runFor(120_000)
    const running = (await control('GET', '/contactCenter/traffic/3000')).json() as {
      calls: number
    }
    // Nobody logged on: each caller is dissuaded at once.
    expect(running.calls).toBeGreaterThan(10)
    const changed = await control('PUT', '/contactCenter/traffic/3000', {
      callsPerMinute: 1,
      talkSeconds: 20,
    })
    expect(changed.json()).toMatchObject({
      callsPerMinute: 1,
      talkSeconds: 20,
      seed: 7,
      calls: running.calls,
    })
    expect(changed.json()).not.toHaveProperty('patienceSeconds')
    const listed = (await control('GET', '/contactCenter/traffic')).json() as {
      generators: unknown[]
    }
    expect(listed.generators).toHaveLength(1)
    expect((await control('DELETE', '/contactCenter/traffic/3000')).statusCode).toBe(204)
    expect((await control('GET', '/contactCenter/traffic')).json()).toEqual({ generators: [] })
    expectRestError(await control('DELETE', '/contactCenter/traffic/3000'), 404, 'NOT_FOUND')
    expectRestError(await control('GET', '/contactCenter/traffic/3000'), 404, 'NOT_FOUND')
  })

  it('refuses bad traffic clearly', async () => {
    const cases: [string, unknown, number, string][] = [
      ['3000', {}, 400, 'callsPerMinute: required'],
      ['3000', { callsPerMinute: 601 }, 400, 'at most 600'],
      ['3000', { callsPerMinute: '6' }, 400, 'callsPerMinute'],
      [
        '3000',
        { callsPerMinute: 6, patienceSeconds: 0 },
        400,
        'patienceSeconds: a number of seconds, more than 0',
      ],
      ['3000', { callsPerMinute: 6, talkSeconds: 86_401 }, 400, 'talkSeconds'],
      ['3000', { callsPerMinute: 6, from: 590 }, 400, 'from: a number prefix'],
      ['3000', { callsPerMinute: 6, from: '05a' }, 400, "from: '05a' is not a number prefix"],
      ['3000', { callsPerMinute: 6, seed: -1 }, 400, 'seed'],
      ['3000', { callsPerMinute: 6, rate: 1 }, 400, 'rate: not a known field'],
      ['3999', { callsPerMinute: 6 }, 404, "No pilot '3999'"],
    ]
    for (const [pilot, body, status, message] of cases) {
      const refused = await control('PUT', `/contactCenter/traffic/${pilot}`, body)
      expect(refused.statusCode, refused.body).toBe(status)
      expect(refused.json().helpMessage, JSON.stringify(body)).toContain(message)
    }
    expect((await control('GET', '/contactCenter/traffic')).json()).toEqual({ generators: [] })
  })

  it('makes and lists simulated agents, refuses what cannot work, and makes them people again', async () => {
    const made = await control('PUT', '/contactCenter/simulatedAgents/bob', {
      answerAfterSeconds: 3,
      talkSeconds: 40,
    })
    expect(made.statusCode, made.body).toBe(200)
    expect(made.json()).toEqual({ loginName: 'bob', answerAfterSeconds: 3, talkSeconds: 40 })
    await control('PUT', '/contactCenter/simulatedAgents/carol', {
      answerAfterSeconds: 0,
      talkSeconds: 10,
      wrapUpSeconds: 2,
    })
    expect((await control('GET', '/contactCenter/simulatedAgents')).json()).toEqual({
      agents: [
        { loginName: 'bob', answerAfterSeconds: 3, talkSeconds: 40 },
        { loginName: 'carol', answerAfterSeconds: 0, talkSeconds: 10, wrapUpSeconds: 2 },
      ],
    })
    expect(agentOf(await floor(), 'bob')).toMatchObject({ simulated: { answerAfterSeconds: 3 } })
    const cases: [string, unknown, number, string][] = [
      [
        'bob',
        { answerAfterSeconds: 15, talkSeconds: 5 },
        400,
        'answerAfterSeconds: 15 is not less than the 15 s',
      ],
      ['bob', { talkSeconds: 5 }, 400, 'answerAfterSeconds: required'],
      ['bob', { answerAfterSeconds: 1, talkSeconds: 0 }, 400, 'talkSeconds'],
      ['bob', { answerAfterSeconds: 1, talkSeconds: 5, wrapUpSeconds: -1 }, 400, 'wrapUpSeconds'],
      ['alice', { answerAfterSeconds: 1, talkSeconds: 5 }, 404, "No operator 'alice'"],
    ]
    for (const [login, body, status, message] of cases) {
      const refused = await control('PUT', `/contactCenter/simulatedAgents/${login}`, body)
      expect(refused.statusCode, refused.body).toBe(status)
      expect(refused.json().helpMessage).toContain(message)
    }
    expect((await control('DELETE', '/contactCenter/simulatedAgents/bob')).statusCode).toBe(204)
    expectRestError(await control('DELETE', '/contactCenter/simulatedAgents/bob'), 404, 'NOT_FOUND')
    expect((await control('GET', '/contactCenter/simulatedAgents')).json()).toMatchObject({
      agents: [{ loginName: 'carol' }],
    })
  })

  it('runs a floor without people: simulated agents serve generated callers, and the tickets are stored', async () => {
    for (const [login, set] of [
      ['bob', '1002'],
      ['carol', '1003'],
    ]) {
      await control('PUT', `/contactCenter/simulatedAgents/${login}`, {
        answerAfterSeconds: 2,
        talkSeconds: 20,
      })
      expect(
        (await control('POST', `/contactCenter/agents/${login}/logon`, { set })).statusCode,
      ).toBe(204)
    }
    await control('PUT', '/contactCenter/traffic/3000', {
      callsPerMinute: 3,
      patienceSeconds: 60,
      talkSeconds: 45,
      seed: 11,
    })
    await runFor(5 * 60_000)
    await control('DELETE', '/contactCenter/traffic/3000')
    await runFor(2 * 60_000)
    const settled = await floor()
    expect(
      settled.agents.filter((agent) => agent.subState !== undefined).map((agent) => agent.subState),
    ).toEqual(['READY', 'READY'])
    await expect.poll(async () => (await floor()).ticketsPending, { timeout: 5_000 }).toBe(0)
    const listed = await control('GET', '/contactCenter/tickets')
    expect(listed.statusCode, listed.body).toBe(200)
    const { tickets } = listed.json() as {
      tickets: {
        outcome: string
        agent?: string
        pilot: string
        caller: string
        ticketId: string
      }[]
    }
    expect(tickets.length).toBeGreaterThan(5)
    expect(
      tickets.every((ticket) => ticket.pilot === '3000' && ticket.caller.startsWith('0590')),
    ).toBe(true)
    expect(tickets.filter((ticket) => ticket.outcome === 'SERVED').length).toBeGreaterThan(
      tickets.length / 2,
    )
    const bobs = (await control('GET', '/contactCenter/tickets?agent=bob')).json() as {
      tickets: { agent: string }[]
    }
    expect(bobs.tickets.length).toBeGreaterThan(0)
    expect(bobs.tickets.every((ticket) => ticket.agent === 'bob')).toBe(true)
    const page = (await control('GET', '/contactCenter/tickets?limit=2')).json() as {
      tickets: { ticketId: string }[]
    }
    expect(page.tickets).toHaveLength(2)
    const next = (
      await control('GET', `/contactCenter/tickets?limit=2&after=${page.tickets[1]?.ticketId}`)
    ).json() as {
      tickets: { ticketId: string }[]
    }
    expect(next.tickets[0]?.ticketId).toBe(tickets[2]?.ticketId)
    const none = (
      await control('GET', '/contactCenter/tickets?pilot=3001&to=2026-01-01T00:00:00Z')
    ).json()
    expect(none).toEqual({ tickets: [] })
    for (const [query, message] of [
      ['limit=-1', 'limit'],
      ['from=yesterday', "from: 'yesterday' is not an ISO 8601 time"],
      ['pilots=3000', 'pilots: not a parameter of the tickets'],
    ])
      expect(
        expectRestError(
          await control('GET', `/contactCenter/tickets?${query}`),
          400,
          'BAD_PARAMETER',
        ).helpMessage,
      ).toContain(message)
  })
})

describe('the command line', () => {
  it('shows, logs an agent on and off, pauses, closes a pilot, runs traffic and simulated agents, lists tickets', async () => {
    await fixture.control.listen({ host: '127.0.0.1', port: 0 })
    const url = `http://127.0.0.1:${(fixture.control.server.address() as AddressInfo).port}`
    const cli = (...argv: string[]) => runCli(url, argv)
    const demo = await cli('contact-center', 'show')
    expect(demo.code, demo.err).toBe(0)
    expect((parse(demo.out) as Floor).pilots.map((pilot) => pilot.number)).toEqual(['3000', '3001'])
    const defined = await runCli(url, ['contact-center', 'define', '-'], {
      stdin: JSON.stringify(DEFINITION),
    })
    expect(defined.code, defined.err).toBe(0)
    expect(parse(defined.out)).toMatchObject({ pilots: [{ number: '3000' }, { number: '3001' }] })
    expect(await cli('contact-center', 'agent', 'log-on', 'bob')).toMatchObject({
      code: 0,
      out: 'bob is logged on.\n',
    })
    expect(
      await cli('contact-center', 'agent', 'log-on', 'carol', '1003', '--group', '3200'),
    ).toMatchObject({
      code: 0,
      out: 'carol is logged on at 1003.\n',
    })
    expect(await cli('contact-center', 'agent', 'pause', 'bob')).toMatchObject({
      code: 0,
      out: 'bob pauses.\n',
    })
    expect(await cli('contact-center', 'agent', 'withdraw', 'bob', '1')).toMatchObject({
      code: 0,
      out: 'bob is withdrawn (reason 1).\n',
    })
    expect(await cli('contact-center', 'agent', 'ready', 'bob')).toMatchObject({
      code: 0,
      out: 'bob is ready.\n',
    })
    const shown = await cli('contact-center', 'show')
    expect(shown.code, shown.err).toBe(0)
    expect((parse(shown.out) as Floor).agents.map((agent) => agent.subState)).toEqual([
      'READY',
      'READY',
      undefined,
      undefined,
    ])
    expect(await cli('contact-center', 'pilot', 'close', '3000')).toMatchObject({
      code: 0,
      out: 'Pilot 3000 is closed.\n',
    })
    expect(await cli('contact-center', 'pilot', 'open', '3000')).toMatchObject({
      code: 0,
      out: 'Pilot 3000 is open.\n',
    })
    const simulated = await cli(
      'contact-center',
      'simulate-agent',
      'bob',
      '2',
      '30',
      '--wrap-up',
      '5',
    )
    expect(simulated.code, simulated.err).toBe(0)
    expect(parse(simulated.out)).toEqual({
      loginName: 'bob',
      answerAfterSeconds: 2,
      talkSeconds: 30,
      wrapUpSeconds: 5,
    })
    expect(parse((await cli('contact-center', 'simulated-agents')).out)).toMatchObject({
      agents: [{ loginName: 'bob' }],
    })
    const traffic = await cli(
      'contact-center',
      'traffic',
      'start',
      '3000',
      '6',
      '--patience',
      '30',
      '--talk',
      '60',
      '--from',
      '0591',
      '--seed',
      '42',
    )
    expect(traffic.code, traffic.err).toBe(0)
    expect(parse(traffic.out)).toMatchObject({
      pilot: '3000',
      callsPerMinute: 6,
      patienceSeconds: 30,
      talkSeconds: 60,
      from: '0591',
      seed: 42,
    })
    expect(parse((await cli('contact-center', 'traffic', 'list')).out)).toMatchObject({
      generators: [{ pilot: '3000' }],
    })
    expect(await cli('contact-center', 'traffic', 'stop', '3000')).toMatchObject({
      code: 0,
      out: 'No more traffic on pilot 3000.\n',
    })
    expect(await cli('contact-center', 'unsimulate-agent', 'bob')).toMatchObject({
      code: 0,
      out: 'bob is no simulated agent any more.\n',
    })
    const tickets = await cli('contact-center', 'tickets', '--pilot', '3000', '--limit', '5')
    expect(tickets.code, tickets.err).toBe(0)
    expect(parse(tickets.out)).toEqual({ tickets: [] })
    expect(await cli('contact-center', 'agent', 'log-off', 'bob')).toMatchObject({
      code: 0,
      out: 'bob is logged off.\n',
    })
    const refused = await cli('contact-center', 'traffic', 'start', '3000', 'many')
    expect(refused.code).toBe(2)
    expect(refused.err).toContain("'many' is not a number")
    const usage = await cli('contact-center', 'agent', 'log-on')
    expect(usage.code).toBe(2)
    expect(usage.err).toContain('usage: contact-center agent log-on <login> [set]')
    const unknown = await cli('contact-center', 'agent', 'dance', 'bob')
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain("unknown command 'contact-center agent dance'")
  })
})
