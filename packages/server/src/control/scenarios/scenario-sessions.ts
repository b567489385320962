/**
 * The API sessions of the users whose applications act in a run (docs/scenarios.md, "The script"): opened
 * at a user's first step with a credential the platform issues for the user (no password: the operator acts
 * for the user), kept alive as an application keeps its session alive, closed at the end of the run.
 */
import type {
  InjectedAnswer,
  InjectedRequest,
  ScenarioDependencies,
} from './scenario-dependencies.js'
import { helpOf } from './scenario-world.js'

/** How often, on the run's clock, a session unused meanwhile is kept alive: below the shortest SESSION_TTL (10 s). */
const KEEPALIVE_MS = 5_000

interface OpenSession {
  cookie: string
  lastUsed: number
}

export class ScenarioSessions {
  readonly #sessions = new Map<string, OpenSession>()

  constructor(
    private readonly deps: ScenarioDependencies,
    private readonly applicationName: string,
  ) {}

  /** The Cookie header of the user's session, opening it at the first call. */
  async cookieOf(loginName: string): Promise<string> {
    const open = this.#sessions.get(loginName)
    if (open !== undefined) return open.cookie
    const token = await this.deps.issueToken(loginName)
    const cookie = `${this.deps.cookieName}=${token}`
    const answer = await this.deps.api({
      method: 'POST',
      url: '/api/rest/1.0/sessions',
      headers: { cookie },
      body: { applicationName: this.applicationName },
    })
    if (answer.status !== 200)
      throw new Error(`the session of ${loginName} did not open: ${helpOf(answer)}`)
    this.#sessions.set(loginName, { cookie, lastUsed: this.deps.clock.now() })
    return cookie
  }

  /** Sends a request of the user's application. */
  async api(loginName: string, request: InjectedRequest): Promise<InjectedAnswer> {
    const open = this.#sessions.get(loginName)
    if (open !== undefined) open.lastUsed = this.deps.clock.now()
    return this.deps.api(request)
  }

  /** Keeps alive the sessions unused for a while, before the clock moves on. */
  async keepAlive(): Promise<void> {
    const now = this.deps.clock.now()
    for (const session of this.#sessions.values()) {
      if (now - session.lastUsed < KEEPALIVE_MS) continue
      session.lastUsed = now
      // A session a fault closed stays closed: the application's next request is told, as a real one is.
      await this.deps.api({
        method: 'POST',
        url: '/api/rest/1.0/sessions/keepalive',
        headers: { cookie: session.cookie },
      })
    }
  }

  /** Closes every session the run opened. */
  async close(): Promise<void> {
    for (const { cookie } of this.#sessions.values())
      await this.deps
        .api({ method: 'DELETE', url: '/api/rest/1.0/sessions', headers: { cookie } })
        .catch(() => undefined)
    this.#sessions.clear()
  }
}
