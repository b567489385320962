import { describe, expect, it } from 'vitest'
import type { Clock } from '../events.js'
import { VerifiedPasswords } from './verified-passwords.js'

function clockAt(start: number): Clock & { advance(ms: number): void } {
  let now = start
  return {
    now: () => now,
    setTimer: () => ({ cancel: () => {} }),
    sleep: async () => {},
    advance: (ms) => {
      now += ms
    },
  }
}

describe('VerifiedPasswords', () => {
  it('knows a password it was told matches a hash, and nothing else', () => {
    const cache = new VerifiedPasswords(clockAt(0), 60)
    cache.remember('hash-a', 'secret')
    expect(cache.has('hash-a', 'secret')).toBe(true)
    expect(cache.has('hash-a', 'Secret')).toBe(false)
    expect(cache.has('hash-a', '')).toBe(false)
    expect(cache.has('hash-b', 'secret')).toBe(false)
  })

  it('forgets an entry once its time to live is over', () => {
    const clock = clockAt(1_000)
    const cache = new VerifiedPasswords(clock, 60)
    cache.remember('hash-a', 'secret')
    clock.advance(59_999)
    expect(cache.has('hash-a', 'secret')).toBe(true)
    clock.advance(1)
    expect(cache.has('hash-a', 'secret')).toBe(false)
    expect(cache.size).toBe(0)
  })

  it('restarts the time to live when told again', () => {
    const clock = clockAt(0)
    const cache = new VerifiedPasswords(clock, 60)
    cache.remember('hash-a', 'secret')
    clock.advance(50_000)
    cache.remember('hash-a', 'secret')
    clock.advance(50_000)
    expect(cache.has('hash-a', 'secret')).toBe(true)
  })

  it('keeps at most 10,000 entries, forgetting the oldest', () => {
    const cache = new VerifiedPasswords(clockAt(0), 60)
    for (let i = 0; i <= 10_000; i++) cache.remember(`hash-${i}`, `secret-${i}`)
    expect(cache.size).toBe(10_000)
    expect(cache.has('hash-0', 'secret-0')).toBe(false)
    expect(cache.has('hash-1', 'secret-1')).toBe(true)
    expect(cache.has('hash-10000', 'secret-10000')).toBe(true)
  })
})
