/**
 * Client flows of the contact center (client census 2, 5c; docs/contact-center.md) over the demo directory's
 * contact center: Support 3001 (queue 3101, group 3201 of paul, quentin and rose, with transaction codes) and Sales
 * 3000 (group 3200 of olivia and paul, with withdraw reasons); sophie supervises both groups. Each operation as each
 * SDK sends it (`/enter` or `/enterPG`, the help cancel, a transition added with or without `/transitions`), and the
 * answers and events read as each reads them (`withdraw` or `withdrawn`, the groups under `groups` or
 * `processingGroups`, OnAgentSkillChanged's skills as a list or an object, a pilot's rules likewise).
 */
import { expect } from 'vitest'
import type { ChannelClient } from '../support/channel-client.js'
import { type Coverage, covered, type Flow, makeCallBody, onlyCall, party } from './flow-support.js'
import { type ClientProfile, nextEvent, SdkClient } from './sdk-client.js'
import { list, object, readCallData, readOnCallCreated } from './sdk-readers.js'

type Json = Record<string, unknown>

const AGENT = '/acd/agent'

/**
 * The subscription each SDK sends for agent events (N `addCallCenterAgentEvents(ids)` always with its list; the
 * others with the ids they are given, else none).
 */
function agentSubscription(profile: ClientProfile, ids: string[], others = false): unknown {
  const selectors = [{ names: ['agent'], ...((profile.tag === 'N' || others) && { ids }) }]
  return { filter: { selectors }, version: '1.0', timeout: profile.tag === 'N' ? 0 : 10 }
}

/** OperatorState as each SDK reads it: the withdraw flag under its own name. */
function readOperatorState(value: unknown, profile: ClientProfile): Json {
  const state = object(value, 'OperatorState')
  expect(['LOG_ON', 'LOG_OFF']).toContain(state['mainState'])
  expect(state[profile.tag === 'J' ? 'withdrawn' : 'withdraw'], 'withdraw flag').toBeTypeOf(
    'boolean',
  )
  return state
}

/** The next OnAgentStateChanged of `loginName`, its state read as the SDK reads it. */
async function nextState(
  channel: ChannelClient,
  loginName: string,
  profile: ClientProfile,
): Promise<Json> {
  const event = await nextEvent(
    channel,
    'OnAgentStateChanged',
    (one) => one['loginName'] === loginName,
  )
  return readOperatorState(event['state'], profile)
}

/** A body-less agent action, covered. */
async function act(client: SdkClient, coverage: Coverage, path: string): Promise<void> {
  covered(coverage, `POST ${AGENT}${path}`, await client.request('POST', 'acdagent', path))
}

/** The logon body as each SDK writes it (N and JS leave out a false headset and an empty group). */
function logonBody(profile: ClientProfile, device: string): unknown {
  return profile.tag === 'N' || profile.tag === 'JS'
    ? { proAcdDeviceNumber: device }
    : { proAcdDeviceNumber: device, headset: false }
}

export const ACD_FLOWS: readonly Flow[] = [
  {
    name: "contact center: an agent's day on the desktop (paul), with its supervisor told of a help request",
    async run(world, profile, coverage) {
      const paul = await SdkClient.login(world, profile, 'paul')
      const events = await paul.subscribe(agentSubscription(profile, ['paul']))
      const sophie = await SdkClient.login(world, profile, 'sophie')
      const supervisor = await sophie.subscribe(agentSubscription(profile, ['sophie']))

      const config = object(
        covered(coverage, `GET ${AGENT}/config`, await paul.request('GET', 'acdagent', '/config'))
          .body,
        'OperatorConfig',
      )
      expect(config['type']).toBe('AGENT')
      const groups = object(config['processingGroups'], 'AgentGroups')
      expect(groups[profile.tag === 'C#' ? 'processingGroups' : 'groups']).toEqual(['3200', '3201'])
      expect(list(object(config['skills'], 'skills'), 'skills')[0]).toMatchObject({
        number: 1,
        level: 2,
      })
      expect(
        readOperatorState(
          covered(coverage, `GET ${AGENT}/state`, await paul.request('GET', 'acdagent', '/state'))
            .body,
          profile,
        )['mainState'],
      ).toBe('LOG_OFF')

      covered(
        coverage,
        `POST ${AGENT}/logon`,
        await paul.request('POST', 'acdagent', '/logon', { body: logonBody(profile, '1042') }),
      )
      expect(await nextState(events, 'paul', profile)).toMatchObject({
        mainState: 'LOG_ON',
        subState: 'READY',
        pgNumber: '3200',
        proAcdDeviceNumber: '1042',
      })
      await act(paul, coverage, '/pause')
      expect((await nextState(events, 'paul', profile))['subState']).toBe('PAUSE')
      await act(paul, coverage, '/ready')
      expect((await nextState(events, 'paul', profile))['subState']).toBe('READY')
      await act(paul, coverage, '/wrapUp')
      expect((await nextState(events, 'paul', profile))['subState']).toBe('WRAPUP')

      const reasons = object(
        covered(
          coverage,
          `GET ${AGENT}/withdrawReasons`,
          await paul.request('GET', 'acdagent', '/withdrawReasons', {
            query: { pgNumber: '3200' },
          }),
        ).body,
        'WithdrawReasons',
      )
      expect(list(reasons, 'reasons').map((reason) => reason['label'])).toEqual([
        'Lunch',
        'Training',
      ])
      covered(
        coverage,
        `POST ${AGENT}/withdraw`,
        await paul.request('POST', 'acdagent', '/withdraw', { body: { reasonIndex: 1 } }),
      )
      const withdrawn = await nextState(events, 'paul', profile)
      expect(withdrawn).toMatchObject({ subState: 'WITHDRAW', withdrawReason: 1 })
      expect(withdrawn[profile.tag === 'J' ? 'withdrawn' : 'withdraw']).toBe(true)

      // Leave Sales for Support: the SDK reads its group from the state first.
      const [exit, enter] =
        profile.tag === 'J' || profile.tag === 'C#' ? ['/exitPG', '/enterPG'] : ['/exit', '/enter']
      covered(
        coverage,
        `POST ${AGENT}${exit}`,
        await paul.request('POST', 'acdagent', exit, { body: { pgGroupNumber: '3200' } }),
      )
      expect((await nextState(events, 'paul', profile))['subState']).toBe('OUT_OF_PG')
      covered(
        coverage,
        `POST ${AGENT}${enter}`,
        await paul.request('POST', 'acdagent', enter, { body: { pgGroupNumber: '3201' } }),
      )
      expect(await nextState(events, 'paul', profile)).toMatchObject({
        subState: 'READY',
        pgNumber: '3201',
      })

      for (const [path, active] of [
        ['/config/skills/deactivate', false],
        ['/config/skills/activate', true],
      ] as const) {
        covered(
          coverage,
          `POST ${AGENT}${path}`,
          await paul.request('POST', 'acdagent', path, { body: { skills: [1] } }),
        )
        // The Node SDK reads the skills as a list, the Java SDK as {skills}; the others do not parse the event.
        if (profile.tag === 'N' || profile.tag === 'J') {
          const changed = await nextEvent(events, 'OnAgentSkillChanged')
          const skills =
            profile.tag === 'J' ? list(changed['skills'], 'skills') : (changed['skills'] as Json[])
          expect(skills[0]).toMatchObject({ number: 1, active })
        }
      }
      await act(paul, coverage, '/state/snapshot')
      expect((await nextState(events, 'paul', profile))['subState']).toBe('READY')

      await act(paul, coverage, '/supervisorHelp')
      const asked = await nextEvent(supervisor, 'OnSupervisorHelpRequested')
      expect(asked).toMatchObject({ loginName: 'sophie', agentNumber: '1042' })
      // The agent cancels: the Java SDK with DELETE /intrusion, the others with the supervisor's number.
      const cancel =
        profile.tag === 'J'
          ? covered(
              coverage,
              `DELETE ${AGENT}/intrusion`,
              await paul.request('DELETE', 'acdagent', '/intrusion'),
            )
          : covered(
              coverage,
              `DELETE ${AGENT}/supervisorHelp`,
              await paul.request('DELETE', 'acdagent', '/supervisorHelp', {
                query: { other: '1045' },
              }),
            )
      expect(cancel.status).toBeLessThan(300)
      expect(await nextEvent(supervisor, 'OnSupervisorHelpCancelled')).toMatchObject({
        loginName: 'sophie',
        agentNumber: '1042',
      })
      await act(paul, coverage, '/logoff')
      expect((await nextState(events, 'paul', profile))['mainState']).toBe('LOG_OFF')
    },
  },
  {
    name: 'contact center: a call to Support queues for quentin, who answers it with his supervisor intruding, then gives its code',
    async run(world, profile, coverage) {
      const quentin = await party(world, profile, 'quentin')
      const alice = await party(world, profile, 'alice')
      const sophie = await SdkClient.login(world, profile, 'sophie')
      covered(
        coverage,
        `POST ${AGENT}/logon`,
        await quentin.client.request('POST', 'acdagent', '/logon', {
          body: logonBody(profile, '1043'),
        }),
      )
      await alice.client.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '3001'),
      })
      const offered = readOnCallCreated(await nextEvent(quentin.channel, 'OnCallCreated'))
      expect(offered['cause']).toBe('DISTRIBUTED')
      const callRef = await onlyCall(quentin.client)
      await quentin.client.request('POST', 'telephony', `/calls/${callRef}/answer`, {
        body: { deviceId: '1043' },
      })
      const call = object(
        (await quentin.client.request('GET', 'telephony', `/calls/${callRef}`)).body,
        'Call',
      )
      const acd = object(readCallData(call['callData'])['acdCallData'], 'acdCallData')
      expect(acd['pilotNumber']).toBe('3001')
      expect(object(acd['callInfo'], 'callInfo')['agentGroup']).toBe('3201')

      covered(
        coverage,
        `POST ${AGENT}/intrusion`,
        await sophie.request('POST', 'acdagent', '/intrusion', {
          body: { agentNumber: '1043', mode: 'NORMAL' },
        }),
      )
      covered(
        coverage,
        `PUT ${AGENT}/intrusion`,
        await sophie.request('PUT', 'acdagent', '/intrusion', { body: { mode: 'DISCRETE' } }),
      )
      await quentin.client.request('DELETE', 'telephony', `/calls/${callRef}`)
      // Support asks for a transaction code after each call (no SDK sends loginName here).
      covered(
        coverage,
        'POST /telephony/calls/{}/sendaccountinfo',
        await quentin.client.request('POST', 'telephony', `/calls/${callRef}/sendaccountinfo`, {
          body: { deviceId: '1043', accountInfo: '42' },
        }),
      )
      const state = readOperatorState(
        (await quentin.client.request('GET', 'acdagent', '/state')).body,
        profile,
      )
      expect(state['subState']).toBe('WRAPUP')

      covered(
        coverage,
        `POST ${AGENT}/permanentListening`,
        await sophie.request('POST', 'acdagent', '/permanentListening', {
          body: { agentNumber: '1043' },
        }),
      )
      if (profile.tag === 'N')
        covered(
          coverage,
          `DELETE ${AGENT}/permanentListening`,
          await sophie.request('DELETE', 'acdagent', '/permanentListening'),
        )
      await quentin.client.request('POST', 'acdagent', '/logoff')
    },
  },
]

/** A caller who gives up while waiting at Support, and the supervisor who follows its agent's states. */
export const ACD_ABANDON_FLOW: Flow = {
  name: "contact center: a caller who gives up while waiting, with the agent's states followed by its supervisor",
  async run(world, profile) {
    const quentin = await SdkClient.login(world, profile, 'quentin')
    const sophie = await SdkClient.login(world, profile, 'sophie')
    const followed = await sophie.subscribe(agentSubscription(profile, ['quentin'], true))
    await quentin.request('POST', 'acdagent', '/logon', { body: logonBody(profile, '1043') })
    expect((await nextState(followed, 'quentin', profile))['subState']).toBe('READY')
    await quentin.request('POST', 'acdagent', '/pause')
    expect((await nextState(followed, 'quentin', profile))['subState']).toBe('PAUSE')
    // An outside caller, as the control plane makes one, waits at Support, then hangs up.
    const { telephony } = world.service.running.platform
    await telephony.execute({ type: 'incomingCall', from: '0555123456', to: '3001' })
    expect(telephony.queries.acdState()?.queues['3101']).toHaveLength(1)
    await telephony.execute({ type: 'outsidePartyHangsUp', number: '0555123456' })
    expect(telephony.queries.acdState()?.queues['3101']).toEqual([])
    // Ready again: nothing is offered, the caller is gone.
    await quentin.request('POST', 'acdagent', '/ready')
    expect((await nextState(followed, 'quentin', profile))['subState']).toBe('READY')
    const state = readOperatorState(
      (await quentin.request('GET', 'acdagent', '/state')).body,
      profile,
    )
    expect(state['subState']).toBe('READY')
  },
}

/** The subscription of pilot events each SDK sends (N `addPilotEvents`, J `addCallCenterPilotEventListener`). */
function pilotSubscription(profile: ClientProfile, pilots: string[]): unknown {
  return {
    filter: { selectors: [{ names: ['pilot'], ids: pilots }] },
    version: '1.0',
    timeout: profile.tag === 'N' ? 0 : 10,
  }
}

/** Pilot as each SDK reads it: the rules a list (N) or `{ruleList}` (J). */
function readPilot(value: unknown, profile: ClientProfile): Json {
  const pilot = object(value, 'Pilot')
  const rules = profile.tag === 'J' ? list(pilot['rules'], 'ruleList') : (pilot['rules'] as Json[])
  expect(Array.isArray(rules), 'rules').toBe(true)
  for (const rule of rules) expect(Number.isInteger(rule['ruleNumber']), 'ruleNumber').toBe(true)
  return pilot
}

const MANAGEMENT = '/acd/management'

/** The pilots' management and monitoring: the Node and Java SDKs only. */
export const ACD_PILOT_FLOWS: readonly Flow[] = [
  {
    name: 'contact center (Node and Java SDKs): pilots, their calendars and transitions, open and close, monitoring and transferInfo',
    async run(world, profile, coverage) {
      // The C# and browser SDKs have neither service.
      if (profile.tag !== 'N' && profile.tag !== 'J') return
      const admin = await SdkClient.login(world, profile, 'admin')
      const mgmt = (method: string, path: string, body?: unknown) =>
        admin.request(method, 'acdmanagement', path, body === undefined ? {} : { body })
      const pilots = object(
        covered(coverage, `GET ${MANAGEMENT}/{}/pilots`, await mgmt('GET', '/1/pilots')).body,
        'Pilots',
      )
      expect(list(pilots, 'pilotList').map((pilot) => pilot['number'])).toEqual(['3000', '3001'])
      const support = readPilot(
        covered(coverage, `GET ${MANAGEMENT}/{}/pilots/{}`, await mgmt('GET', '/1/pilots/3001'))
          .body,
        profile,
      )
      expect(support).toMatchObject({ number: '3001', name: 'Support', state: 'Blocked' })
      if (profile.tag === 'N')
        readPilot(
          covered(
            coverage,
            `POST ${MANAGEMENT}/{}/pilots/{}`,
            await mgmt('POST', '/1/pilots/3001', {
              skills: { skills: [{ skillNumber: 1, acrStatus: true, expertEvalLevel: 2 }] },
            }),
          ).body,
          profile,
        )
      const calendar = object(
        covered(
          coverage,
          `GET ${MANAGEMENT}/{}/pilots/{}/calendar`,
          await mgmt('GET', '/1/pilots/3001/calendar'),
        ).body,
        'PilotCalendar',
      )
      expect(list(object(calendar['normalDays'], 'normalDays'), 'calendar')).toHaveLength(7)
      for (const kind of ['normal', 'exception'] as const) {
        const day = kind === 'normal' ? 'monday' : '20271225'
        covered(
          coverage,
          `GET ${MANAGEMENT}/{}/pilots/{}/calendar/${kind}`,
          await mgmt('GET', `/1/pilots/3001/calendar/${kind}`),
        )
        const add =
          profile.tag === 'J'
            ? `/1/pilots/3001/calendar/${kind}/${day}/transitions`
            : `/1/pilots/3001/calendar/${kind}/${day}`
        covered(
          coverage,
          `POST ${MANAGEMENT}/{}/pilots/{}/calendar/${kind}/{}${profile.tag === 'J' ? '/transitions' : ''}`,
          await mgmt('POST', add, { time: '09:00', ruleNumber: 1, mode: 'normal' }),
        )
        covered(
          coverage,
          `PUT ${MANAGEMENT}/{}/pilots/{}/calendar/${kind}/{}/transitions/{}`,
          await mgmt('PUT', `/1/pilots/3001/calendar/${kind}/${day}/transitions/1`, {
            time: '09:30',
            ruleNumber: 1,
            mode: 'normal',
          }),
        )
        const listed = object(
          (await mgmt('GET', `/1/pilots/3001/calendar/${kind}`)).body,
          'calendar',
        )
        const days = list(listed, 'calendar')
        const found = days.find((one) => one[kind === 'normal' ? 'day' : 'date'] === day)
        expect(list(found, 'list')[0]).toMatchObject({
          number: 1,
          transition: { time: '09:30', ruleNumber: 1, mode: 'normal' },
        })
        covered(
          coverage,
          `DELETE ${MANAGEMENT}/{}/pilots/{}/calendar/${kind}/{}/transitions/{}`,
          await mgmt('DELETE', `/1/pilots/3001/calendar/${kind}/${day}/transitions/1`),
        )
      }
      covered(
        coverage,
        `POST ${MANAGEMENT}/{}/pilots/{}/close`,
        await mgmt('POST', '/1/pilots/3001/close'),
      )
      expect(readPilot((await mgmt('GET', '/1/pilots/3001')).body, profile)['state']).toBe('Closed')
      covered(
        coverage,
        `POST ${MANAGEMENT}/{}/pilots/{}/open`,
        await mgmt('POST', '/1/pilots/3001/open'),
      )

      const info = object(
        covered(
          coverage,
          'POST /telephony/pilots/{}/{}/transferInfo',
          await admin.request('POST', 'telephony', '/pilots/1/3001/transferInfo', {
            query: { loginName: 'alice' },
          }),
        ).body,
        'PilotInfo',
      )
      expect(object(info['pilotTransferInfo'], 'pilotTransferInfo')).toMatchObject({
        transferPossible: false,
        pilotStatus: 'BLOCKED_ON_RULE',
      })

      const monitored = await admin.subscribe(pilotSubscription(profile, ['3001']))
      covered(
        coverage,
        'POST /acd/pilotmonitoring/{}',
        await admin.request('POST', 'acdpilotmonitoring', '/3001'),
      )
      const alice = await party(world, profile, 'alice')
      await alice.client.request('POST', 'telephony', '/calls', {
        body: makeCallBody(profile, '1001', '3001'),
      })
      const created = await nextEvent(monitored, 'OnPilotCallCreated')
      expect(created).toMatchObject({
        pilot: '3001',
        caller: '1001',
        cause: 'ACD_ENTER_DISTRIBUTION',
      })
      expect(created['loginName']).toBeUndefined()
      // Nobody of Support is logged on: the call is dissuaded.
      expect(await nextEvent(monitored, 'OnPilotCallRemoved')).toMatchObject({
        pilot: '3001',
        cause: 'NO_AVAILABLE_AGENT',
      })
      covered(
        coverage,
        'DELETE /acd/pilotmonitoring/{}',
        await admin.request('DELETE', 'acdpilotmonitoring', '/3001'),
      )
    },
  },
]
