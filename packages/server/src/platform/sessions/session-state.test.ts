import { describe, expect, it } from 'vitest'
import { PlatformError } from '../platform-error.js'
import { Session } from './session.js'
import { canTransition, SESSION_TRANSITIONS, type SessionState } from './session-state.js'

const session = () =>
  new Session({
    sessionId: 's',
    token: 't',
    kind: 'USER',
    owner: 'alice',
    actingAs: 'alice',
    admin: false,
    applicationName: 'app',
    rights: [],
    createdAt: 0,
    expiresAt: 1000,
  })

describe('session state machine', () => {
  it.each([
    ['OPEN', 'OPEN', true],
    ['OPEN', 'CLOSED', true],
    ['CLOSED', 'OPEN', false],
    ['CLOSED', 'CLOSED', false],
  ] as [SessionState, SessionState, boolean][])('%s -> %s allowed: %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed)
  })

  it('has exactly the states of the table', () => {
    expect(Object.keys(SESSION_TRANSITIONS)).toEqual(['OPEN', 'CLOSED'])
  })

  it('moves OPEN -> OPEN on use, restarting the timer', () => {
    const s = session()
    s.touch(5000)
    expect([s.state, s.expiresAt]).toEqual(['OPEN', 5000])
  })

  it('moves OPEN -> CLOSED with its cause, and refuses any move after', () => {
    const s = session()
    s.close('EXPIRED')
    expect([s.state, s.closeCause, s.isOpen]).toEqual(['CLOSED', 'EXPIRED', false])
    expect(() => s.touch(9000)).toThrow(PlatformError)
    expect(() => s.close('CLOSED_BY_CLIENT')).toThrow(/closed/)
  })
})
