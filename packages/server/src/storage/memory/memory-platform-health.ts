/** The in-memory PlatformHealthStore: the platform starts healthy (docs/system-status.md). */
import type { PlatformHealth, PlatformHealthStore } from '../../platform/ports.js'

/** A healthy platform: both links up, the node's users loaded, no license warning. */
export const HEALTHY: PlatformHealth = { pbxLinkUp: true, ctiLinkUp: true, pbxLoaded: true }

export class MemoryPlatformHealthStore implements PlatformHealthStore {
  private health: PlatformHealth = HEALTHY

  async load(): Promise<PlatformHealth> {
    return this.health
  }

  async save(health: PlatformHealth): Promise<void> {
    this.health = health
  }
}
