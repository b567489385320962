/**
 * Runs scenarios (docs/scenarios.md): one at a time on a service, since a run holds and moves the service's
 * clock; each after the service's reset when the file or the request asks for it.
 */
import { PlatformError } from '../../platform/platform-error.js'
import type { ScenarioDependencies } from './scenario-dependencies.js'
import type { ScenarioDocument } from './scenario-document.js'
import type { ScenarioResult } from './scenario-result.js'
import { ScenarioRun } from './scenario-run.js'

/** Options of one run, besides the file's. */
export interface RunOptions {
  /** Reset the service first, whatever the file says (a request's `?reset=true`). */
  reset?: boolean
}

export class ScenarioRunner {
  #queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly deps: ScenarioDependencies) {}

  /** Whether runs may ask for a reset. */
  get canReset(): boolean {
    return this.deps.reset !== undefined
  }

  /**
   * Runs `document` once the runs asked before it are done. A reset asked of a service that has none is
   * refused (NOT_SUPPORTED) before anything happens.
   */
  run(document: ScenarioDocument, options: RunOptions = {}): Promise<ScenarioResult> {
    const reset = options.reset === true || document.reset === true
    if (reset && this.deps.reset === undefined)
      return Promise.reject(
        new PlatformError(
          'NOT_SUPPORTED',
          'reset: this service cannot reset: run the scenario without reset (remove reset: true), or on a fresh service',
        ),
      )
    const run = this.#queue.then(async () => {
      if (reset) await this.deps.reset?.()
      return new ScenarioRun(this.deps, document).execute()
    })
    this.#queue = run.catch(() => undefined)
    return run
  }
}
