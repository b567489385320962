/** The RoutingStore port in memory: for tests and for a service that keeps nothing across restarts. */
import type { RoutingStore } from '../../platform/ports.js'
import type { RoutingProfile } from '../../platform/routing/routing-profile.js'

export class MemoryRoutingStore implements RoutingStore {
  readonly #profiles = new Map<string, string>()

  async loadAll(): Promise<Map<string, RoutingProfile>> {
    const entries = [...this.#profiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return new Map(entries.map(([login, json]) => [login, JSON.parse(json) as RoutingProfile]))
  }

  async load(loginName: string): Promise<RoutingProfile | undefined> {
    const json = this.#profiles.get(loginName)
    return json === undefined ? undefined : (JSON.parse(json) as RoutingProfile)
  }

  async save(loginName: string, profile: RoutingProfile): Promise<void> {
    // Kept as JSON, as the SQL store keeps it: what was saved cannot change behind the store's back.
    this.#profiles.set(loginName, JSON.stringify(profile))
  }

  async delete(loginName: string): Promise<void> {
    this.#profiles.delete(loginName)
  }
}
