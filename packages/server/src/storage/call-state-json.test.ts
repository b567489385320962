/**
 * The rest of the state as the call stores write it (call-state-json.ts `encodeRest`): with a contact center,
 * whose text is kept by record, the same JSON as JSON.stringify's, field for field and in order, before and
 * after the contact center changes.
 */
import { describe, expect, it } from 'vitest'
import { type AcdState, agentMapOf } from '../platform/acd/acd-state.js'
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
    agents: agentMapOf({ bob: newAgent('bob', [{ number: 1, level: 3, active: true }]) }),
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
    const bob = acd.agents.get('bob')
    if (bob === undefined) throw new Error('no bob')
    const moved: AcdState = {
      ...acd,
      agents: acd.agents.set('bob', { ...bob, place: 'READY', pg: '6200', readySince: 9 }),
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

  it('writes the agents as the plain record JSON.stringify writes, whatever the order they joined the map in', () => {
    const acd = contactCenter()
    // Login names that are array indexes: a plain object lists them first, in increasing order.
    const agents = acd.agents
      .set('42', newAgent('42', []))
      .set('alice', newAgent('alice', []))
      .set('7', newAgent('7', []))
    const state: TelephonyState = { ...initialState([], 'ab'.repeat(32)), acd: { ...acd, agents } }
    const text = encodeRest(state)
    expect(text).toBe(plainRest(state))
    expect(Object.keys(JSON.parse(text).acd.agents)).toEqual(['7', '42', 'bob', 'alice'])
    const loaded = decodeState(text, [], []).state.acd
    expect(loaded?.agents.toObject()).toEqual(agents.toObject())
    expect([...(loaded?.agents.keys() ?? [])]).toEqual(['7', '42', 'bob', 'alice'])
  })

  it('loads the agents in the map the engine holds them in, the fields in the order they were saved in', () => {
    const base = initialState([], 'ab'.repeat(32))
    const state: TelephonyState = { ...base, acd: contactCenter(), batch: 3 }
    const loaded = decodeState(encodeRest(state), [], []).state
    expect(Object.keys(loaded)).toEqual(Object.keys(state))
    expect(loaded.acd?.agents.get('bob')).toEqual(state.acd?.agents.get('bob'))
    expect(loaded.acd).toEqual(state.acd)
    expect(loaded.acd?.agents.toObject()).toEqual(state.acd?.agents.toObject())
    // A command on the loaded state moves an agent as on the state it was saved from.
    const bob = loaded.acd?.agents.get('bob')
    if (bob === undefined || loaded.acd === undefined) throw new Error('no bob')
    const moved = loaded.acd.agents.set('bob', { ...bob, place: 'READY' })
    expect(moved.get('bob')?.place).toBe('READY')
    expect(loaded.acd.agents.get('bob')?.place).toBe('LOG_OFF')
  })
})
