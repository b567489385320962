/**
 * The installed licenses of the platform and who holds them. A user holds a license once however many
 * sessions take it; the license returns to the pool when the user's last reference goes (specification,
 * "States and transitions": closing a session releases all license references).
 */
import type { UserRight } from '@openness/wire'

/** Counts license references per user against the installed counts. */
export class LicensePool {
  private readonly holders = new Map<UserRight, Map<string, number>>()

  constructor(private readonly installed: Readonly<Record<UserRight, number>>) {}

  /** Takes one reference on `right` for `loginName`; false when every installed license is held by others. */
  acquire(right: UserRight, loginName: string): boolean {
    const users = this.usersOf(right)
    const references = users.get(loginName)
    if (references !== undefined) {
      users.set(loginName, references + 1)
      return true
    }
    if (users.size >= this.installed[right]) return false
    users.set(loginName, 1)
    return true
  }

  /** Gives back one reference on `right` for `loginName`. */
  release(right: UserRight, loginName: string): void {
    const users = this.usersOf(right)
    const references = users.get(loginName) ?? 0
    if (references <= 1) users.delete(loginName)
    else users.set(loginName, references - 1)
  }

  /** How many distinct users hold `right` now. */
  inUse(right: UserRight): number {
    return this.usersOf(right).size
  }

  /** The installed count of `right`. */
  installedCount(right: UserRight): number {
    return this.installed[right]
  }

  private usersOf(right: UserRight): Map<string, number> {
    let users = this.holders.get(right)
    if (users === undefined) {
      users = new Map()
      this.holders.set(right, users)
    }
    return users
  }
}
