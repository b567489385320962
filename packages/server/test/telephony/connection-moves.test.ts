/**
 * The one door of connection states (style guide section 4): `newConnection` and `moveConnection` follow
 * `CONNECTION_INITIAL_STATES` and `CONNECTION_TRANSITIONS`, and the operations change states only through them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { MEDIA_STATES, type MediaState } from '@openness/wire'
import { describe, expect, it } from 'vitest'
import { PlatformError } from '../../src/platform/platform-error.js'
import {
  CONNECTION_INITIAL_STATES,
  CONNECTION_TRANSITIONS,
  IllegalConnectionMoveError,
  moveConnection,
  newConnection,
} from '../../src/platform/telephony/media-state-machine.js'
import type {
  CallRecord,
  Connection,
  Endpoint,
} from '../../src/platform/telephony/telephony-state.js'

const ALICE: Endpoint = { number: '1001', deviceId: '1001', loginName: 'alice' }

/** A call of one connection of alice's device in `state`. */
function callWith(state: MediaState): { call: CallRecord; connection: Connection } {
  const connection: Connection = { endpoint: { ...ALICE }, state }
  const call: CallRecord = {
    callRef: '00000000000000a1',
    callUUID: '00000000000000a1-0',
    connections: [connection],
    initialCalled: { ...ALICE },
    createdAt: 0,
  }
  return { call, connection }
}

const allowed = (from: MediaState): readonly MediaState[] => CONNECTION_TRANSITIONS[from]
const pairs = MEDIA_STATES.flatMap((from) => MEDIA_STATES.map((to) => [from, to] as const))
const legal = pairs.filter(([from, to]) => from !== to && allowed(from).includes(to))
const illegal = pairs.filter(([from, to]) => from !== to && !allowed(from).includes(to))

describe('moveConnection', () => {
  it.each(legal)('moves %s -> %s, as the table allows', (from, to) => {
    const { call, connection } = callWith(from)
    moveConnection(call, connection, to)
    expect(connection.state).toBe(to)
  })

  it.each(illegal)('refuses %s -> %s as a bug, changing nothing', (from, to) => {
    const { call, connection } = callWith(from)
    const move = () => moveConnection(call, connection, to)
    expect(move).toThrow(IllegalConnectionMoveError)
    expect(move).not.toThrow(PlatformError)
    expect(move).toThrow(
      `Call 00000000000000a1: device 1001 of 'alice' cannot move ${from} -> ${to}`,
    )
    expect(connection.state).toBe(from)
  })

  it.each(MEDIA_STATES)('leaves a connection %s where it is: staying is not a move', (state) => {
    const { call, connection } = callWith(state)
    moveConnection(call, connection, state)
    expect(connection.state).toBe(state)
  })

  it('names the party of the illegal move: a service, an outside number', () => {
    const { call } = callWith('ACTIVE')
    const voicemail: Connection = {
      endpoint: { number: '8001', service: 'VOICEMAIL' },
      state: 'HELD',
    }
    const outside: Connection = { endpoint: { number: '33123456789' }, state: 'RELEASING' }
    expect(() => moveConnection(call, voicemail, 'RINGING_INCOMING')).toThrow(
      'Call 00000000000000a1: VOICEMAIL 8001 cannot move HELD -> RINGING_INCOMING',
    )
    expect(() => moveConnection(call, outside, 'ACTIVE')).toThrow(
      'Call 00000000000000a1: outside number 33123456789 cannot move RELEASING -> ACTIVE',
    )
  })

  it('walks a whole call: ringing, answered, held, retrieved, released', () => {
    const { call, connection } = callWith('RINGING_INCOMING')
    const seen: MediaState[] = []
    for (const to of ['RINGING_OUTGOING', 'ACTIVE', 'HELD', 'ACTIVE', 'RELEASING'] as const) {
      moveConnection(call, connection, to)
      seen.push(connection.state)
    }
    expect(seen).toEqual(['RINGING_OUTGOING', 'ACTIVE', 'HELD', 'ACTIVE', 'RELEASING'])
    expect(() => moveConnection(call, connection, 'ACTIVE')).toThrow(IllegalConnectionMoveError)
  })
})

describe('newConnection', () => {
  it.each(CONNECTION_INITIAL_STATES)('creates a connection %s', (state) => {
    const connection = newConnection(ALICE, state)
    expect(connection).toEqual({ endpoint: ALICE, state })
    // The stored and emitted JSON keeps its field order.
    expect(Object.keys(connection)).toEqual(['endpoint', 'state'])
  })

  const notInitial = MEDIA_STATES.filter(
    (state) => !(CONNECTION_INITIAL_STATES as readonly MediaState[]).includes(state),
  )
  it.each(notInitial)('refuses to create a connection %s, as a bug', (state) => {
    const create = () => newConnection(ALICE, state)
    expect(create).toThrow(IllegalConnectionMoveError)
    expect(create).toThrow(`device 1001 of 'alice' cannot join a call ${state}`)
  })
})

describe('the operations', () => {
  const folder = new URL('../../src/platform/telephony/operations/', import.meta.url)
  const sources = readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name, text: readFileSync(new URL(name, folder), 'utf8') }))
  const literal = new RegExp(`state:\\s*'(${MEDIA_STATES.join('|')})'`)

  it('set no connection state but through moveConnection, and create none but with newConnection', () => {
    expect(sources.length).toBeGreaterThan(0)
    for (const { name, text } of sources) {
      expect(text, `${name} assigns a state`).not.toMatch(/\.state\s*=[^=]/)
      expect(text, `${name} writes a connection literal`).not.toMatch(literal)
    }
  })
})
