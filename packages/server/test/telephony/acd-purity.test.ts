/**
 * The call engine is a pure function (docs/architecture.md): the state a command starts from stays as it was,
 * for the commands of the contact center too, whose distribution sets the fields of a call's ACD record.
 */
import { describe, expect, it } from 'vitest'
import { execute } from '../../src/platform/telephony/call-engine.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { AcdWorld, PILOT } from './acd-world.js'

describe('a command on an ACD call', () => {
  it('leaves the state it started from as it was: queued, offered, answered, ended', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const callRef = w.incoming(PILOT, '0555123456')
    const steps: EngineCommand[] = [
      { type: 'acdReady', loginName: 'bob' },
      { type: 'answer', loginName: 'bob', callRef },
      { type: 'release', loginName: 'bob', callRef },
    ]
    for (const command of steps) {
      const before = w.state
      const seen = JSON.stringify(before)
      w.now += 1_000
      w.state = execute(before, command, w.now, w.context).state
      expect(JSON.stringify(before), command.type).toBe(seen)
    }
    expect(w.tickets()).toHaveLength(0)
    expect(w.place('bob')).toBe('WRAPUP')
  })
})
