/**
 * Routes platform events to subscriptions through an index by event name and login name, so that an
 * event costs a lookup, not a scan of every subscription (issue 3, delivery design). Each event is
 * serialized once, whatever the number of subscriptions it reaches.
 */
import { COMPANY_WIDE_EVENTS, SYSTEM_EVENTS } from '@openness/wire'
import {
  type EventSink,
  isEventSubject,
  type PlatformEvent,
  type SystemEvent,
  type SystemEventSink,
} from '../platform/events.js'
import type { EventRewrite } from './event-variants.js'

/**
 * An event serialized once for all its subscriptions: its JSON text, and what every channel's numbered line
 * of it shares (its text without the closing brace, encoded), made once on first use.
 */
export class SerializedEvent {
  /** `json` without its closing brace, encoded once for the numbered lines of every channel. */
  private head: Buffer | undefined
  private variants: Map<EventRewrite, SerializedEvent> | undefined

  /**
   * `source` is the event `json` serializes, for the variants some clients get (event-variants.ts); `origin`
   * its place in the engine's stored history, when the engine published it (EventSink.publish).
   */
  constructor(
    readonly json: string,
    readonly source?: PlatformEvent,
    readonly origin?: number,
  ) {}

  /** The event rewritten for a client dialect, serialized once for every channel of that dialect. */
  rewritten(rewrite: EventRewrite): SerializedEvent {
    if (this.source === undefined) return this
    this.variants ??= new Map()
    let variant = this.variants.get(rewrite)
    if (variant === undefined) {
      const event = rewrite(this.source)
      variant =
        event === this.source
          ? this
          : new SerializedEvent(JSON.stringify(event), event, this.origin)
      this.variants.set(rewrite, variant)
    }
    return variant
  }

  /**
   * The event numbered `sequence` for one channel (chunk-framing.ts, `sequenced`) with its newline, as one HTTP/1.1
   * chunk, for the channels that write to their socket: one small buffer a channel, filled from the event's bytes
   * encoded once for all (`json` without its closing brace) and the number's few ASCII bytes, so that no channel
   * encodes the event again.
   */
  sequencedChunk(sequence: number): Buffer {
    this.head ??= Buffer.from(this.json.slice(0, -1))
    const suffix = `,"sequence":${sequence}}\n`
    const size = this.head.length + suffix.length
    const prefix = `${size.toString(16)}\r\n`
    const chunk = Buffer.allocUnsafe(prefix.length + size + 2)
    let at = chunk.write(prefix, 0, 'latin1')
    at += this.head.copy(chunk, at)
    at += chunk.write(suffix, at, 'latin1')
    chunk.write('\r\n', at, 'latin1')
    return chunk
  }
}

/** Where routed events go: a subscription's delivery. */
export interface EventTarget {
  /** Takes one event; the same instance goes to every target of a publication. */
  deliver(event: SerializedEvent): void
}

/** One entry of a target's routing: these event names about these logins (`*` for any login). */
export interface Route {
  eventNames: readonly string[]
  loginNames: readonly string[]
}

/** The event's JSON on the wire: without its `loginName` when that is a subject (a pilot's events). */
function wireJson(event: PlatformEvent): string {
  if (!isEventSubject(event.loginName)) return JSON.stringify(event)
  const { loginName: _, ...rest } = event
  return JSON.stringify(rest)
}

/** The key that matches any login, used for company-wide events. */
export const ANY_LOGIN = '*'

/** Events routed by name only: company-wide ones and the platform's own (`system`). */
const companyWide = new Set<string>([...COMPANY_WIDE_EVENTS, ...SYSTEM_EVENTS])

/** The index of routes, and the EventSink the platform publishes to. */
export class EventRouter implements EventSink, SystemEventSink {
  private readonly index = new Map<string, Map<string, Set<EventTarget>>>()
  private readonly keysOf = new Map<EventTarget, [string, string][]>()

  /** Sets the routes of `target`, replacing any it had. */
  route(target: EventTarget, routes: readonly Route[]): void {
    this.unroute(target)
    const keys: [string, string][] = []
    for (const { eventNames, loginNames } of routes) {
      for (const name of eventNames) {
        const logins = companyWide.has(name) ? [ANY_LOGIN] : loginNames
        for (const login of logins) {
          let byLogin = this.index.get(name)
          if (byLogin === undefined) {
            byLogin = new Map()
            this.index.set(name, byLogin)
          }
          let targets = byLogin.get(login)
          if (targets === undefined) {
            targets = new Set()
            byLogin.set(login, targets)
          }
          targets.add(target)
          keys.push([name, login])
        }
      }
    }
    this.keysOf.set(target, keys)
  }

  /** Removes every route of `target`. */
  unroute(target: EventTarget): void {
    for (const [name, login] of this.keysOf.get(target) ?? []) {
      const byLogin = this.index.get(name)
      const targets = byLogin?.get(login)
      targets?.delete(target)
      if (targets?.size === 0) byLogin?.delete(login)
      if (byLogin?.size === 0) this.index.delete(name)
    }
    this.keysOf.delete(target)
  }

  publish(event: PlatformEvent, origin?: number): void {
    const byLogin = this.index.get(event.eventName)
    if (byLogin === undefined) return
    const own = byLogin.get(event.loginName)
    const any = byLogin.get(ANY_LOGIN)
    if (own === undefined && any === undefined) return
    const serialized = new SerializedEvent(wireJson(event), event, origin)
    if (own !== undefined && any !== undefined) {
      for (const target of new Set([...own, ...any])) target.deliver(serialized)
      return
    }
    for (const target of own ?? any ?? []) target.deliver(serialized)
  }

  /** Delivers an event about no user (package `system`) to the targets routed to its name. */
  publishSystem(event: SystemEvent): void {
    const targets = this.index.get(event.eventName)?.get(ANY_LOGIN)
    if (targets === undefined) return
    const serialized = new SerializedEvent(JSON.stringify(event))
    for (const target of targets) target.deliver(serialized)
  }

  /** How many targets have routes (for tests and metrics). */
  get size(): number {
    return this.keysOf.size
  }
}
