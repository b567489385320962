/**
 * What the platform tells the node's metrics (operations/service-metrics.ts; docs/operations.md, "Metrics"): a
 * port in the domain's words, so that the domain stays free of the metrics library and of time it would read
 * itself. The defaults tell nobody: a platform built without metrics (unit tests, tools) counts nothing.
 */

/** Why a login was refused: a wrong login name or password, or a key (login, address) locked. */
export type LoginRefusal = 'BAD_CREDENTIALS' | 'LOCKED'

/** The kinds of key the login throttle locks (platform/auth/login-throttle.ts). */
export type LockedKey = 'login' | 'address'

/** What the authentication tells. */
export interface LoginMetrics {
  /** An attempt was refused. */
  loginRefused(reason: LoginRefusal): void
  /** A failure locked a key: counted once per lock. */
  keyLocked(kind: LockedKey): void
}

/**
 * How an engine command ended: stored and published (`done`), refused by the engine (`refused`: a
 * PlatformError, nothing changed), or failed to be stored (`failed`).
 */
export type EngineCommandOutcome = 'done' | 'refused' | 'failed'

/** What the call engine's runtime tells. */
export interface EngineMetrics {
  /** A command of `type` starts: the function returned is called once, when it ends. */
  engineCommandStarted(type: string): (outcome: EngineCommandOutcome) => void
}

const ignoreOutcome = (): void => {}

export const NO_LOGIN_METRICS: LoginMetrics = {
  loginRefused: () => {},
  keyLocked: () => {},
}

export const NO_ENGINE_METRICS: EngineMetrics = {
  engineCommandStarted: () => ignoreOutcome,
}
