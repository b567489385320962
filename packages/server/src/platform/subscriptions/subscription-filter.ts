/**
 * Selectors turned into routes (specification, "Subscriptions" Selector and "Events" items 6 to 8): a
 * selector names exact event names or one package, never a mix of packages; ids are login names,
 * optional for a user session (its owner), required for an administrator session; the company-wide
 * events are not filtered by ids. A filter that breaks a rule is refused with a message naming it.
 * Selectors of the real product's own packages not served yet (`rti`, `rsi`...) are accepted and route
 * nothing; those of `system` route the platform's events to administrator subscriptions, whatever their ids;
 * those of `pilot` name pilot numbers.
 */
import {
  COMPANY_WIDE_EVENTS,
  EVENT_PACKAGES,
  type EventPackage,
  isEventPackage,
  PACKAGE_OF_EVENT,
  PRODUCT_ONLY_PACKAGES,
  type Selector,
} from '@openness/wire'
import { eventSubject } from '../events.js'
import { type ClientDialect, packageReaches } from './client-dialect.js'

/** A route of a subscription: these events about these logins. */
export interface SubscriptionRoute {
  eventNames: string[]
  loginNames: string[]
}

/** What compiling a filter needs to know of the subscriber. */
export interface FilterContext {
  /** The login the session acts as. */
  owner: string
  /** An administrator session (ids required; events of the users it lists). */
  admin: boolean
  /** True when `loginName` is a user of the directory. */
  isUser(loginName: string): boolean
  /** True when an administrator subscription may list the user (it holds TELEPHONY_ADVANCED or MESSAGING). */
  maySupervise(loginName: string): boolean
  /** True when `number` is a pilot of the contact center (the `pilot` package's ids); none when absent. */
  isPilot?(number: string): boolean
  /** The contact center's pilots, and its operators (agents and supervisors): selectors without ids. */
  pilots?(): readonly string[]
  operators?(): readonly string[]
  /** Whether `supervisor` is a supervisor of a processing group `agent` is in: it follows the agent's events. */
  supervises?(supervisor: string, agent: string): boolean
  /** The SDK that subscribes, when its package names stand for fewer events (client-dialect.ts). */
  dialect?: ClientDialect | undefined
}

/** The outcome: routes and the users an administrator subscription supervises, or a refusal. */
export type CompiledFilter =
  | { ok: true; routes: SubscriptionRoute[]; supervisedUsers: Set<string> }
  | { ok: false; message: string }

const COMPANY_WIDE = new Set<string>(COMPANY_WIDE_EVENTS)

const refuse = (message: string): CompiledFilter => ({ ok: false, message })

/** What a selector's names stand for: its package and its event names. */
interface SelectedEvents {
  pkg: EventPackage
  eventNames: string[]
  /** The selector named the package, not exact event names. */
  byPackage: boolean
}

/** The events a selector's names stand for, or the reason they are refused. */
function eventNamesOf(given: readonly string[], index: number): SelectedEvents | string {
  const names = [...new Set(given)]
  const packages = new Set<EventPackage>()
  const events: string[] = []
  for (const name of names) {
    if (isEventPackage(name)) {
      packages.add(name)
      events.push(...EVENT_PACKAGES[name])
      continue
    }
    const pkg = PACKAGE_OF_EVENT.get(name)
    if (pkg === undefined)
      return `filter.selectors[${index}].names: '${name}' is neither an event name nor an event package`
    packages.add(pkg)
    events.push(name)
  }
  if (packages.size > 1)
    return `filter.selectors[${index}].names: a selector names one package only (got ${[...packages].join(', ')}): use one selector per package`
  const hasPackage = names.some(isEventPackage)
  if (hasPackage && names.length > 1)
    return `filter.selectors[${index}].names: a selector names either a package or event names, not both`
  const [pkg] = packages
  if (pkg === undefined) return `filter.selectors[${index}].names: must not be empty`
  return { pkg, eventNames: [...new Set(events)], byPackage: hasPackage }
}

/** Compiles the selectors of a subscription request or filter update. */
export function compileFilter(
  selectors: readonly Selector[],
  context: FilterContext,
): CompiledFilter {
  if (selectors.length === 0) return refuse('filter.selectors: at least one selector is needed')
  const routes: SubscriptionRoute[] = []
  const supervisedUsers = new Set<string>()
  for (const [index, selector] of selectors.entries()) {
    const selected = eventNamesOf(selector.names, index)
    if (typeof selected === 'string') return refuse(selected)
    // The real product's own packages (wire facts 4): ids that are no login names, such as `*` for
    // rti and acdstats, and no event the platform sends. Accepted, nothing routed, nobody supervised.
    if (PRODUCT_ONLY_PACKAGES.has(selected.pkg)) continue
    // The pilots' events (docs/contact-center.md): ids are pilot numbers, routed by their subject.
    // Without ids (the C# SDK's selectors), every pilot.
    if (selected.pkg === 'pilot') {
      const named = [...new Set(selector.ids ?? [])]
      const pilots = named.length > 0 ? named : [...(context.pilots?.() ?? [])]
      const unknown = pilots.find((id) => context.isPilot?.(id) !== true)
      if (unknown !== undefined)
        return refuse(`filter.selectors[${index}].ids: no pilot '${unknown}'`)
      routes.push({
        eventNames: selected.eventNames,
        loginNames: pilots.map((id) => eventSubject('pilot', id)),
      })
      continue
    }
    const eventNames = selected.byPackage
      ? selected.eventNames.filter((name) => packageReaches(context.dialect, name))
      : selected.eventNames
    // The platform's own events (docs/system-status.md): administrators get them, the ids are not looked
    // at (the SDKs send none, or `[]`); a user session may name the package (the SDKs add it) and gets none.
    if (selected.pkg === 'system') {
      if (context.admin) routes.push({ eventNames, loginNames: [] })
      continue
    }
    const ids = [...new Set(selector.ids ?? [])]
    // An administrator's agent selector without ids (the C# SDK's AddCallCenterAgentEvents()): every operator of
    // the contact center, as they are now; they are not counted as supervised users.
    if (context.admin && selected.pkg === 'agent' && ids.length === 0) {
      routes.push({ eventNames, loginNames: [...(context.operators?.() ?? [])] })
      continue
    }
    if (context.admin) {
      // OnUserCreated and OnUserDeleted concern every user, "the ids in the selector are not checked"
      // (specification, "Events" 8): the Node SDK's userManagement selector has an empty ids list.
      if (ids.length === 0 && eventNames.every((name) => COMPANY_WIDE.has(name))) {
        routes.push({ eventNames, loginNames: [] })
        continue
      }
      if (ids.length === 0)
        return refuse(
          `filter.selectors[${index}].ids: an administrator session must list at least one login name`,
        )
      const unknown = ids.find((id) => !context.isUser(id))
      if (unknown !== undefined)
        return refuse(`filter.selectors[${index}].ids: no user '${unknown}'`)
      const unlicensed = ids.find((id) => !context.maySupervise(id))
      if (unlicensed !== undefined)
        return refuse(
          `filter.selectors[${index}].ids: user '${unlicensed}' holds neither TELEPHONY_ADVANCED nor MESSAGING`,
        )
      for (const id of ids) supervisedUsers.add(id)
      routes.push({ eventNames, loginNames: ids })
      continue
    }
    // A supervisor's own session follows the agent events of the agents of its groups (its desktop's view).
    const other = ids.find(
      (id) =>
        id !== context.owner &&
        !(selected.pkg === 'agent' && context.supervises?.(context.owner, id) === true),
    )
    if (other !== undefined)
      return refuse(
        `filter.selectors[${index}].ids: a user session receives its own events only (got '${other}')`,
      )
    // OnUserCreated and OnUserDeleted go to administrator subscriptions only (specification, "Events"
    // table). A user session may still name the userManagement package (the Java SDK does); it gets none.
    const ownEvents = eventNames.filter((name) => !COMPANY_WIDE.has(name))
    routes.push({
      eventNames: ownEvents,
      loginNames: selected.pkg === 'agent' && ids.length > 0 ? ids : [context.owner],
    })
  }
  return { ok: true, routes, supervisedUsers }
}
