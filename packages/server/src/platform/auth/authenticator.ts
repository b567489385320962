/**
 * Internal-account authentication with throttling of repeated failures per login name and per client
 * address. The answer for an unknown login and for a wrong password is the same, and takes the same time.
 */
import type { Directory } from '../directory/directory.js'
import type { Clock } from '../ports.js'
import {
  DEFAULT_ADDRESS_POLICY,
  DEFAULT_LOGIN_POLICY,
  LoginThrottle,
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

/** Checks login name and password against the directory's internal accounts. */
export class Authenticator {
  private readonly logins: LoginThrottle
  private readonly addresses: LoginThrottle

  constructor(
    private readonly directory: Directory,
    private readonly clock: Clock,
    policies: ThrottlePolicies = DEFAULT_THROTTLE_POLICIES,
  ) {
    this.logins = new LoginThrottle(clock, policies.login)
    this.addresses = new LoginThrottle(clock, policies.address)
  }

  /** Authenticates `loginName` coming from `clientAddress`. */
  async authenticate(
    loginName: string,
    password: string,
    clientAddress: string,
  ): Promise<AuthenticationResult> {
    const byLogin = this.logins.attempt(loginName)
    if (byLogin.locked) return { ok: false, reason: 'LOCKED', retryAfterMs: byLogin.retryAfterMs }
    const byAddress = this.addresses.attempt(clientAddress)
    if (byAddress.locked) {
      this.logins.succeed(loginName, 'undo')
      return { ok: false, reason: 'LOCKED', retryAfterMs: byAddress.retryAfterMs }
    }
    const delayMs = Math.max(byLogin.delayMs, byAddress.delayMs)
    if (delayMs > 0) {
      await this.clock.sleep(delayMs)
      // A key may have been locked during the sleep. The attempt is then refused unchecked, so it is taken
      // back from the key that is not locked, as above: a login is not charged for the attempts that its
      // address's lock refused, nor an address for those that a login's lock refused.
      const loginLockMs = this.logins.lockedFor(loginName)
      const addressLockMs = this.addresses.lockedFor(clientAddress)
      if (loginLockMs > 0 || addressLockMs > 0) {
        if (loginLockMs === 0) this.logins.succeed(loginName, 'undo')
        if (addressLockMs === 0) this.addresses.succeed(clientAddress, 'undo')
        return { ok: false, reason: 'LOCKED', retryAfterMs: Math.max(loginLockMs, addressLockMs) }
      }
    }
    const account = await this.directory.verifyPassword(loginName, password)
    if (account === undefined) {
      const lockedKeys = [
        ...(this.logins.fail(loginName) ? [`login:${loginName}`] : []),
        ...(this.addresses.fail(clientAddress) ? [`address:${clientAddress}`] : []),
      ]
      return { ok: false, reason: 'BAD_CREDENTIALS', lockedKeys }
    }
    this.logins.succeed(loginName, 'reset')
    this.addresses.succeed(clientAddress, 'undo')
    return { ok: true, loginName: account.loginName }
  }
}
