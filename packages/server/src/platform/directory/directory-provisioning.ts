/**
 * Provisioning (docs/control-plane.md): creating, changing and deleting users and their devices, each
 * planned as a DirectoryChange. Users and devices come in the directory file's format and are checked
 * as the file's are and against every other account (user-entry.ts); the records of the managers and
 * assistants of a user follow its changes (manager-assistant.ts).
 */
import { isDeepStrictEqual } from 'node:util'
import type { User } from '@openness/wire'
import type { PasswordHasher } from '../auth/password-hasher.js'
import type { PlatformEvent } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { UserAccount, UserRecord } from './account.js'
import {
  type DirectoryChange,
  type DirectoryState,
  existingUser,
  noChange,
} from './directory-change.js'
import type { UserContext } from './directory-document-checks.js'
import type { DirectoryDevice, DirectoryUser } from './directory-file-schema.js'
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

/** The password of a stored account: its hash, or none. */
export type StoredPassword = { passwordHash?: string }

/** The control plane's changes to users and their devices, planned on `directory` as it is. */
export class DirectoryProvisioning {
  constructor(
    private readonly directory: DirectoryState,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * Checks the new user `entry` and answers its stored password: its `password` hashed, or its
   * `passwordHash`. The slow part of createUser, done before the change waits its turn.
   */
  async newUserPassword(entry: unknown): Promise<StoredPassword> {
    const user = checkNewUser(entry, this.userContext(undefined))
    if (user.password !== undefined) return { passwordHash: await this.hasher.hash(user.password) }
    return user.passwordHash === undefined ? {} : { passwordHash: user.passwordHash }
  }

  /**
   * Checks `patch` to the user `loginName` and answers the password it sets (`{}`: none), or undefined
   * when it leaves the password alone. The slow part of updateUser, done before the change waits.
   */
  async patchPassword(loginName: string, patch: unknown): Promise<StoredPassword | undefined> {
    checkUserPatch(existingUser(this.directory, loginName), patch, this.userContext(loginName))
    const { password, passwordHash } = patch as Record<string, unknown>
    if (typeof password === 'string') return { passwordHash: await this.hasher.hash(password) }
    if (typeof passwordHash === 'string') return { passwordHash }
    return password === null || passwordHash === null ? {} : undefined
  }

  /**
   * Creates a user from `entry`, a user in the directory file's format, checked as the file's users are
   * and against every other account, with the `password` newUserPassword answered. Publishes
   * OnUserCreated, then OnUserInfoChanged for each assistant the new user manages.
   */
  createUser(entry: unknown, password: StoredPassword): DirectoryChange<UserAccount> {
    // Again: a change before this one may have taken a login name or a number meanwhile.
    const user = checkNewUser(entry, this.userContext(undefined))
    const { loginName } = user
    const { record, others } = this.relink(user)
    const account: UserAccount = {
      kind: 'USER',
      loginName,
      record,
      ...password,
      preferences: structuredClone(user.preferences ?? {}),
    }
    const created = { eventName: 'OnUserCreated', loginName, user: this.view(account) }
    return {
      save: [account, ...others],
      events: [created, ...this.userInfoChanged(others)],
      result: account,
    }
  }

  /**
   * Changes the user's fields as `patch` says, in the directory file's format: a field present
   * replaces, `null` removes an optional field, an absent field stays; `loginName` cannot change; the
   * `password` patchPassword answered rules from now on like the file's. `preferences` replace the
   * user's preferences as a whole. Publishes OnUserInfoChanged when the User record changed,
   * OnPreferencesChanged when the preferences in force changed, then OnUserInfoChanged for each
   * manager or assistant whose record changed with it. A change that changes nothing does nothing.
   */
  updateUser(
    loginName: string,
    patch: unknown,
    password: StoredPassword | undefined,
  ): DirectoryChange<UserAccount> {
    const current = existingUser(this.directory, loginName)
    const user = checkUserPatch(current, patch, this.userContext(loginName))
    const { record, others } = this.relink(user)
    const next: UserAccount = { ...current, record }
    if ('preferences' in (patch as object))
      next.preferences = structuredClone(user.preferences ?? {})
    if (password !== undefined) {
      delete next.passwordHash
      delete next.passwordChangedAt
      Object.assign(next, password)
    }
    if (others.length === 0 && isDeepStrictEqual(next, current)) return noChange(current)
    const events: PlatformEvent[] = []
    const view = this.view(next)
    if (!isDeepStrictEqual(view, this.view(current)))
      events.push({ eventName: 'OnUserInfoChanged', loginName, user: view })
    const preferences = this.directory.preferences(next)
    if (!isDeepStrictEqual(preferences, this.directory.preferences(current)))
      events.push({ eventName: 'OnPreferencesChanged', loginName, preferences })
    events.push(...this.userInfoChanged(others))
    return { save: [next, ...others], events, result: next }
  }

  /**
   * Deletes the user with its password and preferences, and removes it from its managers' and
   * assistants' records. Publishes OnUserDeleted, then OnUserInfoChanged for each of those. Open
   * sessions of the user are left to end by themselves; the user is no longer found.
   */
  deleteUser(loginName: string): DirectoryChange<void> {
    existingUser(this.directory, loginName)
    const change = { loginName, record: undefined, assistants: [] }
    const others = this.withRecords(relinkManagerAssistant(this.recordOf, change).others)
    return {
      delete: loginName,
      save: others,
      events: [{ eventName: 'OnUserDeleted', loginName }, ...this.userInfoChanged(others)],
      result: undefined,
    }
  }

  /** Adds a device in the directory file's format to the user; publishes OnUserInfoChanged. */
  addDevice(loginName: string, device: unknown): DirectoryChange<DirectoryDevice> {
    const current = existingUser(this.directory, loginName)
    const devices = [...userEntry(current).devices, device]
    checkDevices(current, devices, devices.length - 1, this.userContext(loginName))
    const added = structuredClone(device as DirectoryDevice)
    return this.devicesChange(current, [...(current.record.devices ?? []), added], added)
  }

  /**
   * Changes the user's device `deviceId` as `patch` says (as updateUser does; the id cannot change);
   * publishes OnUserInfoChanged unless nothing changed.
   */
  updateDevice(
    loginName: string,
    deviceId: string,
    patch: unknown,
  ): DirectoryChange<DirectoryDevice> {
    const current = existingUser(this.directory, loginName)
    const index = deviceIndex(current, deviceId)
    const device = checkDevicePatch(current, index, patch, this.userContext(loginName))
    if (isDeepStrictEqual(device, current.record.devices?.[index])) return noChange(device)
    return this.devicesChange(current, (current.record.devices ?? []).with(index, device), device)
  }

  /** Removes the user's device `deviceId`; publishes OnUserInfoChanged. */
  removeDevice(loginName: string, deviceId: string): DirectoryChange<void> {
    const current = existingUser(this.directory, loginName)
    const index = deviceIndex(current, deviceId)
    const devices = (current.record.devices ?? []).filter((_, position) => position !== index)
    return this.devicesChange(current, devices, undefined)
  }

  /** The rest of the directory, for checking the user `loginName` (undefined: a new user). */
  private userContext(loginName: string | undefined): UserContext {
    return {
      claims: claimsOf(this.directory.accounts(), loginName),
      languages: this.directory.settings.languages,
      isUser: (login) => this.directory.findUser(login) !== undefined,
    }
  }

  /** The record of `user`, and the accounts of its managers and assistants whose records change with it. */
  private relink(user: DirectoryUser): { record: UserRecord; others: UserAccount[] } {
    const { loginName } = user
    const record = userRecord(user, this.directory.settings.nodeId, undefined)
    const assistants = user.assistants ?? []
    const relinked = relinkManagerAssistant(this.recordOf, { loginName, record, assistants })
    return {
      record: withConfiguration(record, relinked.configuration),
      others: this.withRecords(relinked.others),
    }
  }

  /** A user's record as it is now, for relinking managers and assistants. */
  private readonly recordOf = (loginName: string): UserRecord | undefined =>
    this.directory.findUser(loginName)?.record

  /** The accounts of these users with their new records. */
  private withRecords(records: readonly UserRecord[]): UserAccount[] {
    return records.flatMap((record) => {
      const account = this.directory.findUser(record.loginName)
      return account === undefined ? [] : [{ ...account, record }]
    })
  }

  private devicesChange<T>(
    user: UserAccount,
    devices: UserRecord['devices'],
    result: T,
  ): DirectoryChange<T> {
    const next: UserAccount = { ...user, record: { ...user.record, devices } }
    return { save: [next], events: this.userInfoChanged([next]), result }
  }

  private userInfoChanged(accounts: readonly UserAccount[]): PlatformEvent[] {
    return accounts.map((account) => ({
      eventName: 'OnUserInfoChanged',
      loginName: account.loginName,
      user: this.view(account),
    }))
  }

  /** The whole User record, as the events give it. */
  private view(account: UserAccount): User {
    return this.directory.userView(account, true)
  }
}

function deviceIndex(user: UserAccount, deviceId: string): number {
  const index = (user.record.devices ?? []).findIndex((device) => device.id === deviceId)
  if (index < 0)
    throw new PlatformError('NOT_FOUND', `User '${user.loginName}' has no device '${deviceId}'`)
  return index
}
