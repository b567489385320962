/**
 * The services SessionInfo lists (specification, "Session"; wire facts 2.3), limited to the services this
 * server provides and, for a user session, to those the user's licenses allow.
 */
import type { Service, UserRight } from '@openness/wire'
import type { Session } from '../platform/sessions/session.js'

interface CatalogEntry extends Service {
  /** Licenses of which the session needs one; none means every session. */
  anyOf?: readonly UserRight[]
}

const TELEPHONY: readonly UserRight[] = ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED']
/** The device rows of the telephony API need TELEPHONY_ADVANCED (docs/telephony-api.md). */
const ADVANCED_TELEPHONY: readonly UserRight[] = ['TELEPHONY_ADVANCED']
const NOTIFICATION: readonly UserRight[] = ['TELEPHONY_ADVANCED', 'MESSAGING', 'CONFERENCING']

/** The user-session list of the specification, in its order. */
const USER_SERVICES: readonly CatalogEntry[] = [
  { serviceName: 'Users', relativeUrl: '/users' },
  { serviceName: 'Telephony', relativeUrl: '/telephony/calls', anyOf: TELEPHONY },
  { serviceName: 'Logins', relativeUrl: '/logins' },
  { serviceName: 'Devices', relativeUrl: '/telephony/devices', anyOf: ADVANCED_TELEPHONY },
  { serviceName: 'State', relativeUrl: '/telephony/state', anyOf: TELEPHONY },
  { serviceName: 'Directory', relativeUrl: '/directory' },
  { serviceName: 'EventSummary', relativeUrl: '/eventSummary' },
  { serviceName: 'Groups', relativeUrl: '/groups' },
  { serviceName: 'Routing', relativeUrl: '/routing' },
  { serviceName: 'Subscriptions', relativeUrl: '/subscriptions', anyOf: NOTIFICATION },
  { serviceName: 'Comlog', relativeUrl: '/comlog/records' },
  // The SDKs look the messaging service up as `voicemail` (wire facts 8.5); a user needs MESSAGING.
  { serviceName: 'Voicemail', relativeUrl: '/messaging/mailboxes', anyOf: ['MESSAGING'] },
  // The contact center (docs/contact-center.md): the SDKs look these up by name; relativeUrls of our own, never
  // under /telephony (the Node SDK takes any such URL for the telephony service).
  { serviceName: 'AcdAgent', relativeUrl: '/acd/agent' },
  { serviceName: 'AcdPilotMonitoring', relativeUrl: '/acd/pilotmonitoring' },
  { serviceName: 'AcdManagement', relativeUrl: '/acd/management' },
]

/**
 * For an administrator session the Users service points to /logins (specification, "Service"); the
 * maintenance service (wire facts 8.6, not in the specification) is for administrators only: the Node, C#
 * and browser SDKs look up `maintenance`, the Java SDK uses `/system` whatever SessionInfo says.
 */
const ADMINISTRATOR_SERVICES: readonly CatalogEntry[] = [
  ...USER_SERVICES.map((entry) =>
    entry.serviceName === 'Users' ? { ...entry, relativeUrl: '/logins' } : entry,
  ),
  { serviceName: 'Maintenance', relativeUrl: '/system' },
]

/** The services route plugins declared they provide. */
export class ServiceCatalog {
  /** Each service provided, with the sessions it is listed for when not every session's. */
  private readonly provided = new Map<string, ((session: Session) => boolean) | undefined>()

  /**
   * Declares that the server serves this service (called by the route plugin that implements it); `listedFor`
   * narrows the sessions whose SessionInfo lists it (the contact center's services: its operators').
   */
  provide(serviceName: string, listedFor?: (session: Session) => boolean): void {
    this.provided.set(serviceName, listedFor)
  }

  /** The services to list in the SessionInfo of `session`. */
  servicesFor(session: Session): Service[] {
    const entries = session.admin ? ADMINISTRATOR_SERVICES : USER_SERVICES
    return entries
      .filter((entry) => this.provided.has(entry.serviceName))
      .filter((entry) => this.provided.get(entry.serviceName)?.(session) ?? true)
      .filter(
        (entry) =>
          session.admin ||
          !entry.anyOf ||
          entry.anyOf.some((right) => session.rights.includes(right)),
      )
      .map(({ serviceName, relativeUrl }) => ({ serviceName, serviceVersion: '1.0', relativeUrl }))
  }
}
