/** The RoutingStore port in memory: for tests and for a service that keeps nothing across restarts. */
import { randomBytes } from 'node:crypto'
import type { RoutingProfile } from '../../platform/routing/routing-profile.js'
import type {
  RevisedProfile,
  RoutingCommit,
  RoutingStore,
  RoutingWrite,
} from '../../platform/routing/routing-store.js'

/** A stored profile: kept as JSON, as the SQL store keeps it, so that it cannot change behind the store. */
interface Row {
  json: string
  revision: string
}

export class MemoryRoutingStore implements RoutingStore {
  readonly #profiles = new Map<string, Row>()

  async loadAll(): Promise<Map<string, RevisedProfile>> {
    const entries = [...this.#profiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return new Map(entries.map(([login, row]) => [login, revised(row)]))
  }

  async load(loginName: string): Promise<RevisedProfile | undefined> {
    const row = this.#profiles.get(loginName)
    return row === undefined ? undefined : revised(row)
  }

  async commit(write: RoutingWrite): Promise<RoutingCommit> {
    // Planned on no profile and leaving none, the change writes nothing: there was nothing to undo.
    const nothing = write.profile === undefined && write.revision === undefined
    const checked = new Map(write.read)
    if (!nothing) checked.set(write.loginName, write.revision)
    const stale = [...checked]
      .filter(([login, revision]) => this.#profiles.get(login)?.revision !== revision)
      .map(([login]) => login)
    if (stale.length > 0) return { stale }
    if (write.profile === undefined) {
      this.#profiles.delete(write.loginName)
      return { revision: undefined }
    }
    const row = {
      json: JSON.stringify(write.profile),
      revision: randomBytes(9).toString('base64url'),
    }
    this.#profiles.set(write.loginName, row)
    return { revision: row.revision }
  }
}

function revised(row: Row): RevisedProfile {
  return { profile: JSON.parse(row.json) as RoutingProfile, revision: row.revision }
}
