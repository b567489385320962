/**
 * The IdempotencyStore conformance suite (style guide 6): every adapter passes the same cases, which are what the
 * gateway's idempotency relies on (docs/idempotency.md): a key claimed once, its outcome answered again, another
 * request under the same key refused, a lapsed lease taken over, a released key free again, a key forgotten after
 * its retention.
 */
import { expect, it } from 'vitest'
import type { IdempotencyStore, IdempotentOutcome } from '../../src/platform/idempotency-store.js'
import type { IdempotencyTiming } from '../../src/storage/memory/memory-idempotency-store.js'

/** A store to test, and how to release it. */
export interface IdempotencyStoreHandle {
  store: IdempotencyStore
  close(): Promise<void>
}

const CREATED: IdempotentOutcome = {
  status: 201,
  headers: { location: '/api/rest/1.0/telephony/calls/Y2FsbC0x', 'content-type': 'text/plain' },
  body: '',
}
const REFUSED: IdempotentOutcome = {
  status: 403,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: '{"httpStatus":"FORBIDDEN","code":1002,"helpMessage":"Émile — 東京 \\"no\\"","type":"NOT_ALLOWED","canRetry":false}',
}

/** Long leases and retention: nothing lapses unless a case asks for it. */
const LONG: IdempotencyTiming = { leaseMs: 60_000, retentionMs: 600_000 }

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Declares the cases, each on a fresh store from `create` with the timing given. */
export function idempotencyStoreConformance(
  create: (timing: IdempotencyTiming) => Promise<IdempotencyStoreHandle>,
): void {
  let keys = 0
  /** A key of the case's own: the Redis adapter's cases share a prefix. */
  const newKey = () => `key-${process.pid}-${Date.now()}-${keys++}`

  async function withStore(
    timing: IdempotencyTiming,
    run: (store: IdempotencyStore) => Promise<void>,
  ): Promise<void> {
    const handle = await create(timing)
    try {
      await run(handle.store)
    } finally {
      await handle.close()
    }
  }

  it('claims a new key, then answers busy to the same request and mismatch to another', () =>
    withStore(LONG, async (store) => {
      const key = newKey()
      expect(await store.claim(key, 'fingerprint-1', 'holder-a')).toStrictEqual({
        kind: 'claimed',
        takenOver: false,
      })
      expect(await store.claim(key, 'fingerprint-1', 'holder-b')).toStrictEqual({ kind: 'busy' })
      expect(await store.claim(key, 'fingerprint-2', 'holder-b')).toStrictEqual({
        kind: 'mismatch',
      })
    }))

  it('answers the outcome of a completed request to every retry, as recorded', () =>
    withStore(LONG, async (store) => {
      const [created, refused] = [newKey(), newKey()]
      await store.claim(created, 'f', 'holder-a')
      await store.complete(created, 'holder-a', CREATED)
      await store.claim(refused, 'f', 'holder-a')
      await store.complete(refused, 'holder-a', REFUSED)
      for (const holder of ['holder-a', 'holder-b', 'holder-c']) {
        expect(await store.claim(created, 'f', holder)).toStrictEqual({
          kind: 'replay',
          outcome: CREATED,
        })
        expect(await store.claim(refused, 'f', holder)).toStrictEqual({
          kind: 'replay',
          outcome: REFUSED,
        })
      }
      expect(await store.claim(created, 'another request', 'holder-b')).toStrictEqual({
        kind: 'mismatch',
      })
    }))

  it('keeps keys apart', () =>
    withStore(LONG, async (store) => {
      const [one, two] = [newKey(), newKey()]
      await store.claim(one, 'f', 'holder-a')
      await store.complete(one, 'holder-a', CREATED)
      expect(await store.claim(two, 'f', 'holder-a')).toStrictEqual({
        kind: 'claimed',
        takenOver: false,
      })
    }))

  it('frees a released key, so that the request may be sent again with it', () =>
    withStore(LONG, async (store) => {
      const key = newKey()
      await store.claim(key, 'f', 'holder-a')
      await store.release(key, 'holder-a')
      expect(await store.claim(key, 'another request', 'holder-b')).toStrictEqual({
        kind: 'claimed',
        takenOver: false,
      })
    }))

  it("changes nothing for a holder that is not the key's: complete, release and renew", () =>
    withStore(LONG, async (store) => {
      const key = newKey()
      await store.claim(key, 'f', 'holder-a')
      await store.complete(key, 'intruder', CREATED)
      await store.release(key, 'intruder')
      expect(await store.renew(key, 'intruder')).toBe(false)
      expect(await store.claim(key, 'f', 'holder-b')).toStrictEqual({ kind: 'busy' })
      await store.complete(key, 'holder-a', REFUSED)
      await store.release(key, 'holder-a')
      expect(await store.claim(key, 'f', 'holder-b')).toStrictEqual({
        kind: 'replay',
        outcome: REFUSED,
      })
    }))

  it('lets a retry take over a key whose holder stopped renewing it, and refuses the old holder then', () =>
    withStore({ leaseMs: 150, retentionMs: 600_000 }, async (store) => {
      const key = newKey()
      await store.claim(key, 'f', 'holder-a')
      await pause(250)
      expect(await store.claim(key, 'f', 'holder-b')).toStrictEqual({
        kind: 'claimed',
        takenOver: true,
      })
      expect(await store.renew(key, 'holder-a')).toBe(false)
      await store.complete(key, 'holder-a', REFUSED)
      await store.complete(key, 'holder-b', CREATED)
      expect(await store.claim(key, 'f', 'holder-c')).toStrictEqual({
        kind: 'replay',
        outcome: CREATED,
      })
    }))

  it('keeps a claim its holder renews past its first lease', () =>
    withStore({ leaseMs: 300, retentionMs: 600_000 }, async (store) => {
      const key = newKey()
      await store.claim(key, 'f', 'holder-a')
      for (let renewal = 0; renewal < 3; renewal += 1) {
        await pause(150)
        expect(await store.renew(key, 'holder-a')).toBe(true)
      }
      expect(await store.claim(key, 'f', 'holder-b')).toStrictEqual({ kind: 'busy' })
    }))

  it('forgets a key after its retention', () =>
    withStore({ leaseMs: 60_000, retentionMs: 200 }, async (store) => {
      const key = newKey()
      await store.claim(key, 'f', 'holder-a')
      await store.complete(key, 'holder-a', CREATED)
      await pause(350)
      expect(await store.claim(key, 'another request', 'holder-b')).toStrictEqual({
        kind: 'claimed',
        takenOver: false,
      })
    }))

  it('gives a new key to one of many requests that claim it at the same moment', () =>
    withStore(LONG, async (store) => {
      const key = newKey()
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, index) => store.claim(key, 'f', `holder-${index}`)),
      )
      expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1)
      expect(claims.filter((claim) => claim.kind === 'busy')).toHaveLength(19)
    }))
}
