/**
 * The signature of webhook requests (docs/subscriptions.md, "Webhook delivery"): HMAC-SHA256, keyed with
 * the operator's WEBHOOK_SECRET, over the timestamp header, a dot and the exact body bytes, so that a
 * receiver can check both who sent a request and that it is recent (no replay).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** Headers of every webhook request. */
export const WEBHOOK_HEADERS = {
  /** `sha256=<hex>` of HMAC-SHA256(secret, `<timestamp>.<body>`). */
  signature: 'x-openness-signature',
  /** Seconds since the epoch when the request was signed (each attempt signs again). */
  timestamp: 'x-openness-timestamp',
  /** The subscription the event belongs to. */
  subscription: 'x-openness-subscription',
  /** 1, 2, 3… per subscription, the same on every attempt of one delivery: a receiver drops repeats. */
  sequence: 'x-openness-sequence',
} as const

/** The `x-openness-signature` value of `body` sent at `timestamp` (seconds). */
export function signWebhook(secret: string, timestamp: number, body: Uint8Array): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
  return `sha256=${mac}`
}

/**
 * What a receiver does: true when `signature` signs `body` at `timestamp` and the timestamp is within
 * `toleranceSeconds` of `nowSeconds`.
 */
export function verifyWebhookSignature(
  secret: string,
  request: { signature: string; timestamp: string; body: Uint8Array },
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(request.timestamp)
  if (!/^\d+$/.test(request.timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return false
  const expected = Buffer.from(signWebhook(secret, timestamp, request.body))
  const given = Buffer.from(request.signature)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
