/**
 * The supervision counter (specification, "Events" item 7 and "Limits"): distinct users of administrator
 * subscriptions, counted once however many subscriptions hold them, within the installed count.
 */
import { describe, expect, it } from 'vitest'
import { SupervisionCounter } from './supervision-counter.js'

const users = (...logins: string[]): Set<string> => new Set(logins)

describe('SupervisionCounter', () => {
  it('starts empty and reports the installed count', () => {
    const counter = new SupervisionCounter(2)
    expect(counter.count).toBe(0)
    expect(counter.installed).toBe(2)
  })

  it('rises when users first join', () => {
    const counter = new SupervisionCounter(5)
    counter.take(users('alice', 'bob'))
    expect(counter.count).toBe(2)
  })

  it('counts a user held by two subscriptions once', () => {
    const counter = new SupervisionCounter(5)
    counter.take(users('alice', 'bob'))
    expect(counter.wouldAdd(users('bob'))).toBe(0)
    counter.take(users('bob'))
    expect(counter.count).toBe(2)
    expect(counter.wouldAdd(users('bob', 'carol'))).toBe(1)
  })

  it('falls only when the last subscription holding a user leaves', () => {
    const counter = new SupervisionCounter(5)
    counter.take(users('alice', 'bob'))
    counter.take(users('bob'))
    counter.give(users('alice', 'bob'))
    expect(counter.count).toBe(1)
    counter.give(users('bob'))
    expect(counter.count).toBe(0)
  })

  it('ignores giving back a user it does not hold', () => {
    const counter = new SupervisionCounter(5)
    counter.take(users('alice'))
    counter.give(users('zoe'))
    expect(counter.count).toBe(1)
  })

  it('fits: within the limit, users already held cost nothing', () => {
    const counter = new SupervisionCounter(2)
    expect(counter.fits(users('alice', 'bob'))).toBe(true)
    expect(counter.fits(users('alice', 'bob', 'carol'))).toBe(false)
    counter.take(users('alice', 'bob'))
    expect(counter.fits(users('bob'))).toBe(true)
    expect(counter.fits(users('alice', 'bob'))).toBe(true)
    expect(counter.fits(users('carol'))).toBe(false)
  })

  it('fits with replacement: the users given back make room', () => {
    const counter = new SupervisionCounter(2)
    counter.take(users('alice', 'bob'))
    // One subscription holding alice and bob replaces its filter with bob and carol.
    expect(counter.wouldAdd(users('bob', 'carol'), users('alice', 'bob'))).toBe(0)
    expect(counter.fits(users('bob', 'carol'), users('alice', 'bob'))).toBe(true)
    expect(counter.fits(users('carol', 'erin'), users('alice', 'bob'))).toBe(true)
    expect(counter.fits(users('bob', 'carol', 'erin'), users('alice', 'bob'))).toBe(false)
  })

  it('fits with replacement: a user another subscription still holds is not freed', () => {
    const counter = new SupervisionCounter(2)
    counter.take(users('alice', 'bob')) // subscription 1
    counter.take(users('alice')) // subscription 2
    // Subscription 2 gives alice back but subscription 1 keeps her: no room for carol.
    expect(counter.wouldAdd(users('carol'), users('alice'))).toBe(1)
    expect(counter.fits(users('carol'), users('alice'))).toBe(false)
    // Subscription 1 gives alice back for carol: alice stays held by 2, so still no room.
    expect(counter.fits(users('bob', 'carol'), users('alice', 'bob'))).toBe(false)
    // Subscription 1 keeps bob only: fits.
    expect(counter.fits(users('bob'), users('alice', 'bob'))).toBe(true)
  })

  it('take and give applied after fits with replacement give the predicted count', () => {
    const counter = new SupervisionCounter(3)
    counter.take(users('alice', 'bob'))
    const next = users('bob', 'carol', 'erin')
    const previous = users('alice', 'bob')
    const predicted = counter.count + counter.wouldAdd(next, previous)
    counter.take(next)
    counter.give(previous)
    expect(counter.count).toBe(predicted)
    expect(counter.count).toBe(3)
  })
})
