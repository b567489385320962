/** The contact-center schemas take every spelling the SDKs disagree on (ACD-WIRE-NOTES.md). */
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { EVENT_PACKAGES } from '../events.js'
import * as wire from '../index.js'
import { CallData } from '../telephony/call.js'
import {
  AgentGroups,
  IntrusionModeRequest,
  IntrusionRequest,
  OnAgentSkillChanged,
  OnAgentStateChanged,
  OperatorConfig,
  OperatorLogonRequest,
  OperatorState,
} from './agent.js'
import { AcdCallInfo, PilotTransferQuery, SendAccountInfoRequest } from './call-data.js'
import { Pilot, Pilots } from './management.js'

const skill = { number: 1, level: 3, active: true }

describe('acdagent', () => {
  it('answers the operator state with both withdraw (Node, C#) and withdrawn (Java)', () => {
    const state = { mainState: 'LOG_ON', subState: 'WRAPUP_IM', withdraw: false, withdrawn: false }
    expect(Value.Check(OperatorState, state)).toBe(true)
    expect(Value.Check(OperatorState, { mainState: 'LOG_ON', withdraw: false })).toBe(false)
    expect(
      Value.Check(OnAgentStateChanged, {
        eventName: 'OnAgentStateChanged',
        loginName: 'agent1',
        state,
      }),
    ).toBe(true)
  })

  it('answers the agent groups under groups (Node, Java) and processingGroups (C#)', () => {
    const groups = ['33000', '33001']
    expect(Value.Check(AgentGroups, { preferred: '33000', groups, processingGroups: groups })).toBe(
      true,
    )
    expect(Value.Check(AgentGroups, { groups })).toBe(false)
  })

  it('requires skills in the configuration, which the C# and browser SDKs read unguarded', () => {
    const config = {
      type: 'AGENT',
      selfAssign: false,
      headset: false,
      help: true,
      multiline: false,
    }
    expect(Value.Check(OperatorConfig, { ...config, skills: { skills: [skill] } })).toBe(true)
    expect(Value.Check(OperatorConfig, config)).toBe(false)
  })

  it('takes OnAgentSkillChanged skills as an array (Node) or as {skills} (Java)', () => {
    const event = { eventName: 'OnAgentSkillChanged', loginName: 'agent1' }
    expect(Value.Check(OnAgentSkillChanged, { ...event, skills: [skill] })).toBe(true)
    expect(Value.Check(OnAgentSkillChanged, { ...event, skills: { skills: [skill] } })).toBe(true)
    expect(Value.Check(OnAgentSkillChanged, { ...event, skills: { list: [skill] } })).toBe(false)
  })

  it('takes a log-on with or without headset and group, as each SDK sends it', () => {
    expect(Value.Check(OperatorLogonRequest, { proAcdDeviceNumber: '23000' })).toBe(true)
    expect(
      Value.Check(OperatorLogonRequest, {
        proAcdDeviceNumber: '23000',
        pgGroupNumber: '',
        headset: false,
      }),
    ).toBe(true)
    expect(Value.Check(OperatorLogonRequest, { proAcdDeviceNumber: '23000', other: 1 })).toBe(false)
  })

  it("takes the Node SDK's intrusion mode STOP, and an intrusion without a mode", () => {
    expect(Value.Check(IntrusionModeRequest, { mode: 'STOP' })).toBe(true)
    expect(Value.Check(IntrusionRequest, { agentNumber: '5001', mode: 'DISCRETE' })).toBe(true)
    expect(Value.Check(IntrusionRequest, { agentNumber: '5001' })).toBe(true)
    expect(Value.Check(IntrusionModeRequest, { mode: 'COACH' })).toBe(false)
  })
})

describe('acdmanagement', () => {
  const pilot = { number: '60141', name: 'Sales', state: 'Opened', waitingTime: 5 }

  it('answers the rules of a pilot as an array (Node) or as {ruleList} (Java)', () => {
    const rules = [{ ruleNumber: 1, name: 'Day', active: true }]
    expect(Value.Check(Pilot, { ...pilot, rules })).toBe(true)
    expect(Value.Check(Pilot, { ...pilot, rules: { ruleList: rules } })).toBe(true)
    expect(
      Value.Check(Pilot, {
        ...pilot,
        rules: { ruleList: [{ ruleNumber: '11', name: 'Morning', active: true }] },
      }),
    ).toBe(true)
    expect(Value.Check(Pilots, { pilotList: [] })).toBe(true)
  })

  it('takes the unknown state as Node (unknown) and Java (Unknown) spell it', () => {
    expect(Value.Check(Pilot, { ...pilot, state: 'unknown' })).toBe(true)
    expect(Value.Check(Pilot, { ...pilot, state: 'Unknown' })).toBe(true)
    expect(Value.Check(Pilot, { ...pilot, state: 'UNKNOWN' })).toBe(false)
  })
})

describe('telephony: ACD call data, pilot transfer info, account info', () => {
  it('takes a pilot transfer query empty, from Node, from Java, and a C#-spelled skill', () => {
    expect(Value.Check(PilotTransferQuery, {})).toBe(true)
    const skills = { skills: [{ skillNumber: 1, acrStatus: true, expertEvalLevel: 3 }] }
    expect(Value.Check(PilotTransferQuery, { agentNumber: '5001', skills })).toBe(true)
    expect(
      Value.Check(PilotTransferQuery, {
        skills,
        priorityTransfer: false,
        supervisedTransfer: false,
      }),
    ).toBe(true)
    expect(
      Value.Check(PilotTransferQuery, {
        skills: { skills: [{ number: 1, acrStatus: false, expertEvalLevel: 2 }] },
      }),
    ).toBe(true)
  })

  it('answers the agent group of an ACD call as a string (Java, C#)', () => {
    expect(Value.Check(AcdCallInfo, { agentGroup: '33000', queueWaitingTime: 12 })).toBe(true)
    expect(Value.Check(AcdCallInfo, { agentGroup: 33000 })).toBe(false)
  })

  it('carries acdCallData, accountInfo and trunkIdentification in CallData', () => {
    const callData = {
      accountInfo: '1234',
      acdCallData: {
        callInfo: { queueWaitingTime: 3, globalWaitingTime: 9, agentGroup: '33000', local: true },
        queueData: { waitingTime: 0, saturated: false },
        pilotNumber: '60141',
        supervisedTransfer: false,
        pilotTransferInfo: { transferPossible: true, pilotStatus: 'OPEN' },
      },
      trunkIdentification: { networkTimeslot: 2, trunkNeqt: [101] },
    }
    expect(Value.Check(CallData, callData)).toBe(true)
  })

  it('takes account info of digits only', () => {
    expect(Value.Check(SendAccountInfoRequest, { deviceId: '23001', accountInfo: '42' })).toBe(true)
    expect(Value.Check(SendAccountInfoRequest, { deviceId: '23001', accountInfo: '4a' })).toBe(
      false,
    )
  })
})

describe('the catalog', () => {
  it('lists the events of packages agent and pilot', () => {
    expect(EVENT_PACKAGES.agent).toEqual([
      'OnAgentStateChanged',
      'OnAgentSkillChanged',
      'OnSupervisorHelpRequested',
      'OnSupervisorHelpCancelled',
    ])
    expect(EVENT_PACKAGES.pilot).toEqual([
      'OnPilotCallCreated',
      'OnPilotCallQueued',
      'OnPilotCallRemoved',
    ])
  })

  it('gives no title to two different schemas (the OpenAPI components are named by title)', () => {
    const seen = new Map<string, string>()
    const clashes: string[] = []
    const visit = (schema: unknown): void => {
      if (typeof schema !== 'object' || schema === null) return
      const record = schema as Record<string, unknown>
      const title = record['title']
      if (typeof title === 'string') {
        const text = JSON.stringify(schema)
        const before = seen.get(title)
        if (before !== undefined && before !== text) clashes.push(title)
        seen.set(title, text)
      }
      for (const value of Object.values(record)) visit(value)
    }
    for (const schema of Object.values(wire)) visit(schema)
    expect(clashes).toEqual([])
  })
})
