/**
 * The vocabulary every domain of the platform shares: time (a clock port and its timers) and the events commands
 * publish. Imports no domain.
 */

/** A scheduled callback that can be cancelled. */
export interface Timer {
  cancel(): void
}

/** Time, injected so that tests drive it and never sleep. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Calls `callback` once after `delayMs` milliseconds. */
  setTimer(delayMs: number, callback: () => void): Timer
  /** Resolves after `delayMs` milliseconds. */
  sleep(delayMs: number): Promise<void>
}

/**
 * An event of the platform as it goes on the wire: `eventName` and its fields, with `loginName` the user it
 * is about (each user sees an event from its own side; design section 4).
 */
export type PlatformEvent = { eventName: string; loginName: string } & Record<string, unknown>

/** Where platform commands hand their events once their state change is stored. */
export interface EventSink {
  /**
   * Delivers the event to every subscription whose selectors match it. `origin`, given by the engine in a
   * cluster, is the event's place in the engine's stored history (`eventOrigin`: its batch, then its index in
   * the batch): a subscription's log that already took an event of that origin or a later one does not take it
   * again, so that a new owner can publish again what its predecessor stored and may not have published
   * (platform/telephony/event-origin.ts).
   */
  publish(event: PlatformEvent, origin?: number): void
}

/**
 * The `loginName` of an event about something other than a user, such as a pilot of the contact center
 * (`pilot:3000`): it routes the event to the subscriptions that name it, as a login name routes a user's, and
 * the event goes on the wire without it. No login name has a colon (docs/directory-file.md).
 */
export function eventSubject(kind: 'pilot', id: string): string {
  return `${kind}:${id}`
}

/** Whether an event's `loginName` is a subject (`eventSubject`) rather than a user's login name. */
export function isEventSubject(loginName: string): boolean {
  return loginName.includes(':')
}

/** An event of the platform itself (package `system`): about no user, so without `loginName`. */
export type SystemEvent = { eventName: string } & Record<string, unknown>

/** Where the platform's own events go: to the administrator subscriptions that name them. */
export interface SystemEventSink {
  publishSystem(event: SystemEvent): void
}
