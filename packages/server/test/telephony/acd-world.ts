/**
 * A small contact center for the engine's tests (docs/contact-center.md): pilot 3000 whose rule 1 queues its calls
 * in queue 3100, served by processing group 3200 of the agents bob (1002) and carol (1003); dave (1004) supervises
 * the group; alice (1001) and the outside number call. Pilot 3001 needs French (skill 2 at level 2), which only
 * carol has.
 */

import type { AcdTicket } from '../../src/platform/acd/acd-ticket.js'
import { type OperatorStateView, operatorStateOf } from '../../src/platform/acd/agent-state.js'
import type { ContactCenterDefinition } from '../../src/platform/acd/contact-center.js'
import type { PlatformEvent } from '../../src/platform/events.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { FeatureWorld } from './support.js'

export const PILOT = '3000'
export const FRENCH_PILOT = '3001'
export const QUEUE = '3100'
export const FRENCH_QUEUE = '3101'
export const PG = '3200'
export const NO_ANSWER_MS = 10_000
export const WRAP_UP_MS = 5_000

export function contactCenter(
  change: Partial<ContactCenterDefinition> = {},
): ContactCenterDefinition {
  return {
    pilots: [
      {
        number: PILOT,
        name: 'Sales',
        rules: [
          { ruleNumber: 1, name: 'Day', queue: QUEUE },
          { ruleNumber: 2, name: 'Night', queue: QUEUE },
        ],
        ruleNumber: 1,
        open: true,
        possibleTransfer: true,
        supervisedTransfer: false,
        calendar: { normal: {}, exceptions: {} },
      },
      {
        number: FRENCH_PILOT,
        name: 'Ventes',
        rules: [
          { ruleNumber: 1, name: 'Jour', queue: FRENCH_QUEUE, skills: [{ number: 2, level: 2 }] },
        ],
        ruleNumber: 1,
        open: true,
        possibleTransfer: true,
        supervisedTransfer: false,
        calendar: { normal: {}, exceptions: {} },
      },
    ],
    queues: [
      { number: QUEUE, name: 'Sales queue', processingGroup: PG, size: 3 },
      { number: FRENCH_QUEUE, name: 'File ventes', processingGroup: PG, size: 3 },
    ],
    processingGroups: [
      {
        number: PG,
        name: 'Sales agents',
        noAnswerMs: NO_ANSWER_MS,
        wrapUpMs: WRAP_UP_MS,
        transactionCode: false,
        withdrawReasons: [
          { index: 1, label: 'Lunch' },
          { index: 2, label: 'Training' },
        ],
      },
    ],
    operators: [
      {
        loginName: 'bob',
        type: 'AGENT',
        processingGroups: [PG],
        skills: [{ number: 1, level: 3, active: true }],
        selfAssign: false,
        headset: false,
        help: true,
        multiline: false,
      },
      {
        loginName: 'carol',
        type: 'AGENT',
        processingGroups: [PG],
        skills: [
          { number: 1, level: 2, active: true },
          { number: 2, level: 3, active: true },
        ],
        selfAssign: false,
        headset: false,
        help: true,
        multiline: false,
      },
      {
        loginName: 'dave',
        type: 'SUPERVISOR',
        processingGroups: [PG],
        skills: [],
        selfAssign: false,
        headset: false,
        help: false,
        multiline: false,
      },
    ],
    skills: [
      { number: 1, name: 'English', abvName: 'EN' },
      { number: 2, name: 'French', abvName: 'FR' },
    ],
    ...change,
  }
}

/** The feature world with the contact center provisioned. */
export class AcdWorld extends FeatureWorld {
  constructor(change: Partial<ContactCenterDefinition> = {}) {
    super()
    this.run({ type: 'provisionContactCenter', definition: contactCenter(change) })
  }

  /** Logs the agent on at its desk phone, in its preferred group (READY). */
  logOn(loginName: string, device: string): PlatformEvent[] {
    return this.run({ type: 'acdLogOn', loginName, proAcdDeviceNumber: device }).events
  }

  /** The agent's state as the SDKs read it. */
  agentState(loginName: string): OperatorStateView | undefined {
    const agent = this.state.acd?.agents.get(loginName)
    return agent === undefined ? undefined : operatorStateOf(agent)
  }

  place(loginName: string): string | undefined {
    return this.state.acd?.agents.get(loginName)?.place
  }

  tickets(): AcdTicket[] {
    return this.state.acd?.outbox ?? []
  }

  /** An outside caller dials `to`; the call's reference. */
  incoming(to: string, from = '0555123456'): string {
    const result = this.run({ type: 'incomingCall', from, to } as EngineCommand)
    return result.callRef ?? ''
  }
}

/** The OnAgentStateChanged states in `events`, as `login:MAIN/SUB`. */
export function agentStates(events: readonly PlatformEvent[]): string[] {
  return events
    .filter((event) => event.eventName === 'OnAgentStateChanged')
    .map((event) => {
      const state = event['state'] as OperatorStateView
      return `${event.loginName}:${state.subState ?? state.mainState}`
    })
}

/** The pilot events in `events`, as `Name:cause`. */
export function pilotEvents(events: readonly PlatformEvent[]): string[] {
  return events
    .filter((event) => event.eventName.startsWith('OnPilotCall'))
    .map((event) => `${event.eventName}:${String(event['cause'])}`)
}
