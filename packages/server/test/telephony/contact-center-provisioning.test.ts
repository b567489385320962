/**
 * The engine's contact center and the directory file's (engine-acd.ts, docs/directory-file.md `contactCenter`):
 * the file's definition is provisioned unless the engine took that very one (same digest); a file without one
 * removes the contact center the engine took from an earlier file, and an empty definition removes it with its
 * calls, keeping the tickets the ticket store does not have yet.
 */
import { describe, expect, it } from 'vitest'
import type { ContactCenterDefinition } from '../../src/platform/acd/contact-center.js'
import {
  type ContactCenterEngine,
  fileContactCenter,
  followFileContactCenter,
} from '../../src/platform/telephony/engine-acd.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { AcdWorld, agentStates, contactCenter, PILOT, QUEUE } from './acd-world.js'
import { connections } from './support.js'

const CALLER = '0555123456'
const EMPTY: ContactCenterDefinition = {
  pilots: [],
  queues: [],
  processingGroups: [],
  operators: [],
  skills: [],
}

/** The world's engine as the follower sees it, with the commands it was given. */
function engineOf(w: AcdWorld): ContactCenterEngine & { commands: EngineCommand[] } {
  const commands: EngineCommand[] = []
  return {
    commands,
    get state() {
      return w.state
    },
    execute: async (command) => {
      commands.push(command)
      return w.run(command)
    },
  }
}

describe('followFileContactCenter', () => {
  it('provisions the file, and gives nothing more for the same digest', async () => {
    const w = new AcdWorld()
    const engine = engineOf(w)
    const file = fileContactCenter(contactCenter({ timeZone: 'Europe/Paris' }))
    await followFileContactCenter(engine, file)
    expect(engine.commands).toEqual([
      { type: 'provisionContactCenter', definition: file.definition, digest: file.digest },
    ])
    expect(w.state.acd?.provision).toBe(file.digest)
    expect(w.state.acd?.definition.timeZone).toBe('Europe/Paris')

    w.logOn('bob', '1002')
    await followFileContactCenter(
      engine,
      fileContactCenter(contactCenter({ timeZone: 'Europe/Paris' })),
    )
    expect(engine.commands).toHaveLength(1)
    expect(w.agentState('bob')?.subState).toBe('READY')
  })

  it('provisions a changed file again: the agents who stay keep their state', async () => {
    const w = new AcdWorld()
    const engine = engineOf(w)
    await followFileContactCenter(engine, fileContactCenter(contactCenter()))
    w.logOn('bob', '1002')
    const changed = fileContactCenter(contactCenter({ skills: [{ number: 1, name: 'English' }] }))
    await followFileContactCenter(engine, changed)
    expect(engine.commands).toHaveLength(2)
    expect(w.state.acd?.provision).toBe(changed.digest)
    expect(w.state.acd?.definition.skills).toEqual([{ number: 1, name: 'English' }])
    expect(w.agentState('bob')?.subState).toBe('READY')
  })

  it('a file without a contact center: nothing where the engine has none, or has one not from a file', async () => {
    const none = new AcdWorld()
    const removed = engineOf(none)
    await followFileContactCenter(removed, fileContactCenter(contactCenter()))
    await followFileContactCenter(removed, fileContactCenter(undefined))
    expect(none.state.acd).toBeUndefined()
    const idle = engineOf(none)
    await followFileContactCenter(idle, fileContactCenter(undefined))
    expect(idle.commands).toEqual([])

    // AcdWorld provisions without a digest, as the control plane would: not the file's to remove.
    const other = new AcdWorld()
    const engine = engineOf(other)
    await followFileContactCenter(engine, fileContactCenter(undefined))
    expect(engine.commands).toEqual([])
    expect(other.state.acd?.pilots[PILOT]).toBeDefined()
  })

  it('a file whose contact center is gone removes the one the engine took from it', async () => {
    const w = new AcdWorld()
    const engine = engineOf(w)
    await followFileContactCenter(engine, fileContactCenter(contactCenter()))
    await followFileContactCenter(engine, fileContactCenter(undefined))
    expect(engine.commands[1]).toEqual({ type: 'provisionContactCenter', definition: EMPTY })
    expect(w.state.acd).toBeUndefined()
  })

  it('the digest is that of the definition: equal definitions, equal digests', () => {
    expect(fileContactCenter(contactCenter()).digest).toBe(
      fileContactCenter(contactCenter()).digest,
    )
    expect(fileContactCenter(contactCenter()).digest).not.toBe(
      fileContactCenter(contactCenter({ timeZone: 'UTC' })).digest,
    )
    expect(fileContactCenter(undefined)).toEqual({ definition: undefined, digest: undefined })
  })
})

describe('provisionContactCenter with an empty definition', () => {
  it('removes the contact center and its timers; nothing happens where there is none', () => {
    const w = new AcdWorld()
    w.run({ type: 'provisionContactCenter', definition: EMPTY })
    expect(w.state.acd).toBeUndefined()
    expect(w.state.timers.filter((timer) => timer.command.type.startsWith('acd'))).toEqual([])
    w.run({ type: 'provisionContactCenter', definition: EMPTY })
    expect(w.state.acd).toBeUndefined()
  })

  it('dissuades the calls at its pilots, lets answered calls go on, and keeps their tickets until stored', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    const answered = w.incoming(PILOT, CALLER)
    w.run({ type: 'answer', loginName: 'bob', callRef: answered })
    const waiting = w.incoming(PILOT, '0555000001')
    expect(w.state.acd?.queues[QUEUE]).toEqual([waiting])

    const removed = w.run({ type: 'provisionContactCenter', definition: EMPTY })
    expect(agentStates(removed.events)).toEqual([])
    expect(connections(w.state, answered)).toEqual([`${CALLER}:ACTIVE`, '1002:ACTIVE'])
    expect(w.state.calls.get(answered)?.acd).toBeUndefined()
    expect(w.state.calls.has(waiting)).toBe(false)
    const acd = w.state.acd
    expect(acd?.definition.pilots).toEqual({})
    expect(acd?.agents.toObject()).toEqual({})
    expect(acd?.outbox.map((ticket) => [ticket.callRef, ticket.outcome])).toEqual([
      [answered, 'SERVED'],
      [waiting, 'DISSUADED'],
    ])
    expect(w.state.timers.filter((timer) => timer.command.type.startsWith('acd'))).toEqual([])

    w.run({
      type: 'acdTicketsStored',
      ticketIds: (acd?.outbox ?? []).map((ticket) => ticket.ticketId),
    })
    expect(w.state.acd).toBeUndefined()
  })
})
