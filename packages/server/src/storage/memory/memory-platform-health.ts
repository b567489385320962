/** The in-memory PlatformHealthStore: the platform starts healthy (docs/system-status.md). */

import { HEALTHY } from '../../platform/system/platform-health.js'
import type {
  PlatformHealth,
  PlatformHealthStore,
} from '../../platform/system/platform-health-store.js'

export class MemoryPlatformHealthStore implements PlatformHealthStore {
  private health: PlatformHealth = HEALTHY

  async load(): Promise<PlatformHealth> {
    return this.health
  }

  async replace(expected: PlatformHealth, next: PlatformHealth): Promise<boolean> {
    if (this.health !== expected) return false
    this.health = next
    return true
  }
}
