/**
 * Webhook delivery of one subscription (docs/subscriptions.md, "Webhook delivery"): the events of its
 * queue POSTed to its webHookUrl one per request, one request at a time so that they arrive in order,
 * each failed request retried after a growing delay. What the bounded queue drops, and what is given up
 * after the last attempt, is announced by an OnChannelInformation notice before the next event, as on the
 * chunk channel.
 *
 * ```
 *   IDLE --event queued--> POSTING --2xx, more queued--> POSTING
 *                          POSTING --2xx, queue empty--> IDLE
 *                          POSTING --failure, attempts left--> BACKING_OFF --delay over--> POSTING
 *                          POSTING --failure, last attempt--> POSTING (next event) | IDLE
 *   any --stop (DELETE, idle timeout, session closed)--> STOPPED
 * ```
 */
import type { Clock, Timer } from '../platform/events.js'
import type { EventQueue } from '../platform/subscriptions/event-queue.js'
import { lostNotice } from './chunk-framing.js'
import { DeliveryCounts } from './delivery-counts.js'
import { signWebhook, WEBHOOK_HEADERS } from './webhook-signature.js'

/** States of a webhook sender. */
export type WebhookSenderState = 'IDLE' | 'POSTING' | 'BACKING_OFF' | 'STOPPED'

/** The moves the sender's state machine allows. */
export const WEBHOOK_SENDER_TRANSITIONS = {
  IDLE: ['POSTING', 'STOPPED'],
  POSTING: ['POSTING', 'BACKING_OFF', 'IDLE', 'STOPPED'],
  BACKING_OFF: ['POSTING', 'STOPPED'],
  STOPPED: [],
} as const satisfies Record<WebhookSenderState, readonly WebhookSenderState[]>

/** One POST to a webhook. */
export interface WebhookPost {
  url: string
  headers: Record<string, string>
  body: Uint8Array
  /** Aborted when the request times out or the subscription goes. */
  signal: AbortSignal
}

/** Sends one POST: resolves with the HTTP status, rejects on a network error or an abort. */
export type WebhookTransport = (post: WebhookPost) => Promise<number>

/** How hard a sender tries. */
export interface WebhookPolicy {
  /** Key of the HMAC-SHA256 signature (WEBHOOK_SECRET). */
  secret: string
  /** How long one POST may take before it is aborted and counts as failed. */
  requestTimeoutMs: number
  /** Attempts per event (the first included) before it is given up. */
  maxAttempts: number
  /** The delay after the first failure; it doubles after each further one, up to `maxRetryDelayMs`. */
  firstRetryDelayMs: number
  maxRetryDelayMs: number
}

/** The policy without its secret: 5 s per request, 5 attempts 1, 2, 4 and 8 s apart. */
export const DEFAULT_WEBHOOK_POLICY = {
  requestTimeoutMs: 5000,
  maxAttempts: 5,
  firstRetryDelayMs: 1000,
  maxRetryDelayMs: 30_000,
} as const satisfies Omit<WebhookPolicy, 'secret'>

/** The delay before the attempt that follows failed attempt number `attempt` (1 for the first). */
export function webhookRetryDelay(
  policy: Pick<WebhookPolicy, 'firstRetryDelayMs' | 'maxRetryDelayMs'>,
  attempt: number,
): number {
  return Math.min(policy.maxRetryDelayMs, policy.firstRetryDelayMs * 2 ** (attempt - 1))
}

/** The transport of the service: Node's fetch, no redirect followed, the answer's body discarded. */
export const fetchTransport: WebhookTransport = async ({ url, headers, body, signal }) => {
  const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' })
  await response.body?.cancel()
  return response.status
}

/** What a sender is built with. */
export interface WebhookSenderOptions {
  subscriptionId: string
  url: string
  queue: Pick<EventQueue, 'take' | 'size'>
  clock: Clock
  transport: WebhookTransport
  policy: WebhookPolicy
  /** A POST was taken (2xx), or events start waiting after a quiet time: the subscription is active. */
  onActivity(): void
  /** Told of every failed attempt (the service logs them). */
  onFailure?(failure: WebhookFailure): void
  /** Told of every state change (tests assert the sequence). */
  onTransition?(to: WebhookSenderState): void
  /**
   * A delivery is over: taken by the receiver, or given up after its last attempt; `events` is 1 for an event, 0
   * for a notice. The outlets on the shared event log acknowledge the event then, so that a node stopped
   * mid-delivery leaves it to the next.
   */
  onDelivered?(events: number): void
  /**
   * The X-Openness-Sequence of a delivery taken from the queue, in place of the sender's own count 1, 2, 3...: on
   * the shared event log, numbers that a sender on another node goes on from (docs/cluster-events.md, "Delivery on
   * the event log").
   */
  numberOf?(kind: 'event' | 'notice'): number
  /** Where the events taken and announced lost are counted (the node's metrics). */
  counts?: DeliveryCounts
}

/** A failed attempt, as the operator's log shows it. */
export interface WebhookFailure {
  subscriptionId: string
  url: string
  /** `HTTP 503`, `timeout`, or the network error's code (`ECONNREFUSED`). */
  reason: string
  attempt: number
  /** False when the event (or notice) is given up. */
  willRetry: boolean
}

/** One request to make: an event, or a notice of lost events (never itself counted as lost). */
interface Delivery {
  json: string
  isNotice: boolean
  body?: Uint8Array
  sequence?: number
}

const GIVEN_UP = 'the queue was full or the webhook did not take them'

/** The code of a network error (fetch wraps it as its `cause`), else its message. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code
  return error instanceof Error ? error.message : String(error)
}

export class WebhookSender {
  private current: WebhookSenderState = 'IDLE'
  /** At most a notice and one event taken from the queue; everything else waits in it. */
  private pending: Delivery[] = []
  private attempt = 0
  private sequence = 0
  /** Events given up after their last attempt, announced with the next notice. */
  private givenUp = 0
  private inFlight: AbortController | undefined
  private timer: Timer | undefined

  private readonly counts: DeliveryCounts

  constructor(private readonly options: WebhookSenderOptions) {
    this.counts = options.counts ?? new DeliveryCounts()
  }

  get state(): WebhookSenderState {
    return this.current
  }

  /** Nothing waits to be delivered. */
  get isQuiet(): boolean {
    return this.current === 'IDLE' && this.options.queue.size === 0
  }

  /** Events were queued: starts delivering unless a delivery is under way. */
  wake(): void {
    if (this.current !== 'IDLE' || this.options.queue.size === 0) return
    this.options.onActivity()
    this.next()
  }

  /** Ends delivery for good: the POST in flight is aborted, no retry fires. */
  stop(): void {
    if (this.current === 'STOPPED') return
    this.transition('STOPPED')
    this.timer?.cancel()
    this.inFlight?.abort()
    this.pending = []
  }

  /** Posts the next delivery, taking one event from the queue when none is pending. */
  private next(): void {
    if (this.pending.length === 0) this.takeFromQueue()
    const delivery = this.pending[0]
    if (delivery === undefined) {
      this.transition('IDLE')
      return
    }
    this.attempt = 0
    this.transition('POSTING')
    void this.post(delivery)
  }

  private takeFromQueue(): void {
    const { events, lost } = this.options.queue.take(1)
    const missing = lost + (events.length > 0 ? this.givenUp : 0)
    if (missing > 0) {
      const reason = this.givenUp > 0 ? GIVEN_UP : undefined
      this.pending.push(this.numbered({ json: lostNotice(missing, reason), isNotice: true }))
      this.givenUp = 0
      this.counts.webhookLost += missing
    }
    for (const { event } of events)
      this.pending.push(this.numbered({ json: event, isNotice: false }))
  }

  /** The delivery with its number from `numberOf` when given (else numbered at its first attempt). */
  private numbered(delivery: Delivery): Delivery {
    const { numberOf } = this.options
    if (numberOf !== undefined) delivery.sequence = numberOf(delivery.isNotice ? 'notice' : 'event')
    return delivery
  }

  private async post(delivery: Delivery): Promise<void> {
    const { clock, policy, transport, url } = this.options
    this.attempt += 1
    delivery.body ??= Buffer.from(delivery.json)
    delivery.sequence ??= ++this.sequence
    const controller = new AbortController()
    this.inFlight = controller
    let reason = 'timeout'
    const timeout = clock.setTimer(policy.requestTimeoutMs, () => controller.abort())
    let taken = false
    try {
      const status = await transport({
        url,
        headers: this.headers(delivery.body, delivery.sequence),
        body: delivery.body,
        signal: controller.signal,
      })
      taken = status >= 200 && status < 300
      reason = `HTTP ${status}`
    } catch (error) {
      if (!controller.signal.aborted) reason = networkReason(error)
    } finally {
      timeout.cancel()
      this.inFlight = undefined
    }
    if (this.current === 'STOPPED') return
    if (taken) {
      if (!delivery.isNotice) this.counts.webhookDelivered += 1
      this.options.onActivity()
    } else
      this.options.onFailure?.({
        subscriptionId: this.options.subscriptionId,
        url,
        reason,
        attempt: this.attempt,
        willRetry: this.attempt < policy.maxAttempts,
      })
    if (taken || this.attempt >= policy.maxAttempts) {
      if (!taken && !delivery.isNotice) this.givenUp += 1
      this.pending.shift()
      this.options.onDelivered?.(delivery.isNotice ? 0 : 1)
      this.next()
      return
    }
    this.transition('BACKING_OFF')
    this.timer = clock.setTimer(webhookRetryDelay(policy, this.attempt), () => {
      if (this.current !== 'BACKING_OFF') return
      this.transition('POSTING')
      void this.post(delivery)
    })
  }

  private headers(body: Uint8Array, sequence: number): Record<string, string> {
    const timestamp = Math.floor(this.options.clock.now() / 1000)
    return {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'openness-webhook/1.0',
      [WEBHOOK_HEADERS.subscription]: this.options.subscriptionId,
      [WEBHOOK_HEADERS.sequence]: String(sequence),
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook(this.options.policy.secret, timestamp, body),
    }
  }

  private transition(to: WebhookSenderState): void {
    const allowed: readonly WebhookSenderState[] = WEBHOOK_SENDER_TRANSITIONS[this.current]
    if (!allowed.includes(to)) throw new Error(`webhook sender: ${this.current} -> ${to}`)
    this.current = to
    this.options.onTransition?.(to)
  }
}
