/**
 * The number of distinct users supervised through administrator subscriptions, held within the installed
 * TELEPHONY_ADVANCED count (specification, "Events" item 7): the counter rises when a user first joins an
 * administrator subscription and falls when the last one holding the user goes.
 */
export class SupervisionCounter {
  private readonly holders = new Map<string, number>()

  constructor(private readonly limit: number) {}

  /** Distinct users supervised now. */
  get count(): number {
    return this.holders.size
  }

  /** How many of `users` would newly join, given that `released` are about to be given back. */
  wouldAdd(users: ReadonlySet<string>, released: ReadonlySet<string> = new Set()): number {
    let added = 0
    for (const user of users) {
      const held = this.holders.get(user) ?? 0
      const afterRelease = released.has(user) ? held - 1 : held
      if (afterRelease <= 0) added += 1
    }
    let freed = 0
    for (const user of released) if ((this.holders.get(user) ?? 0) === 1) freed += 1
    return added - freed
  }

  /** True when taking `users` (and giving back `released`) keeps the count within the limit. */
  fits(users: ReadonlySet<string>, released: ReadonlySet<string> = new Set()): boolean {
    return this.count + this.wouldAdd(users, released) <= this.limit
  }

  /** Takes one reference on each user. */
  take(users: ReadonlySet<string>): void {
    for (const user of users) this.holders.set(user, (this.holders.get(user) ?? 0) + 1)
  }

  /** Gives back one reference on each user. */
  give(users: ReadonlySet<string>): void {
    for (const user of users) {
      const held = this.holders.get(user) ?? 0
      if (held <= 1) this.holders.delete(user)
      else this.holders.set(user, held - 1)
    }
  }

  /** The installed count. */
  get installed(): number {
    return this.limit
  }
}
