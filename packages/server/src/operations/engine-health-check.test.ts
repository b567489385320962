import { describe, expect, it } from 'vitest'
import { engineHealthCheck } from './engine-health-check.js'
import { NodeHealth } from './node-health.js'

describe('engineHealthCheck', () => {
  it('makes the node ready only while its engine is caught up', async () => {
    const engine = { isCaughtUp: false }
    const health = new NodeHealth([engineHealthCheck(engine)])

    expect(await health.readiness()).toStrictEqual({ status: 'DOWN', checks: { engine: 'DOWN' } })
    engine.isCaughtUp = true
    expect(await health.readiness()).toStrictEqual({ status: 'UP', checks: { engine: 'UP' } })
  })
})
