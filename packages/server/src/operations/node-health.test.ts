/** Readiness: UP when every check answers, DOWN when one fails or takes too long, DRAINING once a stop began. */
import { describe, expect, it } from 'vitest'
import { NodeHealth } from './node-health.js'

const up = { name: 'database', probe: async () => 1 }

describe('NodeHealth', () => {
  it('is UP when every check answers', async () => {
    const health = new NodeHealth([up, { name: 'redis', probe: async () => 'PONG' }])
    expect(await health.readiness()).toStrictEqual({
      status: 'UP',
      checks: { database: 'UP', redis: 'UP' },
    })
  })

  it('is DOWN, naming the check, when one fails or does not answer in time', async () => {
    const health = new NodeHealth(
      [
        up,
        { name: 'redis', probe: () => Promise.reject(new Error('ECONNREFUSED')) },
        { name: 'engine', probe: () => new Promise(() => {}) },
      ],
      20,
    )
    expect(await health.readiness()).toStrictEqual({
      status: 'DOWN',
      checks: { database: 'UP', redis: 'DOWN', engine: 'DOWN' },
    })
  })

  it('is DRAINING once a stop began, its checks still listed', async () => {
    const health = new NodeHealth([up])
    health.drain()
    expect(health.draining).toBe(true)
    expect(await health.readiness()).toStrictEqual({
      status: 'DRAINING',
      checks: { database: 'UP' },
    })
  })
})
