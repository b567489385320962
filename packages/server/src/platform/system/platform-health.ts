/**
 * The health a platform starts with (docs/system-status.md, "Health"): the health is ephemeral, so a restart,
 * or a cluster whose shared store holds none yet, starts from here. Every PlatformHealthStore answers it
 * until a health is saved.
 */
import type { PlatformHealth } from './platform-health-store.js'

/** A healthy platform: both links up, the node's users loaded, no license warning. */
export const HEALTHY: Readonly<PlatformHealth> = Object.freeze({
  pbxLinkUp: true,
  ctiLinkUp: true,
  pbxLoaded: true,
})
