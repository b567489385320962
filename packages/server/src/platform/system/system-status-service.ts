/**
 * The platform's own status (the maintenance service, wire facts 8.6; docs/system-status.md): what the
 * `SystemStatus` document reports, from the running platform (start, links to the simulated PBX node,
 * licenses in use), and the health changes the control plane makes, each published as a `system` event.
 */
import { type SystemStatus, USER_RIGHTS, type UserRight } from '@openness/wire'
import type { Clock, SystemEvent, SystemEventSink } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { Readiness } from '../readiness.js'
import type { LicenseStore } from '../sessions/license-store.js'
import type { PlatformHealth, PlatformHealthStore } from './platform-health-store.js'

const DAY_MS = 86_400_000
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** The most days a license warning may count, either way (ten years). */
export const MAX_LICENSE_DAYS = 3650

/** What the service reads of the rest of the platform. */
export interface SystemStatusSources {
  clock: Pick<Clock, 'now'>
  health: PlatformHealthStore
  events: SystemEventSink
  /** Who holds the licenses now. */
  licenses: Pick<LicenseStore, 'inUse'>
  /** The installed license counts: the directory's settings. */
  installedLicenses: () => Readonly<Record<UserRight, number>>
  readiness: Pick<Readiness, 'lastSwitchOverEnd'>
  /** The PBX node of the directory (users' `nodeId`) and the company it serves. */
  node: () => { nodeId: string; companyName: string }
  /** How many users the node monitors: the directory's users. */
  monitoredUsers: () => number
  /** The server's identity in OnServerStart, and the product's version. */
  serverId: string
  version: string
}

/** Where the server is reached, as the request that asks for the status saw it. */
export interface LogicalAddress {
  fqdn: string
  ip?: string
}

/** The license file's expiry as the product spells it: `28-feb-2026` (UTC). */
export function licenseDate(ms: number): string {
  const date = new Date(ms)
  const day = String(date.getUTCDate()).padStart(2, '0')
  return `${day}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()}`
}

/** A node id as the status's int `nodeId`; undefined when it is not a whole number. */
function numericNodeId(nodeId: string): number | undefined {
  return /^\d{1,9}$/.test(nodeId) ? Number(nodeId) : undefined
}

export class SystemStatusService {
  readonly #sources: SystemStatusSources
  readonly #startedAt: number
  /** Health changes run one at a time: each reads what the previous one saved. */
  #queue: Promise<unknown> = Promise.resolve()

  constructor(sources: SystemStatusSources) {
    this.#sources = sources
    this.#startedAt = sources.clock.now()
  }

  /** When the platform (re)started: its start, or the end of the last switch-over. */
  get startDate(): number {
    const switchOver = this.#sources.readiness.lastSwitchOverEnd
    return switchOver === undefined ? this.#startedAt : Math.max(this.#startedAt, switchOver)
  }

  /** The health in force. */
  health(): Promise<PlatformHealth> {
    return this.#sources.health.load()
  }

  /** The SystemStatus document, `address` being where the asking client reached the server. */
  async status(address: LogicalAddress): Promise<SystemStatus> {
    const health = await this.#sources.health.load()
    const { nodeId, companyName } = this.#sources.node()
    const { version } = this.#sources
    const numeric = numericNodeId(nodeId)
    const running = (up: boolean) => (up ? 'RUNNING' : 'STOPPED')
    return {
      logicalAddress: address,
      startDate: new Date(this.startDate).toISOString(),
      ha: false,
      primary: address.fqdn,
      primaryVersion: version,
      primaryServicesStatus: {
        services: [
          { name: 'gateway', status: 'RUNNING', mode: 'STANDALONE' },
          { name: 'eventDelivery', status: 'RUNNING', mode: 'STANDALONE' },
          {
            name: 'cti',
            status: running(health.pbxLinkUp && health.ctiLinkUp),
            mode: 'STANDALONE',
          },
        ],
      },
      pbxs: [
        {
          name: `${companyName} node ${nodeId}`,
          ...(numeric !== undefined && { nodeId: numeric }),
          mainAddress: { fqdn: `node${nodeId}.pbx.simulated` },
          version,
          connected: health.pbxLinkUp,
          loaded: health.pbxLoaded,
          ctiLinkState: health.ctiLinkUp ? 'CONNECTED_MAIN' : 'DISCONNECTED',
          secured: false,
          monitoredUserNumber: health.pbxLoaded ? this.#sources.monitoredUsers() : 0,
          lmsConnectionStatus: true,
        },
      ],
      license: await this.#licenseStatus(health, address.fqdn, companyName),
      configurationType: 'FULL_SERVICES',
      subscriberFilter: 'ALL',
    }
  }

  /** True when the platform has a license of this name. */
  hasLicense(name: string): boolean {
    return (USER_RIGHTS as readonly string[]).includes(name)
  }

  /** The link to the PBX node goes down or up (OnPbxLinkDown; OnPbxLinkUp, OnPbxLoaded, OnCtiLinkUp). */
  setPbxLink(up: boolean): Promise<PlatformHealth> {
    return this.#change((health, publish) => {
      if (health.pbxLinkUp === up) return health
      if (!up) {
        publish('OnPbxLinkDown')
        if (health.ctiLinkUp) publish('OnCtiLinkDown')
        return { ...health, pbxLinkUp: false, pbxLoaded: false, ctiLinkUp: false }
      }
      publish('OnPbxLinkUp')
      publish('OnPbxLoaded')
      publish('OnCtiLinkUp')
      return { ...health, pbxLinkUp: true, pbxLoaded: true, ctiLinkUp: true }
    })
  }

  /** The CTI link goes down or up (OnCtiLinkDown, OnCtiLinkUp); up needs the PBX link up. */
  setCtiLink(up: boolean): Promise<PlatformHealth> {
    return this.#change((health, publish) => {
      if (health.ctiLinkUp === up) return health
      if (up && !health.pbxLinkUp)
        throw new PlatformError(
          'NOT_EXPECTED',
          'The CTI link cannot come up while the PBX link is down: bring the PBX link up',
        )
      publish(up ? 'OnCtiLinkUp' : 'OnCtiLinkDown')
      return { ...health, ctiLinkUp: up }
    })
  }

  /** A license expiry warning: `nbDays` left (negative: expired since); OnLicenseExpiration. */
  warnLicenseExpiry(nbDays: number, message?: string): Promise<PlatformHealth> {
    if (!Number.isInteger(nbDays) || Math.abs(nbDays) > MAX_LICENSE_DAYS)
      throw new PlatformError(
        'BAD_PARAMETER',
        `nbDays: an integer from -${MAX_LICENSE_DAYS} to ${MAX_LICENSE_DAYS}`,
      )
    const text =
      message ??
      (nbDays >= 0
        ? `The license file expires in ${nbDays} day(s)`
        : `The license file expired ${-nbDays} day(s) ago`)
    return this.#change((health, _node, emit) => {
      emit({ eventName: 'OnLicenseExpiration', message: text, nbDays })
      return {
        ...health,
        licenseWarning: { nbDays, message: text, givenAt: this.#sources.clock.now() },
      }
    })
  }

  /** Withdraws the license warning, if any (no event: the product has none for it). */
  clearLicenseWarning(): Promise<PlatformHealth> {
    return this.#change(({ licenseWarning: _, ...health }) => health)
  }

  /** OnServerStart: published when the platform has started (docs/system-status.md). */
  serverStarted(): void {
    this.#publish({ eventName: 'OnServerStart', serverId: this.#sources.serverId })
  }

  async #licenseStatus(
    health: PlatformHealth,
    server: string,
    context: string,
  ): Promise<SystemStatus['license']> {
    const { licenses, clock } = this.#sources
    const installed = this.#sources.installedLicenses()
    const inUse = await Promise.all(USER_RIGHTS.map((name) => licenses.inUse(name)))
    const warning = health.licenseWarning
    const expiresAt = warning && warning.givenAt + warning.nbDays * DAY_MS
    const expiration = expiresAt === undefined ? undefined : licenseDate(expiresAt)
    const status =
      expiresAt === undefined ? 'OK' : clock.now() >= expiresAt ? 'EXPIRED' : 'EXPIRING'
    return {
      type: 'FLEXLM',
      context,
      currentServer: server,
      status,
      statusMessage: warning?.message ?? 'The license file is valid',
      lics: USER_RIGHTS.map((name, index) => ({
        name,
        total: installed[name],
        currentUsed: inUse[index] ?? 0,
        ...(expiration !== undefined && { expiration }),
      })),
    }
  }

  #publish(event: SystemEvent): void {
    this.#sources.events.publishSystem(event)
  }

  /** Runs one health change after the previous ones; its events go out once it is saved. */
  #change(
    apply: (
      health: PlatformHealth,
      /** Publishes an event about the PBX node (`{nodeId}`, a string as the SDKs read it). */
      node: (eventName: string) => void,
      emit: (event: SystemEvent) => void,
    ) => PlatformHealth,
  ): Promise<PlatformHealth> {
    const run = this.#queue.then(async () => {
      const { health: store } = this.#sources
      const { nodeId } = this.#sources.node()
      // Planned on the health as stored, and again while another node changed it meanwhile: its events are
      // those of the change that was stored.
      for (;;) {
        const events: SystemEvent[] = []
        const before = await store.load()
        const after = apply(
          before,
          (eventName) => events.push({ eventName, nodeId }),
          (event) => events.push(event),
        )
        if (after !== before && !(await store.replace(before, after))) continue
        for (const event of events) this.#publish(event)
        return after
      }
    })
    this.#queue = run.catch(() => undefined)
    return run
  }
}
