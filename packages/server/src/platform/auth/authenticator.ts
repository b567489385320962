/**
 * Internal-account authentication with throttling of repeated failures per login name and per client
 * address. The answer for an unknown login and for a wrong password is the same, and takes the same time.
 * Each attempt reserves its place with both keys before its password is checked (docs/cluster.md, "Login
 * attempts"), so that a burst of guesses, on one node or many, gets at most the lock threshold checked.
 */
import type { Directory } from '../directory/directory.js'
import type { Clock } from '../events.js'
import { type LoginMetrics, NO_LOGIN_METRICS } from '../platform-metrics.js'
import type { LoginAttemptStore } from './login-attempt-store.js'
import {
  DEFAULT_ADDRESS_POLICY,
  DEFAULT_LOGIN_POLICY,
  type ThrottlePolicy,
} from './login-throttle.js'

/** The outcome of an authentication attempt. */
export type AuthenticationResult =
  | { ok: true; loginName: string }
  | { ok: false; reason: 'BAD_CREDENTIALS'; lockedKeys: string[] }
  | { ok: false; reason: 'LOCKED'; retryAfterMs: number }

/** Throttling policies by kind of key. */
export interface ThrottlePolicies {
  login: ThrottlePolicy
  address: ThrottlePolicy
}

export const DEFAULT_THROTTLE_POLICIES: ThrottlePolicies = {
  login: DEFAULT_LOGIN_POLICY,
  address: DEFAULT_ADDRESS_POLICY,
}

/** The attempts of each kind of key, each store under its kind's policy. */
export interface LoginAttemptStores {
  login: LoginAttemptStore
  address: LoginAttemptStore
}

/** Checks login name and password against the directory's internal accounts. */
export class Authenticator {
  private readonly logins: LoginAttemptStore
  private readonly addresses: LoginAttemptStore

  constructor(
    private readonly directory: Directory,
    private readonly clock: Clock,
    attempts: LoginAttemptStores,
    /** Told of every refusal and lock (the node's metrics). */
    private readonly metrics: LoginMetrics = NO_LOGIN_METRICS,
  ) {
    this.logins = attempts.login
    this.addresses = attempts.address
  }

  /** Authenticates `loginName` coming from `clientAddress`. */
  async authenticate(
    loginName: string,
    password: string,
    clientAddress: string,
  ): Promise<AuthenticationResult> {
    const result = await this.check(loginName, password, clientAddress)
    if (!result.ok) this.count(result)
    return result
  }

  private async check(
    loginName: string,
    password: string,
    clientAddress: string,
  ): Promise<AuthenticationResult> {
    const byLogin = await this.logins.reserve(loginName, this.clock.now())
    if (byLogin.locked) return { ok: false, reason: 'LOCKED', retryAfterMs: byLogin.retryAfterMs }
    const byAddress = await this.addresses.reserve(clientAddress, this.clock.now())
    if (byAddress.locked) {
      await this.logins.succeed(loginName, 'undo', this.clock.now())
      return { ok: false, reason: 'LOCKED', retryAfterMs: byAddress.retryAfterMs }
    }
    const delayMs = Math.max(byLogin.delayMs, byAddress.delayMs)
    if (delayMs > 0) {
      await this.clock.sleep(delayMs)
      // A key may have been locked during the sleep. The attempt is then refused unchecked, so it is taken
      // back from the key that is not locked, as above: a login is not charged for the attempts that its
      // address's lock refused, nor an address for those that a login's lock refused.
      const now = this.clock.now()
      const [loginLockMs, addressLockMs] = await Promise.all([
        this.logins.lockedFor(loginName, now),
        this.addresses.lockedFor(clientAddress, now),
      ])
      if (loginLockMs > 0 || addressLockMs > 0) {
        if (loginLockMs === 0) await this.logins.succeed(loginName, 'undo', now)
        if (addressLockMs === 0) await this.addresses.succeed(clientAddress, 'undo', now)
        return { ok: false, reason: 'LOCKED', retryAfterMs: Math.max(loginLockMs, addressLockMs) }
      }
    }
    const account = await this.directory.verifyPassword(loginName, password)
    const now = this.clock.now()
    if (account === undefined) {
      const [loginLocked, addressLocked] = await Promise.all([
        this.logins.fail(loginName, now),
        this.addresses.fail(clientAddress, now),
      ])
      const lockedKeys = [
        ...(loginLocked ? [`login:${loginName}`] : []),
        ...(addressLocked ? [`address:${clientAddress}`] : []),
      ]
      return { ok: false, reason: 'BAD_CREDENTIALS', lockedKeys }
    }
    await Promise.all([
      this.logins.succeed(loginName, 'reset', now),
      this.addresses.succeed(clientAddress, 'undo', now),
    ])
    return { ok: true, loginName: account.loginName }
  }

  private count(refused: Exclude<AuthenticationResult, { ok: true }>): void {
    this.metrics.loginRefused(refused.reason)
    if (refused.reason !== 'BAD_CREDENTIALS') return
    for (const key of refused.lockedKeys)
      this.metrics.keyLocked(key.startsWith('login:') ? 'login' : 'address')
  }
}
