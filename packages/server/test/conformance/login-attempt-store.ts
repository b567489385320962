/**
 * The LoginAttemptStore conformance suite (style guide 6): every adapter passes the same cases, the policy
 * of login-throttle.ts (free attempts, doubling delays, a lock, a window) with the caller's `now` driving
 * every expiry, and the finding of issue 15 item 6 closed: however many attempts arrive at once, on however
 * many nodes, at most `lockAfterFailures` of them get their password checked.
 */
import { expect, it } from 'vitest'
import type { LoginAttemptStore } from '../../src/platform/auth/login-attempt-store.js'
import type { ThrottlePolicy, ThrottleVerdict } from '../../src/platform/auth/login-throttle.js'

/** A store to test, and what the suite looks at beside the port. */
export interface LoginAttemptStoreHandle {
  store: LoginAttemptStore
  /** A store over the same data through a connection of its own (another node), or `store` itself. */
  other: LoginAttemptStore
  /** What the adapter holds, named as the Redis keys (after the prefix), sorted. */
  keys(): Promise<string[]>
}

/** The policy of every case, unless a case changes it. */
export const POLICY: ThrottlePolicy = {
  freeFailures: 2,
  baseDelayMs: 100,
  maxDelayMs: 350,
  lockAfterFailures: 6,
  lockMs: 10_000,
  windowMs: 60_000,
  maxKeys: 100,
}

const T0 = Date.UTC(2026, 0, 1)
const ALICE = 'alice'
const free: ThrottleVerdict = { locked: false, delayMs: 0 }
const delayed = (delayMs: number): ThrottleVerdict => ({ locked: false, delayMs })
const locked = (retryAfterMs: number): ThrottleVerdict => ({ locked: true, retryAfterMs })
/** What an attempt is told while the key holds lockAfterFailures attempts in flight. */
const full = locked(POLICY.maxDelayMs)

/** Declares the cases, each on a fresh, empty store from `create` with `policy`. */
export function loginAttemptStoreConformance(
  create: (policy: ThrottlePolicy) => Promise<LoginAttemptStoreHandle>,
): void {
  /** Makes `count` attempts on `key` at `now` that fail; answers whether the last failure locked the key. */
  async function failTimes(store: LoginAttemptStore, count: number, now = T0, key = ALICE) {
    let lockedNow = false
    for (let i = 0; i < count; i++) {
      expect(await store.reserve(key, now)).toMatchObject({ locked: false })
      lockedNow = await store.fail(key, now)
    }
    return lockedNow
  }

  it.each<[failures: number, verdict: ThrottleVerdict]>([
    [0, free],
    [1, free],
    [2, delayed(100)],
    [3, delayed(200)],
    [4, delayed(350)], // 400 capped at maxDelayMs
    [5, delayed(350)],
    [6, locked(POLICY.lockMs)],
  ])('after %i failures the next attempt gets %o', async (failures, verdict) => {
    const { store } = await create(POLICY)
    await failTimes(store, failures)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(verdict)
  })

  it('caps the delay at maxDelayMs however many failures precede', async () => {
    const { store } = await create({ ...POLICY, lockAfterFailures: 1000 })
    await failTimes(store, 100)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(delayed(POLICY.maxDelayMs))
  })

  it('does not lock on `fail` alone: only reserved attempts are counted', async () => {
    const { store } = await create(POLICY)
    for (let i = 0; i < 2 * POLICY.lockAfterFailures; i++)
      expect(await store.fail(ALICE, T0)).toBe(false)
    expect(await store.lockedFor(ALICE, T0)).toBe(0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(free)
  })

  it('delays each attempt of a burst by those reserved before it, and counts them after one succeeds', async () => {
    const { store } = await create(POLICY)
    const verdicts = []
    for (let i = 0; i < 4; i++) verdicts.push(await store.reserve(ALICE, T0))
    expect(verdicts).toStrictEqual([free, free, delayed(100), delayed(200)])
    expect(await store.lockedFor(ALICE, T0)).toBe(0)
    await store.succeed(ALICE, 'undo', T0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(delayed(200)) // 3 attempts still count
  })

  it('locks the key at the failure that makes lockAfterFailures, and says so only then', async () => {
    const { store, other } = await create(POLICY)
    for (let i = 1; i < POLICY.lockAfterFailures; i++) {
      await store.reserve(ALICE, T0)
      expect(await other.fail(ALICE, T0)).toBe(false)
      expect(await store.lockedFor(ALICE, T0)).toBe(0)
    }
    await other.reserve(ALICE, T0)
    expect(await store.fail(ALICE, T0)).toBe(true)
    expect(await other.lockedFor(ALICE, T0)).toBe(POLICY.lockMs)
  })

  it('keeps a lock for lockMs, refusing attempts without counting them, then starts from zero', async () => {
    const { store } = await create(POLICY)
    expect(await failTimes(store, POLICY.lockAfterFailures)).toBe(true)
    const last = T0 + POLICY.lockMs - 1
    expect(await store.lockedFor(ALICE, last)).toBe(1)
    for (let i = 0; i < 10; i++) expect(await store.reserve(ALICE, last)).toStrictEqual(locked(1))
    const after = T0 + POLICY.lockMs
    expect(await store.lockedFor(ALICE, after)).toBe(0)
    expect(await store.reserve(ALICE, after)).toStrictEqual(free)
    await store.fail(ALICE, after)
    expect(await store.reserve(ALICE, after)).toStrictEqual(free)
    await store.fail(ALICE, after)
    expect(await store.reserve(ALICE, after)).toStrictEqual(delayed(POLICY.baseDelayMs))
  })

  it('keeps the keys apart', async () => {
    const { store } = await create(POLICY)
    await failTimes(store, POLICY.lockAfterFailures, T0, 'bob')
    expect(await store.lockedFor('bob', T0)).toBe(POLICY.lockMs)
    expect(await store.lockedFor(ALICE, T0)).toBe(0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(free)
  })

  it('admits exactly lockAfterFailures of 50 attempts reserved at once on two nodes', async () => {
    const { store, other } = await create(POLICY)
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : other).reserve(ALICE, T0)),
    )
    const admitted = verdicts.filter((verdict) => !verdict.locked)
    expect(admitted).toHaveLength(POLICY.lockAfterFailures)
    expect(verdicts.filter((verdict) => verdict.locked)).toStrictEqual(
      Array.from({ length: 50 - POLICY.lockAfterFailures }, () => full),
    )
    // Each admitted attempt was delayed by the attempts reserved before it.
    expect(
      admitted.map((verdict) => (verdict.locked ? -1 : verdict.delayMs)).sort((a, b) => a - b),
    ).toStrictEqual([0, 0, 100, 200, 350, 350])
  })

  it('locks a full burst at its first failure; the later failures neither relock nor extend', async () => {
    const { store, other } = await create(POLICY)
    for (let i = 0; i < POLICY.lockAfterFailures; i++) await store.reserve(ALICE, T0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(full)
    expect(await other.fail(ALICE, T0)).toBe(true)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(locked(POLICY.lockMs))
    for (let i = 1; i < POLICY.lockAfterFailures; i++)
      expect(await store.fail(ALICE, T0 + 300)).toBe(false)
    expect(await store.lockedFor(ALICE, T0 + 300)).toBe(POLICY.lockMs - 300)
    expect(await store.reserve(ALICE, T0 + POLICY.lockMs)).toStrictEqual(free)
  })

  it('admits another attempt once one in flight succeeds', async () => {
    const { store } = await create(POLICY)
    for (let i = 0; i < POLICY.lockAfterFailures; i++) await store.reserve(ALICE, T0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(full)
    await store.succeed(ALICE, 'undo', T0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(delayed(350))
    expect(await store.reserve(ALICE, T0)).toStrictEqual(full)
  })

  it('remembers failures for windowMs after the last attempt, then forgets them', async () => {
    const { store } = await create(POLICY)
    await failTimes(store, 2)
    await failTimes(store, 1, T0 + POLICY.windowMs / 2)
    const lastAt = T0 + POLICY.windowMs / 2
    expect(await store.reserve(ALICE, lastAt + POLICY.windowMs)).toStrictEqual(delayed(200))
    await store.fail(ALICE, lastAt + POLICY.windowMs)
    const later = lastAt + 2 * POLICY.windowMs + 1
    expect(await store.reserve(ALICE, later)).toStrictEqual(free)
  })

  it('does not end a lock with the window', async () => {
    const { store } = await create({ ...POLICY, lockMs: 120_000 })
    await failTimes(store, POLICY.lockAfterFailures)
    const at = T0 + POLICY.windowMs + 1
    const left = 120_000 - POLICY.windowMs - 1
    expect(await store.lockedFor(ALICE, at)).toBe(left)
    expect(await store.reserve(ALICE, at)).toStrictEqual(locked(left))
  })

  it("'reset' forgets every failure; 'undo' takes back one", async () => {
    const { store } = await create(POLICY)
    await failTimes(store, 3)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(delayed(200))
    await store.succeed(ALICE, 'undo', T0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(delayed(200))
    await store.succeed(ALICE, 'reset', T0)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(free)
  })

  it("'undo' of a key's only attempt forgets the key; either is harmless on a key without attempts", async () => {
    const { store } = await create(POLICY)
    await store.succeed('bob', 'reset', T0)
    await store.succeed('bob', 'undo', T0)
    expect(await store.lockedFor('bob', T0)).toBe(0)
    expect(await store.reserve('bob', T0)).toStrictEqual(free)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(free)
    await store.succeed(ALICE, 'undo', T0)
    await failTimes(store, 2)
    expect(await store.reserve(ALICE, T0)).toStrictEqual(delayed(POLICY.baseDelayMs))
  })

  it('starts counting from zero once the window forgot the failures', async () => {
    const { store } = await create(POLICY)
    await failTimes(store, 3)
    const later = T0 + POLICY.windowMs + 1
    expect(await store.reserve(ALICE, later)).toStrictEqual(free)
    await store.fail(ALICE, later)
    expect(await store.reserve(ALICE, later)).toStrictEqual(free)
    await store.fail(ALICE, later)
    expect(await store.reserve(ALICE, later)).toStrictEqual(delayed(POLICY.baseDelayMs))
  })

  it.each(['reset', 'undo'] as const)("'%s' does not lift a lock", async (mode) => {
    const { store } = await create(POLICY)
    await failTimes(store, POLICY.lockAfterFailures)
    await store.succeed(ALICE, mode, T0 + 1000)
    expect(await store.reserve(ALICE, T0 + 1000)).toStrictEqual(locked(POLICY.lockMs - 1000))
  })

  it('holds nothing once a key succeeds, or once its lock is found ended', async () => {
    const { store, keys } = await create(POLICY)
    await failTimes(store, 3)
    await store.succeed(ALICE, 'reset', T0)
    await store.reserve('bob', T0)
    await store.succeed('bob', 'undo', T0)
    expect(await keys()).toStrictEqual([])
    await failTimes(store, POLICY.lockAfterFailures, T0, 'carol')
    expect(await keys()).not.toStrictEqual([])
    expect(await store.lockedFor('carol', T0 + POLICY.lockMs)).toBe(0)
    expect(await keys()).toStrictEqual([])
  })
}
