/**
 * The values that must be unique across the directory, and who holds each: checked on the directory
 * file and on every change the control plane makes.
 */

/** A field whose value must be unique, by the name the messages give it. */
type UniqueField = 'login name' | 'id' | 'companyPhone' | 'companyEmail' | 'instantMessagingId'

/**
 * The values that must be unique across the directory (login names across users and administrators,
 * device ids, company phones, e-mails, instant messaging ids) and who holds each: a path such as
 * `users[0]` in a file, a description such as `user alice` in a running directory.
 */
export class DirectoryClaims {
  private readonly holders = new Map<UniqueField, Map<string, { holder: string; value: string }>>()

  /** Records what an existing user holds; its devices are held by `a device of <holder>`. */
  addUser(user: ClaimedUser, holder: string): void {
    this.claim('login name', user.loginName, holder)
    if (user.companyPhone !== undefined) this.claim('companyPhone', user.companyPhone, holder)
    if (user.companyEmail !== undefined) this.claim('companyEmail', user.companyEmail, holder)
    if (user.instantMessagingId !== undefined)
      this.claim('instantMessagingId', user.instantMessagingId, holder)
    for (const device of user.devices ?? []) {
      if (device.id !== undefined) this.claim('id', device.id, `a device of ${holder}`)
    }
  }

  /** Records an existing administrator's login name. */
  addAdministrator(loginName: string, holder: string): void {
    this.claim('login name', loginName, holder)
  }

  /**
   * Records `holder` as holding `value` and answers undefined, or when another holds it already
   * answers how: `"1001" is already the companyPhone of users[0]`.
   */
  claim(field: UniqueField, value: string, holder: string): string | undefined {
    let holders = this.holders.get(field)
    if (holders === undefined) {
      holders = new Map()
      this.holders.set(field, holders)
    }
    const key = CASE_INSENSITIVE.has(field) ? value.toLowerCase() : value
    const taken = holders.get(key)
    if (taken === undefined) {
      holders.set(key, { holder, value })
      return undefined
    }
    const spelling =
      taken.value === value ? '' : ` as ${JSON.stringify(taken.value)} (case does not matter)`
    return `${JSON.stringify(value)} is already the ${field} of ${taken.holder}${spelling}`
  }
}

/** What a user holds that must be unique. */
interface ClaimedUser {
  loginName: string
  companyPhone?: string
  companyEmail?: string
  instantMessagingId?: string
  devices?: readonly { id?: string }[]
}

const CASE_INSENSITIVE: ReadonlySet<UniqueField> = new Set([
  'login name',
  'companyEmail',
  'instantMessagingId',
])
