/** A running platform with its control plane and the scenario routes over the repository's library. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { SCENARIO_LIBRARY_DIR } from '../../src/assembly/config.js'
import { scenarioServices } from '../../src/assembly/scenario-services.js'
import type { AdjustableClock } from '../../src/clock/adjustable-clock.js'
import { buildControlApp } from '../../src/control/control-app.js'
import { startTestService, type TestService } from '../support/test-service.js'
import { AUTH, TOKEN } from './control-fixture.js'

export interface ScenarioService {
  service: TestService
  control: FastifyInstance
  /** Runs a scenario sent as YAML text: the response. */
  run(yaml: string, query?: string): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

/**
 * Starts the test service (demo directory; the tests' virtual clock, or the running service's `clock`) and a
 * control plane with the scenario routes.
 */
export async function startScenarioService(
  options: { reset?: () => Promise<void>; library?: string; clock?: AdjustableClock } = {},
): Promise<ScenarioService> {
  const service = await startTestService(options.clock && { clock: options.clock })
  const { platform, telephony } = service.running
  const control = await buildControlApp(
    {
      ...platform,
      telephony,
      adjustableClock: options.clock ?? service.clock,
      scenarios: scenarioServices(service.running, service.app, options.reset),
      scenarioLibrary: options.library ?? SCENARIO_LIBRARY_DIR,
    },
    { token: TOKEN },
  )
  return {
    service,
    control,
    run: (yaml, query = '') =>
      control.inject({
        method: 'POST',
        url: `/control/v1/scenarios/run${query}`,
        headers: { ...AUTH, 'content-type': 'application/yaml' },
        payload: yaml,
      }),
    close: async () => {
      await control.close()
      await service.close()
    },
  }
}
