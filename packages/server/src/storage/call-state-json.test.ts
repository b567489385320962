/**
 * The rest of the state as the call stores write it (call-state-json.ts `encodeRest`): with a contact center,
 * whose text is kept by record, the same JSON as JSON.stringify's, field for field and in order, before and
 * after the contact center changes.
 */
import { describe, expect, it } from 'vitest'
import type { AcdState } from '../platform/acd/acd-state.js'
import { newAgent } from '../platform/acd/agent-state.js'
import { initialState, type TelephonyState } from '../platform/telephony/telephony-state.js'
import { decodeState, encodeRest } from './call-state-json.js'

/** What JSON.stringify writes of the rest. */
function plainRest(state: TelephonyState): string {
  return JSON.stringify({
    ...state,
    calls: null,
    devices: null,
    callsByUser: null,
    callsByDevice: null,
  })
}

function contactCenter(): AcdState {
  return {
    definition: {
      pilots: {},
      queues: { '6100': { number: '6100', name: 'Sales', processingGroup: '6200', size: 20 } },
      processingGroups: {},
      operators: {},
      skills: [{ number: 1, name: 'Spanish' }],
    },
    pilots: {},
    agents: { bob: newAgent('bob', [{ number: 1, level: 3, active: true }]) },
    queues: { '6100': [] },
    wrapping: {},
    handlingMs: {},
    outbox: [],
  }
}

describe('encodeRest', () => {
  it('writes a state with a contact center as JSON.stringify does, its fields in order', () => {
    const base = initialState([], 'ab'.repeat(32))
    // The contact center between other fields (cluster mode's after it), one undefined (left out, as JSON.stringify
    // does).
    const state: TelephonyState = {
      ...base,
      acd: contactCenter(),
      huntingProvision: undefined,
      batch: 7,
      answered: [{ requestId: 'r1', callRef: 'c1' }],
    }
    const text = encodeRest(state)
    expect(text).toBe(plainRest(state))
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(JSON.parse(plainRest(state))))
    expect(decodeState(text, [], []).state.acd).toEqual(state.acd)
    // The contact center last but for undefined fields.
    const last: TelephonyState = { ...base, acd: contactCenter(), huntingProvision: undefined }
    expect(encodeRest(last)).toBe(plainRest(last))
    // A contact center with no field.
    const empty = { ...base, acd: {} as AcdState }
    expect(encodeRest(empty)).toBe(plainRest(empty))
  })

  it('follows the contact center as the engine changes it (new records), and keeps its text while it does not', () => {
    const acd = contactCenter()
    const first: TelephonyState = { ...initialState([], 'ab'.repeat(32)), acd }
    expect(encodeRest(first)).toBe(plainRest(first))
    // Another command that leaves the contact center as it is: the same records, the same text.
    const second: TelephonyState = { ...first, sequence: 5 }
    expect(encodeRest(second)).toBe(plainRest(second))
    // An agent moved: new agent, agents and contact center records, the definition kept.
    const bob = acd.agents['bob']
    if (bob === undefined) throw new Error('no bob')
    const moved: AcdState = {
      ...acd,
      agents: { ...acd.agents, bob: { ...bob, place: 'READY', pg: '6200', readySince: 9 } },
    }
    const third: TelephonyState = { ...second, acd: moved }
    expect(encodeRest(third)).toBe(plainRest(third))
    expect(encodeRest(third)).not.toBe(encodeRest(second))
    // A new definition (provisioned again).
    const redefined: AcdState = { ...moved, definition: { ...moved.definition, skills: [] } }
    const fourth: TelephonyState = { ...third, acd: redefined }
    expect(encodeRest(fourth)).toBe(plainRest(fourth))
    // The contact center removed.
    const { acd: _removed, ...fifth } = fourth
    expect(encodeRest(fifth)).toBe(plainRest(fifth))
  })
})
