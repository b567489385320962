/**
 * The event summary of each user (wire facts 8.1; docs/event-summary.md): the counters of what waits for
 * the user, read from the features that keep them, and OnEventSummaryUpdated each time one of them changes.
 * A feature whose counter moved calls `changed(loginName)`; the summary is published only when it differs
 * from the one last published to the user, so an event always means a counter changed.
 */
import type { EventSummary } from '@openness/wire'
import type { EventSink } from '../events.js'

/**
 * Where the counters come from. Each feature keeps its own; the summary only reads them. Voice mail
 * (issue 13) plugs in as `voiceMessages`, and calls `EventSummaryService.changed` when its count moves.
 */
export interface SummaryCounters {
  /** Incoming calls the user did not answer and has not acknowledged in the communication log. */
  missedCalls(loginName: string): Promise<number>
  /** Call back requests waiting for the user (GET /telephony/incomingCallbacks). */
  callbackRequests(loginName: string): number
  /** New voice messages of the user: none until voice mail exists. */
  voiceMessages?(loginName: string): Promise<number>
  /** Unread mini messages of the user (docs/telephony-api.md, "Mini messages"): none without them. */
  textMessages?(loginName: string): Promise<number>
}

export class EventSummaryService {
  readonly #counters: SummaryCounters
  readonly #events: EventSink
  /** The summary last published to each user, as JSON: a change publishes only when it differs. */
  readonly #published = new Map<string, string>()
  /** Per user, the tail of the refreshes asked, so that they publish in order. */
  readonly #pending = new Map<string, Promise<void>>()

  readonly #onError: (error: unknown, loginName: string) => void

  /** `onError` is told of a refresh that failed (a counter could not be read): no event was published. */
  constructor(
    counters: SummaryCounters,
    events: EventSink,
    onError: (error: unknown, loginName: string) => void = () => {},
  ) {
    this.#counters = counters
    this.#events = events
    this.#onError = onError
  }

  /** The user's summary now. */
  async summary(loginName: string): Promise<EventSummary> {
    const [missedCallsNb, voiceMessagesNb, newTextNb] = await Promise.all([
      this.#counters.missedCalls(loginName),
      this.#counters.voiceMessages?.(loginName) ?? 0,
      this.#counters.textMessages?.(loginName) ?? 0,
    ])
    const callBackRequestsNb = this.#counters.callbackRequests(loginName)
    return {
      missedCallsNb,
      voiceMessagesNb,
      callBackRequestsNb,
      // No fax; the text messages are the mini messages, gone once read: none is old (docs/event-summary.md).
      faxNb: 0,
      newTextNb,
      oldTextNb: 0,
      eventWaiting: missedCallsNb + voiceMessagesNb + callBackRequestsNb + newTextNb > 0,
    }
  }

  /**
   * A counter of the user changed: publishes OnEventSummaryUpdated with the new summary unless it equals
   * the one last published. Resolves once published (or found unchanged).
   */
  changed(loginName: string): Promise<void> {
    const previous = this.#pending.get(loginName) ?? Promise.resolve()
    const next = previous
      .then(() => this.#publish(loginName))
      .catch((error: unknown) => this.#onError(error, loginName))
    this.#pending.set(loginName, next)
    void next.then(() => {
      if (this.#pending.get(loginName) === next) this.#pending.delete(loginName)
    })
    return next
  }

  /**
   * Forgets the summaries published (a reset or restore replaced the log and the messages, and closed every
   * session: docs/sandbox.md), once the refreshes under way are done: the next change of a user's counters
   * publishes them, whatever was published before.
   */
  async restored(): Promise<void> {
    await this.idle()
    this.#published.clear()
  }

  /** Resolves once every refresh asked so far is done (tests). */
  async idle(): Promise<void> {
    await Promise.all(this.#pending.values())
  }

  async #publish(loginName: string): Promise<void> {
    const eventSummary = await this.summary(loginName)
    const json = JSON.stringify(eventSummary)
    if (this.#published.get(loginName) === json) return
    this.#published.set(loginName, json)
    this.#events.publish({ eventName: 'OnEventSummaryUpdated', loginName, eventSummary })
  }
}
