/**
 * Internal-account authentication with throttling of repeated failures. The answer for an unknown
 * login and for a wrong password is the same, and takes the same time.
 */
import type { Directory } from '../directory/directory.js'
import type { Clock } from '../ports.js'
import type { LoginThrottle } from './login-throttle.js'

/** The outcome of an authentication attempt. */
export type AuthenticationResult =
  | { ok: true; loginName: string }
  | { ok: false; reason: 'BAD_CREDENTIALS' | 'LOCKED'; lockedKeys: string[] }

/** Checks login name and password against the directory's internal accounts. */
export class Authenticator {
  constructor(
    private readonly directory: Directory,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
  ) {}

  /** Authenticates `loginName`; `clientAddress` is throttled beside the login name. */
  async authenticate(
    loginName: string,
    password: string,
    clientAddress: string,
  ): Promise<AuthenticationResult> {
    const keys = [`login:${loginName}`, `address:${clientAddress}`]
    const verdict = this.throttle.check(keys)
    if (verdict.locked) return { ok: false, reason: 'LOCKED', lockedKeys: [] }
    if (verdict.delayMs > 0) await this.clock.sleep(verdict.delayMs)
    const account = await this.directory.verifyPassword(loginName, password)
    if (account === undefined) {
      return { ok: false, reason: 'BAD_CREDENTIALS', lockedKeys: this.throttle.fail(keys) }
    }
    this.throttle.succeed(`login:${loginName}`)
    return { ok: true, loginName: account.loginName }
  }
}
