/**
 * The directory of the platform held in memory for hot reads (session lookup, the acting user), written
 * through to the durable DirectoryStore on every change.
 */
import { isDeepStrictEqual } from 'node:util'
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
import type {
  DirectoryDevice,
  DirectoryUser,
  DirectoryUserView,
  UserContext,
} from './directory-document.js'
import { userRecord } from './directory-import.js'
import { relinkManagerAssistant, withConfiguration } from './manager-assistant.js'
import {
  checkDevicePatch,
  checkDevices,
  checkNewUser,
  checkUserPatch,
  claimsOf,
  userEntry,
} from './user-entry.js'

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
  private readonly byCompanyPhone = new Map<string, UserAccount>()
  private readonly byDeviceId = new Map<string, UserAccount>()
  /** The tail of the queue of changes: each change runs alone, on the state the previous one left. */
  private queue: Promise<unknown> = Promise.resolve()

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

  /** The user one of whose devices has this id. */
  findUserByDevice(deviceId: string): UserAccount | undefined {
    return this.byDeviceId.get(deviceId)
  }

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
        return this.byCompanyPhone.get(value) ?? this.byDeviceId.get(value)
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
    return this.exclusive(async () => {
      const current = this.existingUser(account.loginName)
      this.checkPreferences(current, change)
      const next: UserPreferences = { ...current.preferences }
      for (const [field, value] of Object.entries(change) as [keyof UserPreferences, unknown][]) {
        if (field === 'telephony') continue
        if (value === '') delete next[field]
        else (next as Record<string, unknown>)[field] = value
      }
      if (change.telephony?.clirMode !== undefined)
        next.telephony = { clirMode: change.telephony.clirMode }
      const updated: UserAccount = { ...current, preferences: next }
      await this.save(updated)
      this.events.publish({
        eventName: 'OnPreferencesChanged',
        loginName: current.loginName,
        preferences: this.preferences(updated),
      })
      return next
    })
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
    await this.exclusive(async () => {
      const current = this.findAccount(loginName)
      if (current === undefined) throw new PlatformError('NOT_FOUND', `No account '${loginName}'`)
      // The password verified above must still be the current one once the new one is hashed.
      if (current.passwordHash !== account.passwordHash)
        throw new PlatformError('NOT_ALLOWED', 'oldPassword is not the current password')
      const changedAt = new Date(this.clock.now()).toISOString()
      await this.save({ ...current, passwordHash, passwordChangedAt: changedAt })
    })
  }

  /** The account when `password` is its password, else undefined; the same time for unknown accounts. */
  async verifyPassword(loginName: string, password: string): Promise<StoredAccount | undefined> {
    const account = this.findAccount(loginName)
    const matches = await this.hasher.verify(password, account?.passwordHash)
    return matches ? account : undefined
  }

  /** The stored user in the directory file's format, without its password. */
  userEntry(account: UserAccount): DirectoryUserView {
    return userEntry(account)
  }

  /**
   * Creates a user from `entry`, a user in the directory file's format, checked as the file's users are
   * and against every other account; a `password` is hashed. Publishes OnUserCreated, then
   * OnUserInfoChanged for each assistant the new user manages.
   */
  async createUser(entry: unknown): Promise<UserAccount> {
    const user = checkNewUser(entry, this.userContext(undefined))
    const password = await this.passwordOf(user)
    return this.exclusive(async () => {
      // Again: a change queued before this one may have taken a login name or a number meanwhile.
      checkNewUser(entry, this.userContext(undefined))
      const { loginName } = user
      const record = userRecord(user, this.settings.nodeId, undefined)
      const assistants = user.assistants ?? []
      const relinked = relinkManagerAssistant(this.recordOf, { loginName, record, assistants })
      const account: UserAccount = {
        kind: 'USER',
        loginName,
        record: withConfiguration(record, relinked.configuration),
        ...password,
        preferences: structuredClone(user.preferences ?? {}),
      }
      const others = this.withRecords(relinked.others)
      await this.commit([account, ...others])
      this.events.publish({
        eventName: 'OnUserCreated',
        loginName,
        user: this.userView(account, true),
      })
      this.publishUserInfo(others)
      return account
    })
  }

  /**
   * Changes the user's fields as `patch` says, in the directory file's format: a field present
   * replaces, `null` removes an optional field, an absent field stays; `loginName` cannot change; a
   * `password` is hashed and rules from now on like the file's. `preferences` replace the user's
   * preferences as a whole. Publishes OnUserInfoChanged when the User record changed, OnPreferencesChanged
   * when the preferences in force changed, then OnUserInfoChanged for each manager or assistant whose
   * record changed with it. A change that changes nothing stores and publishes nothing.
   */
  async updateUser(loginName: string, patch: unknown): Promise<UserAccount> {
    checkUserPatch(this.existingUser(loginName), patch, this.userContext(loginName))
    const password = await this.passwordChange(patch as Record<string, unknown>)
    return this.exclusive(async () => {
      const current = this.existingUser(loginName)
      const user = checkUserPatch(this.existingUser(loginName), patch, this.userContext(loginName))
      const record = userRecord(user, this.settings.nodeId, undefined)
      const assistants = user.assistants ?? []
      const relinked = relinkManagerAssistant(this.recordOf, { loginName, record, assistants })
      const next: UserAccount = {
        ...current,
        record: withConfiguration(record, relinked.configuration),
      }
      if ('preferences' in (patch as object))
        next.preferences = structuredClone(user.preferences ?? {})
      if (password !== undefined) {
        delete next.passwordHash
        delete next.passwordChangedAt
        Object.assign(next, password)
      }
      const others = this.withRecords(relinked.others)
      if (others.length === 0 && isDeepStrictEqual(next, current)) return current
      await this.commit([next, ...others])
      const view = this.userView(next, true)
      if (!isDeepStrictEqual(view, this.userView(current, true)))
        this.events.publish({ eventName: 'OnUserInfoChanged', loginName, user: view })
      const preferences = this.preferences(next)
      if (!isDeepStrictEqual(preferences, this.preferences(current)))
        this.events.publish({ eventName: 'OnPreferencesChanged', loginName, preferences })
      this.publishUserInfo(others)
      return next
    })
  }

  /**
   * Deletes the user with its password and preferences, and removes it from its managers' and
   * assistants' records. Publishes OnUserDeleted, then OnUserInfoChanged for each of those. Open
   * sessions of the user are left to end by themselves; the user is no longer found.
   */
  async deleteUser(loginName: string): Promise<void> {
    await this.exclusive(async () => {
      this.existingUser(loginName)
      const change = { loginName, record: undefined, assistants: [] }
      const others = this.withRecords(relinkManagerAssistant(this.recordOf, change).others)
      await this.store.deleteAccount(loginName)
      this.unindex(loginName)
      await this.commit(others)
      this.events.publish({ eventName: 'OnUserDeleted', loginName })
      this.publishUserInfo(others)
    })
  }

  /** Adds a device in the directory file's format to the user; publishes OnUserInfoChanged. */
  async addDevice(loginName: string, device: unknown): Promise<DirectoryDevice> {
    return this.exclusive(async () => {
      const current = this.existingUser(loginName)
      const devices = [...this.userEntry(current).devices, device]
      checkDevices(current, devices, devices.length - 1, this.userContext(loginName))
      const added = structuredClone(device as DirectoryDevice)
      await this.changeDevices(current, [...(current.record.devices ?? []), added])
      return added
    })
  }

  /**
   * Changes the user's device `deviceId` as `patch` says (as updateUser does; the id cannot change);
   * publishes OnUserInfoChanged unless nothing changed.
   */
  async updateDevice(
    loginName: string,
    deviceId: string,
    patch: unknown,
  ): Promise<DirectoryDevice> {
    return this.exclusive(async () => {
      const current = this.existingUser(loginName)
      const index = this.deviceIndex(current, deviceId)
      const device = checkDevicePatch(current, index, patch, this.userContext(loginName))
      if (isDeepStrictEqual(device, current.record.devices?.[index])) return device
      await this.changeDevices(current, (current.record.devices ?? []).with(index, device))
      return device
    })
  }

  /** Removes the user's device `deviceId`; publishes OnUserInfoChanged. */
  async removeDevice(loginName: string, deviceId: string): Promise<void> {
    await this.exclusive(async () => {
      const current = this.existingUser(loginName)
      const index = this.deviceIndex(current, deviceId)
      const devices = (current.record.devices ?? []).filter((_, position) => position !== index)
      await this.changeDevices(current, devices)
    })
  }

  /** Runs `change` after every change queued before it, so that changes never interleave. */
  private exclusive<T>(change: () => Promise<T>): Promise<T> {
    const done = this.queue.then(change)
    this.queue = done.then(
      () => undefined,
      () => undefined,
    )
    return done
  }

  /** The user `loginName`, or NOT_FOUND. */
  private existingUser(loginName: string): UserAccount {
    const user = this.findUser(loginName)
    if (user === undefined) throw new PlatformError('NOT_FOUND', `No user '${loginName}'`)
    return user
  }

  private deviceIndex(user: UserAccount, deviceId: string): number {
    const index = (user.record.devices ?? []).findIndex((device) => device.id === deviceId)
    if (index < 0)
      throw new PlatformError('NOT_FOUND', `User '${user.loginName}' has no device '${deviceId}'`)
    return index
  }

  /** A user's record as it is now, for relinking managers and assistants. */
  private readonly recordOf = (loginName: string): UserRecord | undefined =>
    this.findUser(loginName)?.record

  /** The rest of the directory, for checking the user `loginName` (undefined: a new user). */
  private userContext(loginName: string | undefined): UserContext {
    return {
      claims: claimsOf(this.accounts.values(), loginName),
      languages: this.settings.languages,
      isUser: (login) => this.findUser(login) !== undefined,
    }
  }

  private async changeDevices(user: UserAccount, devices: UserRecord['devices']): Promise<void> {
    const next: UserAccount = { ...user, record: { ...user.record, devices } }
    await this.commit([next])
    this.publishUserInfo([next])
  }

  /** The stored password of a new user: its `password` hashed, or its `passwordHash`. */
  private async passwordOf(user: DirectoryUser): Promise<{ passwordHash?: string }> {
    if (user.password !== undefined) return { passwordHash: await this.hasher.hash(user.password) }
    return user.passwordHash === undefined ? {} : { passwordHash: user.passwordHash }
  }

  /** The password a patch sets (`{}`: none), or undefined when it leaves the password alone. */
  private async passwordChange(
    patch: Record<string, unknown>,
  ): Promise<{ passwordHash?: string } | undefined> {
    const { password, passwordHash } = patch
    if (typeof password === 'string') return { passwordHash: await this.hasher.hash(password) }
    if (typeof passwordHash === 'string') return { passwordHash }
    return password === null || passwordHash === null ? {} : undefined
  }

  /** The accounts of these users with their new records. */
  private withRecords(records: readonly UserRecord[]): UserAccount[] {
    return records.flatMap((record) => {
      const account = this.findUser(record.loginName)
      return account === undefined ? [] : [{ ...account, record }]
    })
  }

  /** Stores the accounts one by one, each indexed once stored. */
  private async commit(accounts: readonly StoredAccount[]): Promise<void> {
    for (const account of accounts) await this.save(account)
  }

  private publishUserInfo(accounts: readonly UserAccount[]): void {
    for (const account of accounts) {
      this.events.publish({
        eventName: 'OnUserInfoChanged',
        loginName: account.loginName,
        user: this.userView(account, true),
      })
    }
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
    this.unindex(account.loginName)
    this.accounts.set(account.loginName, account)
    if (account.kind !== 'USER') return
    const { record } = account
    if (record.companyEmail) this.byEmail.set(record.companyEmail.toLowerCase(), account)
    if (record.instantMessagingId)
      this.byInstantMessagingId.set(record.instantMessagingId.toLowerCase(), account)
    if (record.companyPhone) this.byCompanyPhone.set(record.companyPhone, account)
    for (const device of record.devices ?? []) {
      if (device.id && !this.byDeviceId.has(device.id)) this.byDeviceId.set(device.id, account)
    }
  }

  /** Forgets the account and every index entry that leads to it. */
  private unindex(loginName: string): void {
    const previous = this.accounts.get(loginName)
    this.accounts.delete(loginName)
    if (previous?.kind !== 'USER') return
    const { record } = previous
    const drop = (index: Map<string, UserAccount>, key: string | undefined) => {
      if (key && index.get(key)?.loginName === loginName) index.delete(key)
    }
    drop(this.byEmail, record.companyEmail?.toLowerCase())
    drop(this.byInstantMessagingId, record.instantMessagingId?.toLowerCase())
    drop(this.byCompanyPhone, record.companyPhone)
    for (const device of record.devices ?? []) drop(this.byDeviceId, device.id)
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
