/**
 * The agents in a snapshot of the engine (restored-state.ts): the engine holds them in a persistent map, the
 * snapshot as a plain record of login name → agent, as it always did; restored, they are the engine's map again,
 * the same agents in the same order, and the engine goes on with them.
 */
import { OrderedMap } from 'immutable'
import { describe, expect, it } from 'vitest'
import { portableState } from '../../src/platform/telephony/restored-state.js'
import { AcdWorld, agentStates, PILOT } from './acd-world.js'

describe("a snapshot's agents", () => {
  it('are a plain record in the snapshot, the same JSON as the state, and come back equal after a restore', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.logOn('carol', '1003')
    w.run({ type: 'acdPause', loginName: 'carol' })
    const callRef = w.incoming(PILOT)
    const taken = w.state
    const agents = taken.acd?.agents
    if (agents === undefined) throw new Error('no agents')
    expect(agents.get('bob')?.acdCall).toBe(callRef)

    const snapshot = portableState(taken)
    // Plain data: kept as it was, and as a structured clone or JSON keeps it.
    expect(OrderedMap.isOrderedMap(snapshot.acd?.agents)).toBe(false)
    expect(snapshot.acd?.agents).toStrictEqual(agents.toObject())
    expect(Object.keys(snapshot.acd?.agents ?? {})).toEqual([...agents.keys()])
    expect(JSON.stringify(snapshot.acd)).toBe(JSON.stringify(taken.acd))
    const stored = JSON.parse(JSON.stringify(structuredClone(snapshot)))
    expect(stored).toStrictEqual(snapshot)

    // Later, bob answered and carol logged off: the restore gives the agents of the snapshot back.
    w.run({ type: 'answer', loginName: 'bob', callRef })
    w.run({ type: 'acdLogOff', loginName: 'carol' })
    expect(w.place('carol')).toBe('LOG_OFF')
    w.run({ type: 'restoreState', target: stored })
    const restored = w.state.acd?.agents
    expect(OrderedMap.isOrderedMap(restored)).toBe(true)
    expect(restored?.toObject()).toStrictEqual(agents.toObject())
    expect([...(restored?.keys() ?? [])]).toEqual([...agents.keys()])
    expect(w.state.acd).toEqual(taken.acd)
    // The snapshot is not shared with the engine: moving an agent leaves it as it was.
    const events = w.run({ type: 'acdReady', loginName: 'carol' }).events
    expect(agentStates(events)).toEqual(['carol:READY'])
    expect(stored.acd?.agents.carol?.place).toBe('PAUSE')
  })
})
