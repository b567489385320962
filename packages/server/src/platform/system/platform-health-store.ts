/** The port of the simulated platform's health as the control plane set it (docs/system-status.md). */

/**
 * The simulated platform's health as the control plane set it (docs/system-status.md): the links to the
 * PBX node and whether its users are loaded, and a license expiry warning. Ephemeral: a restart starts
 * healthy.
 */
export interface PlatformHealth {
  /** The link to the PBX node is up. */
  pbxLinkUp: boolean
  /** The CTI (CSTA) link to the PBX node is up. */
  ctiLinkUp: boolean
  /** The node's users are loaded (after the PBX link came up). */
  pbxLoaded: boolean
  /** A license expiry warning in force: days left (negative: days since), when it was given. */
  licenseWarning?: { nbDays: number; message: string; givenAt: number }
}

/** Where the platform's health is kept (a memory adapter; the cluster mode shares it on Redis). */
export interface PlatformHealthStore {
  load(): Promise<PlatformHealth>
  /**
   * Stores `next` while the health stored is still `expected` (as `load` answered it); false, storing nothing,
   * when another node changed it since (docs/cluster.md, "No lost update").
   */
  replace(expected: PlatformHealth, next: PlatformHealth): Promise<boolean>
}
