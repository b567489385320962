import { describe, expect, it } from 'vitest'
import { ENGINE_REQUEST_START_MARGIN_MS, requestDeadline } from './memory-engine-command-queue.js'

describe('requestDeadline', () => {
  it("leaves the owner a second, before the submitter's bound, to store and answer what it started", () => {
    expect(requestDeadline(10_000, 5_000)).toBe(10_000 + 5_000 - ENGINE_REQUEST_START_MARGIN_MS)
    expect(ENGINE_REQUEST_START_MARGIN_MS).toBe(1_000)
  })

  it('keeps half of a short bound for starting (tests run with bounds of a second)', () => {
    expect(requestDeadline(0, 1_000)).toBe(500)
    expect(requestDeadline(0, 1_500)).toBe(750)
    expect(requestDeadline(0, 2_000)).toBe(1_000)
  })
})
