/**
 * The directory of the platform held in memory for hot reads (session lookup, the acting user), written
 * through to the durable DirectoryStore on every change.
 */
import type {
  ClirMode,
  SupervisedAccountType,
  User,
  UserPreferences,
  UserRight,
  UserType,
} from '@openness/wire'
import type { PasswordHasher } from '../auth/password-hasher.js'
import { PlatformError } from '../platform-error.js'
import type { Clock, DirectorySnapshot, DirectoryStore, EventSink } from '../ports.js'
import type { DirectorySettings, StoredAccount, UserRecord } from './account.js'

/** A user account of the directory. */
export type UserAccount = Extract<StoredAccount, { kind: 'USER' }>

/** The keys GET /users may search by (specification, "User information"). */
export type UserLookupKey = 'loginName' | 'companyEmail' | 'instantMessagingId' | 'companyPhone'

/** Filters of GET /logins. */
export interface LoginFilter {
  types?: UserType[]
  apiRights?: UserRight[]
  nodeIds?: string[]
}

/** The clirMode values a user may choose, and the provisioned ones that let the user choose. */
const SETTABLE_CLIR_MODES: readonly ClirMode[] = ['ACTIVE', 'INACTIVE']

/** Minimum length of a password set through the API. */
export const MIN_PASSWORD_LENGTH = 8

/** Users, administrators and directory-wide settings, with the rules for changing them. */
export class Directory {
  private readonly accounts = new Map<string, StoredAccount>()
  private readonly byEmail = new Map<string, UserAccount>()
  private readonly byInstantMessagingId = new Map<string, UserAccount>()
  private readonly byPhone = new Map<string, UserAccount>()

  constructor(
    private readonly store: DirectoryStore,
    snapshot: DirectorySnapshot,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly events: EventSink,
  ) {
    this.settings = snapshot.settings
    for (const account of snapshot.accounts) this.index(account)
  }

  /** Directory-wide settings: company, numbering plan, licenses, languages. */
  readonly settings: DirectorySettings

  /** The account (user or administrator) with this login name. */
  findAccount(loginName: string): StoredAccount | undefined {
    return this.accounts.get(loginName)
  }

  /** The user with this login name. */
  findUser(loginName: string): UserAccount | undefined {
    const account = this.accounts.get(loginName)
    return account?.kind === 'USER' ? account : undefined
  }

  /** The user whose field `key` equals `value` (a phone number matches the company phone or a device). */
  findUserBy(key: UserLookupKey, value: string): UserAccount | undefined {
    switch (key) {
      case 'loginName':
        return this.findUser(value)
      case 'companyEmail':
        return this.byEmail.get(value.toLowerCase())
      case 'instantMessagingId':
        return this.byInstantMessagingId.get(value.toLowerCase())
      case 'companyPhone':
        return this.byPhone.get(value)
    }
  }

  /** The account a supervised session targets (specification, "Authentication" item 7). */
  findSupervisedAccount(type: SupervisedAccountType, id: string): StoredAccount | undefined {
    switch (type) {
      case 'LOGIN_NAME':
        return this.findAccount(id)
      case 'PHONE_NUMBER':
        return this.findUserBy('companyPhone', id)
      case 'EMAIL':
        return this.findUserBy('companyEmail', id)
      case 'INSTANT_MESSAGING_ID':
        return this.findUserBy('instantMessagingId', id)
    }
  }

  /** Login names of the users matching every given filter, in alphabetical order. */
  listUserLogins(filter: LoginFilter = {}): string[] {
    const logins: string[] = []
    for (const account of this.accounts.values()) {
      if (account.kind !== 'USER') continue
      const { record } = account
      if (filter.types && !filter.types.includes(record.type)) continue
      if (filter.apiRights && !filter.apiRights.every((right) => record.apiRights.includes(right)))
        continue
      if (filter.nodeIds && !filter.nodeIds.includes(this.settings.nodeId)) continue
      logins.push(account.loginName)
    }
    return logins.sort()
  }

  /**
   * The User record as the specification shows it. With `full` false the starred fields (type, site,
   * department, devices, dialingRule, apiRights, applicationRights, customAttributes) are left out.
   */
  userView(account: UserAccount, full: boolean): User {
    const { clirMode: _clir, dialingRule, ...record } = account.record
    const view: User = { ...record, nodeId: this.settings.nodeId }
    if (!full) {
      for (const field of PRIVATE_USER_FIELDS) delete view[field]
      return view
    }
    view.dialingRule = dialingRule ?? this.defaultDialingRule()
    return view
  }

  /** The user's preferences, with the telephony preferences in force. */
  preferences(account: UserAccount): UserPreferences {
    return { ...account.preferences, telephony: { clirMode: this.clirMode(account) } }
  }

  /**
   * The calling line identity restriction in force for the user: the user's choice when the platform
   * lets the user choose, else the provisioned mode (which may have changed since the choice).
   */
  clirMode(account: UserAccount): ClirMode {
    const provisioned = account.record.clirMode
    if (!SETTABLE_CLIR_MODES.includes(provisioned)) return provisioned
    return account.preferences.telephony?.clirMode ?? provisioned
  }

  /**
   * Applies a preferences change: a field present replaces the stored one, an empty string clears it,
   * an absent field is left alone. Nothing is stored when any field is refused.
   */
  async updatePreferences(account: UserAccount, change: UserPreferences): Promise<UserPreferences> {
    this.checkPreferences(account, change)
    const next: UserPreferences = { ...account.preferences }
    for (const [field, value] of Object.entries(change) as [keyof UserPreferences, unknown][]) {
      if (field === 'telephony') continue
      if (value === '') delete next[field]
      else (next as Record<string, unknown>)[field] = value
    }
    if (change.telephony?.clirMode !== undefined)
      next.telephony = { clirMode: change.telephony.clirMode }
    const updated: UserAccount = { ...account, preferences: next }
    await this.save(updated)
    this.events.publish({
      eventName: 'OnPreferencesChanged',
      loginName: account.loginName,
      preferences: this.preferences(updated),
    })
    return next
  }

  /** Changes an account's password after checking the old one. */
  async changePassword(loginName: string, oldPassword: string, newPassword: string): Promise<void> {
    const account = this.findAccount(loginName)
    if (account === undefined) throw new PlatformError('NOT_FOUND', `No account '${loginName}'`)
    if (!(await this.hasher.verify(oldPassword, account.passwordHash)))
      throw new PlatformError('NOT_ALLOWED', 'oldPassword is not the current password')
    if (newPassword.length < MIN_PASSWORD_LENGTH)
      throw new PlatformError(
        'BAD_PARAMETER',
        `newPassword must have at least ${MIN_PASSWORD_LENGTH} characters`,
      )
    if (newPassword === oldPassword)
      throw new PlatformError('BAD_PARAMETER', 'newPassword must differ from oldPassword')
    const passwordHash = await this.hasher.hash(newPassword)
    const changedAt = new Date(this.clock.now()).toISOString()
    await this.save({ ...account, passwordHash, passwordChangedAt: changedAt })
  }

  /** True when `password` is the account's password; spends the same time for unknown accounts. */
  async verifyPassword(loginName: string, password: string): Promise<StoredAccount | undefined> {
    const account = this.findAccount(loginName)
    const matches = await this.hasher.verify(password, account?.passwordHash)
    return matches ? account : undefined
  }

  private checkPreferences(account: UserAccount, change: UserPreferences): void {
    if (change.professionalMobile !== undefined && account.record.type !== 'MULTIMEDIA')
      throw new PlatformError('NOT_ALLOWED', 'only multimedia users can update professionalMobile')
    for (const field of ['guiLanguage', 'tuiLanguage'] as const) {
      const value = change[field]
      const supported =
        field === 'guiLanguage' ? this.settings.languages.gui : this.settings.languages.tui
      if (value && !supported.includes(value) && !supported.includes(value.slice(0, 2)))
        throw new PlatformError(
          'BAD_PARAMETER',
          `${field} '${value}' is not a supported language (${supported.join(', ')})`,
        )
    }
    const clirMode = change.telephony?.clirMode
    if (clirMode === undefined) return
    if (!SETTABLE_CLIR_MODES.includes(clirMode))
      throw new PlatformError(
        'BAD_PARAMETER',
        `telephony.clirMode can be set to ACTIVE or INACTIVE only`,
      )
    if (!SETTABLE_CLIR_MODES.includes(account.record.clirMode))
      throw new PlatformError(
        'NOT_ALLOWED',
        `clirMode is ${account.record.clirMode} for this user and cannot be changed`,
      )
  }

  private defaultDialingRule(): NonNullable<User['dialingRule']> {
    const plan = this.settings.numberingPlan
    const rule: NonNullable<User['dialingRule']> = {
      countryCode: plan.countryCode,
      externalPrefix: plan.externalPrefix,
      addPfxForNbLength: plan.addPfxForNbLength,
      exceptionRules: plan.exceptionRules,
    }
    if (plan.areaCode !== undefined) rule.areaCode = plan.areaCode
    return rule
  }

  private async save(account: StoredAccount): Promise<void> {
    await this.store.saveAccount(account)
    this.index(account)
  }

  private index(account: StoredAccount): void {
    const previous = this.accounts.get(account.loginName)
    if (previous?.kind === 'USER') this.unindexUser(previous.record)
    this.accounts.set(account.loginName, account)
    if (account.kind !== 'USER') return
    const { record } = account
    if (record.companyEmail) this.byEmail.set(record.companyEmail.toLowerCase(), account)
    if (record.instantMessagingId)
      this.byInstantMessagingId.set(record.instantMessagingId.toLowerCase(), account)
    if (record.companyPhone) this.byPhone.set(record.companyPhone, account)
    for (const device of record.devices ?? []) {
      if (device.id && !this.byPhone.has(device.id)) this.byPhone.set(device.id, account)
    }
  }

  private unindexUser(record: UserRecord): void {
    if (record.companyEmail) this.byEmail.delete(record.companyEmail.toLowerCase())
    if (record.instantMessagingId)
      this.byInstantMessagingId.delete(record.instantMessagingId.toLowerCase())
    if (record.companyPhone) this.byPhone.delete(record.companyPhone)
    for (const device of record.devices ?? []) if (device.id) this.byPhone.delete(device.id)
  }
}

/** The User fields the specification stars: for the owner and administrator sessions only. */
export const PRIVATE_USER_FIELDS = [
  'type',
  'site',
  'department',
  'devices',
  'dialingRule',
  'apiRights',
  'applicationRights',
  'customAttributes',
] as const satisfies readonly (keyof User)[]
