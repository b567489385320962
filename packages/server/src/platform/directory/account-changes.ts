/**
 * What a user changes of its own account through the API (specification, "User information"): its
 * password and its preferences, each planned as a DirectoryChange.
 */
import type { ClirMode, UserPreferences } from '@openness/wire'
import type { PasswordHasher } from '../auth/password-hasher.js'
import type { Clock } from '../events.js'
import { PlatformError } from '../platform-error.js'
import type { StoredAccount, UserAccount } from './account.js'
import {
  type DirectoryChange,
  type DirectoryState,
  existingAccount,
  existingUser,
} from './directory-change.js'

/** The clirMode values a user may choose, and the provisioned ones that let the user choose. */
export const SETTABLE_CLIR_MODES: readonly ClirMode[] = ['ACTIVE', 'INACTIVE']

/** Minimum length of a password set through the API. */
export const MIN_PASSWORD_LENGTH = 8

/** A new password, hashed, for the account as it was when its old password was verified. */
export interface VerifiedPassword {
  account: StoredAccount
  passwordHash: string
}

/** Password and preferences changes, planned on `directory` as it is. */
export class AccountChanges {
  constructor(
    private readonly directory: DirectoryState,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks `oldPassword` against the account's password and `newPassword` against the rules, then
   * hashes `newPassword`: the slow part of a password change, done before the change waits its turn.
   */
  async verifyPasswordChange(
    loginName: string,
    oldPassword: string,
    newPassword: string,
  ): Promise<VerifiedPassword> {
    const account = existingAccount(this.directory, loginName)
    if (!(await this.hasher.verify(oldPassword, account.passwordHash)))
      throw new PlatformError('NOT_ALLOWED', 'oldPassword is not the current password')
    if (newPassword.length < MIN_PASSWORD_LENGTH)
      throw new PlatformError(
        'BAD_PARAMETER',
        `newPassword must have at least ${MIN_PASSWORD_LENGTH} characters`,
      )
    if (newPassword === oldPassword)
      throw new PlatformError('BAD_PARAMETER', 'newPassword must differ from oldPassword')
    return { account, passwordHash: await this.hasher.hash(newPassword) }
  }

  /** Stores the new password verifyPasswordChange answered, unless the password changed meanwhile. */
  changePassword({ account, passwordHash }: VerifiedPassword): DirectoryChange<void> {
    const current = existingAccount(this.directory, account.loginName)
    // The password verified must still be the current one once the new one is hashed.
    if (current.passwordHash !== account.passwordHash)
      throw new PlatformError('NOT_ALLOWED', 'oldPassword is not the current password')
    const changedAt = new Date(this.clock.now()).toISOString()
    return {
      save: [{ ...current, passwordHash, passwordChangedAt: changedAt }],
      events: [],
      result: undefined,
    }
  }

  /**
   * Applies a preferences change: a field present replaces the stored one, an empty string clears it,
   * an absent field is left alone. Nothing is stored when any field is refused. Publishes
   * OnPreferencesChanged.
   */
  updatePreferences(
    account: UserAccount,
    change: UserPreferences,
  ): DirectoryChange<UserPreferences> {
    const current = existingUser(this.directory, account.loginName)
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
    const changed = {
      eventName: 'OnPreferencesChanged',
      loginName: current.loginName,
      preferences: this.directory.preferences(updated),
    }
    return { save: [updated], events: [changed], result: next }
  }

  private checkPreferences(account: UserAccount, change: UserPreferences): void {
    if (change.professionalMobile !== undefined && account.record.type !== 'MULTIMEDIA')
      throw new PlatformError('NOT_ALLOWED', 'only multimedia users can update professionalMobile')
    const { languages } = this.directory.settings
    for (const field of ['guiLanguage', 'tuiLanguage'] as const) {
      const value = change[field]
      const supported = field === 'guiLanguage' ? languages.gui : languages.tui
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
}
