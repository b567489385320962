import { describe, expect, it } from 'vitest'
import { LicensePool } from './license-pool.js'

const installed = { TELEPHONY_BASIC: 2, TELEPHONY_ADVANCED: 1, MESSAGING: 0, CONFERENCING: 1 }

describe('LicensePool', () => {
  it('counts a user once however many references it takes', () => {
    const pool = new LicensePool(installed)
    expect(pool.acquire('TELEPHONY_ADVANCED', 'alice')).toBe(true)
    expect(pool.acquire('TELEPHONY_ADVANCED', 'alice')).toBe(true)
    expect(pool.inUse('TELEPHONY_ADVANCED')).toBe(1)
  })

  it('refuses a new user when every installed license is held', () => {
    const pool = new LicensePool(installed)
    expect(pool.acquire('TELEPHONY_ADVANCED', 'alice')).toBe(true)
    expect(pool.acquire('TELEPHONY_ADVANCED', 'bob')).toBe(false)
    expect(pool.acquire('MESSAGING', 'bob')).toBe(false)
  })

  it('frees the license when the last reference goes', () => {
    const pool = new LicensePool(installed)
    pool.acquire('TELEPHONY_ADVANCED', 'alice')
    pool.acquire('TELEPHONY_ADVANCED', 'alice')
    pool.release('TELEPHONY_ADVANCED', 'alice')
    expect(pool.acquire('TELEPHONY_ADVANCED', 'bob')).toBe(false)
    pool.release('TELEPHONY_ADVANCED', 'alice')
    expect(pool.inUse('TELEPHONY_ADVANCED')).toBe(0)
    expect(pool.acquire('TELEPHONY_ADVANCED', 'bob')).toBe(true)
  })
})
