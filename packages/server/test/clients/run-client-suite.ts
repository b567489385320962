/** Plays every flow with one SDK's habits and checks the flows covered every operation it calls. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { servedOperations } from './census.js'
import { type Coverage, FLOWS } from './client-flows.js'
import { type ClientProfile, ClientWorld } from './sdk-client.js'

/** Declares the suite of one SDK: one test per flow, each on a service of its own, then the coverage check. */
export function clientSuite(title: string, profile: ClientProfile): void {
  describe(title, () => {
    let world: ClientWorld
    const coverage: Coverage = new Set()
    beforeEach(async () => {
      world = await ClientWorld.start()
    })
    afterEach(() => world.close())

    for (const flow of FLOWS) it(flow.name, () => flow.run(world, profile, coverage))

    it('covers every operation the SDK calls that the server serves (census, section 2)', () => {
      expect([...coverage].sort()).toEqual(servedOperations(profile.tag))
    })
  })
}
