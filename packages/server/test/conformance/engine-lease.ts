/** The behaviour every EngineLease adapter must show on its own, run once per adapter by its test file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EngineLease } from '../../src/platform/telephony/engine-lease.js'

export function engineLeaseConformance(name: string, create: () => Promise<EngineLease>): void {
  describe(`EngineLease conformance: ${name}`, () => {
    let lease: EngineLease

    beforeEach(async () => {
      lease = await create()
    })

    afterEach(async () => {
      await lease.close()
    })

    it('owns the engine once acquired, under a positive whole epoch', async () => {
      const term = await lease.acquire()

      expect(term.isHeld).toBe(true)
      expect(Number.isSafeInteger(term.epoch) && term.epoch >= 1).toBe(true)
    })

    it('refuses a second acquire while it owns the engine, and keeps the term', async () => {
      const term = await lease.acquire()

      await expect(lease.acquire()).rejects.toThrow('owns the call engine')
      expect(term.isHeld).toBe(true)
    })

    it('ends the term as released when given up, and takes the next under a greater epoch', async () => {
      const first = await lease.acquire()

      await first.release()

      expect(first.isHeld).toBe(false)
      expect(await first.lost).toStrictEqual({ reason: 'released' })
      const second = await lease.acquire()
      expect(second.isHeld).toBe(true)
      expect(second.epoch).toBeGreaterThan(first.epoch)
    })

    it('ends the term as released when closed, and refuses to acquire after', async () => {
      const term = await lease.acquire()

      await lease.close()

      expect(term.isHeld).toBe(false)
      expect(await term.lost).toStrictEqual({ reason: 'released' })
      await expect(lease.acquire()).rejects.toThrow('The engine lease is closed')
    })
  })
}
