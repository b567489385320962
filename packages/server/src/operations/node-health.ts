/**
 * What a load balancer or an orchestrator asks a node (docs/operations.md): is the process alive, and is it ready
 * to take requests. Ready means every dependency the node needs answers (the database now; Redis and the engine's
 * state in cluster mode, docs/cluster.md) and the node is not draining before a stop. The control plane's
 * simulated faults (NOT_READY, switch-over) are the simulated platform's, shown to API clients: they do not make
 * the node unready, or a load balancer would hide them from the clients meant to see them.
 */

/** One dependency of the node: `probe` resolves when it answers, rejects (or times out) when it does not. */
export interface HealthCheck {
  name: string
  probe(): Promise<unknown>
}

/** A dependency's state as the readiness answer lists it. */
export type CheckState = 'UP' | 'DOWN'

/** The readiness answer: UP only when every check is; DRAINING from the moment a stop began. */
export interface Readiness {
  status: 'UP' | 'DOWN' | 'DRAINING'
  checks: Record<string, CheckState>
}

/** How long a check may take before it counts as DOWN. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000

export class NodeHealth {
  readonly #checks: readonly HealthCheck[]
  readonly #timeoutMs: number
  #draining = false

  constructor(checks: readonly HealthCheck[], timeoutMs = HEALTH_CHECK_TIMEOUT_MS) {
    this.#checks = checks
    this.#timeoutMs = timeoutMs
  }

  /** From now on the node answers not ready (a stop began); it keeps serving what it is asked. */
  drain(): void {
    this.#draining = true
  }

  get draining(): boolean {
    return this.#draining
  }

  /** Runs every check at once, each bounded by the timeout. */
  async readiness(): Promise<Readiness> {
    const states = await Promise.all(
      this.#checks.map(async (check) => [check.name, await this.#state(check)] as const),
    )
    const checks: Record<string, CheckState> = Object.fromEntries(states)
    const status = this.#draining
      ? 'DRAINING'
      : states.every(([, state]) => state === 'UP')
        ? 'UP'
        : 'DOWN'
    return { status, checks }
  }

  async #state(check: HealthCheck): Promise<CheckState> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), this.#timeoutMs)
    })
    try {
      await Promise.race([check.probe(), timeout])
      return 'UP'
    } catch {
      return 'DOWN'
    } finally {
      clearTimeout(timer)
    }
  }
}
