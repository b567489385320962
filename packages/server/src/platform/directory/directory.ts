/**
 * The directory of the platform held in memory for hot reads (session lookup, the acting user), written
 * through to the durable DirectoryStore on every change. The changes themselves are planned elsewhere
 * (directory-provisioning.ts for the control plane, account-changes.ts for a user's own account); the
 * Directory runs them one at a time and carries them out, each only over the accounts as it planned it on
 * (planned again on what the store holds when another node changed one meanwhile), and tells the other nodes
 * of a cluster which accounts changed, reloading in turn those they change (docs/cluster.md, "No lost update"
 * and "What each node keeps in memory").
 */
import { isDeepStrictEqual } from 'node:util'
import type {
  ClirMode,
  SupervisedAccountType,
  User,
  UserPreferences,
  UserRight,
  UserType,
  Voicemail,
} from '@openness/wire'
import type { PasswordHasher } from '../auth/password-hasher.js'
import type { VerifiedPasswords } from '../auth/verified-passwords.js'
import { type ChangeNotices, EVERY_KEY, type Revision } from '../change-notices.js'
import type { Clock, EventSink } from '../events.js'
import { NoticesHeard } from '../notices-heard.js'
import { PlatformError } from '../platform-error.js'
import type { DirectorySettings, StoredAccount, UserAccount } from './account.js'
import { AccountChanges, SETTABLE_CLIR_MODES } from './account-changes.js'
import type { DirectoryChange } from './directory-change.js'
import type { DirectoryDevice } from './directory-file-schema.js'
import { rebaseImport } from './directory-import.js'
import { DirectoryProvisioning } from './directory-provisioning.js'
import type {
  AccountWrites,
  DirectorySnapshot,
  DirectoryStore,
  StoredDirectory,
} from './directory-store.js'
import {
  type DirectoryImport,
  ImportedPasswords,
  withPasswordHashes,
} from './imported-passwords.js'
import { pickupGroupEvents } from './pickup-group-events.js'
import {
  deletePickupGroup,
  existingPickupGroup,
  type PickupGroup,
  pickupGroupsOf,
  setPickupGroup,
} from './pickup-groups.js'
import { userEntry } from './user-entry.js'
import { vcardPathOf } from './vcard-path.js'

export type { UserAccount } from './account.js'

/** The keys GET /users may search by (specification, "User information"). */
export type UserLookupKey = 'loginName' | 'companyEmail' | 'instantMessagingId' | 'companyPhone'

/** Filters of GET /logins. */
export interface LoginFilter {
  types?: UserType[]
  apiRights?: UserRight[]
  nodeIds?: string[]
}

/** What follows the accounts the directory holds (the directory search's index). */
export interface DirectoryWatcher {
  /** The account is now as given (new or changed). */
  put(account: StoredAccount): void
  /** The account no longer exists. */
  drop(loginName: string): void
  /**
   * Resolves once what the watcher does about the changes told so far is done (the engine's devices follow
   * the directory: telephony/engine-devices.ts); a change through this node waits for it before it publishes
   * its events and resolves. Never rejects.
   */
  settled?(): Promise<void>
}

/** What a directory may be given besides its store and source. */
export interface DirectoryOptions {
  /** Passwords verified lately, which a login then need not verify again (none: every login verifies). */
  verified?: VerifiedPasswords
  /**
   * The other nodes of a cluster: told of each account this node stores or deletes (and of an import
   * stored), and telling this node of theirs, which it reloads from the store. None: a node alone.
   */
  notices?: ChangeNotices
  /** Told of a reload that failed: the node keeps its copy as it was until the next notice of it. */
  onReloadFailure?: (error: unknown, loginName: string) => void
  /**
   * Resolves once the events published so far are in the subscriptions' queues (a cluster's logs): a change
   * waits for it before it tells the other nodes, so that a change they store after it publishes after it
   * (docs/cluster.md, "Events in the order of the changes"). None: delivered as published.
   */
  published?: () => Promise<void>
}

/**
 * How many times a change is planned again on accounts reloaded because another node changed them meanwhile
 * before it gives up (each attempt means another writer's change of the same accounts was stored: progress).
 */
export const MAX_COMMIT_ATTEMPTS = 10

/** Users, administrators and directory-wide settings; the one door through which they change. */
export class Directory {
  private readonly watchers: DirectoryWatcher[] = []
  private readonly byLoginName = new Map<string, StoredAccount>()
  /** The revision each account held in memory was stored at (unknown for an import not stored yet). */
  private readonly revisions = new Map<string, Revision>()
  private readonly byEmail = new Map<string, UserAccount>()
  private readonly byInstantMessagingId = new Map<string, UserAccount>()
  private readonly byCompanyPhone = new Map<string, UserAccount>()
  private readonly byDeviceId = new Map<string, UserAccount>()
  /** Each record's Voicemail as the API shows it (shownVoicemail). */
  private readonly shownVoicemails = new WeakMap<Voicemail, Voicemail>()
  /** Each account's views as JSON (userViewJson), with the settings they were made under. */
  private readonly viewJson = new WeakMap<UserAccount, ViewJson>()
  private readonly provisioning: DirectoryProvisioning
  private readonly accountChanges: AccountChanges
  /** The tail of the queue of changes: each change runs alone, on the state the previous one left. */
  private queue: Promise<unknown> = Promise.resolve()
  /** The import the directory started from while it is not stored yet; see {@link completeImport}. */
  private importing: { imported: DirectoryImport; passwords: ImportedPasswords } | undefined
  private importCompleted: Promise<void> | undefined
  /** The import stored (its accounts held), without waiting for the other nodes to reload it. */
  private importStored: Promise<void> | undefined
  /** Reloads under way of what another node changed, by login name (or EVERY_KEY); empty on a node alone. */
  private readonly reloading = new Map<string, Promise<void>>()

  /**
   * Starts from `source`: the directory as stored (with the revisions of its accounts; an account whose
   * revision is not given is reloaded by its first change), or an import not stored yet whose passwords are
   * still to hash (the accounts concerned cannot log in until theirs is: a login waits for it).
   */
  constructor(
    private readonly store: DirectoryStore,
    source: StoredDirectory | DirectorySnapshot | DirectoryImport,
    private readonly hasher: PasswordHasher,
    clock: Clock,
    private readonly events: EventSink,
    options: DirectoryOptions = {},
  ) {
    this.verified = options.verified
    this.notices = options.notices
    this.onReloadFailure = options.onReloadFailure ?? (() => {})
    this.published = options.published
    this.heard = new NoticesHeard(clock)
    const snapshot = 'snapshot' in source ? source.snapshot : source
    if ('snapshot' in source)
      this.importing = {
        imported: source,
        passwords: new ImportedPasswords(source.passwords, hasher),
      }
    this.settings = snapshot.settings
    const { revisions } = snapshot as Partial<StoredDirectory>
    for (const account of snapshot.accounts) this.index(account, revisions?.get(account.loginName))
    this.provisioning = new DirectoryProvisioning(this, hasher)
    this.accountChanges = new AccountChanges(this, hasher, clock)
    this.notices?.follow('directory', (loginName) => {
      this.heard.hear(loginName)
      return this.reload(loginName)
    })
  }

  private readonly verified: VerifiedPasswords | undefined
  private readonly notices: ChangeNotices | undefined
  private readonly onReloadFailure: (error: unknown, loginName: string) => void
  private readonly published: (() => Promise<void>) | undefined
  /** The other nodes' notices heard, by login name. */
  private readonly heard: NoticesHeard

  /**
   * Directory-wide settings: company, numbering plan, licenses, languages. Replaced only when another
   * node stored an import (the directory file changed), never changed in place.
   */
  settings: DirectorySettings

  /** Every account, users and administrators. */
  accounts(): IterableIterator<StoredAccount> {
    return this.byLoginName.values()
  }

  /**
   * Tells `watcher` of every account indexed or forgotten from now on: each change through the control
   * plane or the API, and the accounts of an import once it is stored. It reads `accounts()` for the rest.
   */
  watch(watcher: DirectoryWatcher): void {
    this.watchers.push(watcher)
  }

  /** The user one of whose devices has this id. */
  findUserByDevice(deviceId: string): UserAccount | undefined {
    return this.byDeviceId.get(deviceId)
  }

  /** The account (user or administrator) with this login name. */
  findAccount(loginName: string): StoredAccount | undefined {
    return this.byLoginName.get(loginName)
  }

  /** The user with this login name. */
  findUser(loginName: string): UserAccount | undefined {
    const account = this.byLoginName.get(loginName)
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
    for (const account of this.byLoginName.values()) {
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
    // Made for every event about a user, and once per account record for GET /users/{loginName}, which keeps its
    // JSON (userViewJson): one plain copy of the wanted fields, in the record's order, instead of a rest, a
    // spread and deletes (deleting turns the object into a slow dictionary that costs more to serialize;
    // docs/performance.md, "auth-read").
    const record = account.record as unknown as Record<string, unknown>
    const view: Record<string, unknown> = {}
    for (const key in record)
      if (!HIDDEN_FIELDS.has(key) && (full || !PRIVATE_FIELDS.has(key))) view[key] = record[key]
    view['nodeId'] = this.settings.nodeId
    view['vcardPath'] = vcardPathOf(account.loginName)
    // The Node SDK reads the e-mail address as `eMailAddress` (wire facts 7): the same value.
    if (account.record.companyEmail !== undefined)
      view['eMailAddress'] = account.record.companyEmail
    // The vendor's Python sample reads `voicemail.id` unguarded: the mailbox's id, the login name.
    const { voicemail } = account.record
    if (voicemail !== undefined)
      view['voicemail'] = this.shownVoicemail(voicemail, account.loginName)
    if (full) view['dialingRule'] = account.record.dialingRule ?? this.planDialingRule()
    return view as User
  }

  /**
   * The JSON of `userView(account, full)` as `serialize` writes it, made once per account record and settings
   * (both are replaced, never changed in place, and a view is made of nothing else): GET /users/{loginName}, the
   * hottest read of the API, would otherwise build and serialize the same view at every read (docs/performance.md,
   * "auth-read"). `serialize` is the User schema's serializer of the route that asks; every caller's gives the
   * same text for the same view, so the first one's is kept. About a kilobyte an account read, freed with the
   * record.
   */
  userViewJson(account: UserAccount, full: boolean, serialize: (view: User) => string): string {
    let views = this.viewJson.get(account)
    if (views === undefined || views.settings !== this.settings) {
      views = { settings: this.settings }
      this.viewJson.set(account, views)
    }
    const kind = full ? 'full' : 'partial'
    let json = views[kind]
    if (json === undefined) {
      json = serialize(this.userView(account, full))
      views[kind] = json
    }
    return json
  }

  /**
   * The user's Voicemail with its `id`, made once per record's Voicemail (records are replaced, never
   * changed in place) rather than on every read of the hot path.
   */
  private shownVoicemail(voicemail: Voicemail, loginName: string): Voicemail {
    let shown = this.shownVoicemails.get(voicemail)
    if (shown === undefined) {
      shown = { number: voicemail.number, type: voicemail.type, id: loginName }
      this.shownVoicemails.set(voicemail, shown)
    }
    return shown
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

  /** The account when `password` is its password, else undefined; the same time for unknown accounts. */
  async verifyPassword(loginName: string, password: string): Promise<StoredAccount | undefined> {
    // Another node changed the account and its reload is under way: its password may be the change.
    if (this.reloading.size > 0)
      await (this.reloading.get(loginName) ?? this.reloading.get(EVERY_KEY))
    const account = this.findAccount(loginName)
    const imported = this.importing?.passwords.hashOf(loginName)
    const hash = imported === undefined ? account?.passwordHash : await imported
    if (hash !== undefined && this.verified?.has(hash, password)) return account
    const matches = await this.hasher.verify(password, hash)
    if (!matches) return undefined
    if (hash !== undefined) this.verified?.remember(hash, password)
    return account
  }

  /**
   * Completes the import the directory started from, if any: hashes the file's passwords still to hash
   * and stores the whole directory in one transaction, before any change runs (a change completes it
   * first). Until then the store holds the directory as it was before, so a start cut short imports the
   * file again. The service calls it once it listens, so that hashing does not delay it.
   */
  completeImport(): Promise<void> {
    const importing = this.importing
    if (importing === undefined) return Promise.resolve()
    if (this.importCompleted === undefined) {
      const stored = this.enqueue(async () => {
        const hashed = withPasswordHashes(
          importing.imported.snapshot,
          await importing.passwords.all(),
        )
        const { snapshot, revisions } = await this.storeImport(hashed, importing.imported.basedOn)
        for (const account of snapshot.accounts)
          this.index(account, revisions.get(account.loginName))
        this.importing = undefined
      })
      this.importStored = stored
      // Told outside the queue: the other nodes' reloads may wait for changes queued here.
      this.importCompleted = stored.then(() => this.notices?.announce('directory', EVERY_KEY))
    }
    return this.importCompleted
  }

  /**
   * Stores an import over the accounts it was planned on; while another node changed them meanwhile (a user's
   * preferences or password while this node hashed the file's passwords), merges it again with what is stored
   * (rebaseImport) and stores that, so that the import undoes nothing users changed. Unconditional when the
   * import says nothing of what it was planned on.
   */
  private async storeImport(
    hashed: DirectorySnapshot,
    basedOn: ReadonlyMap<string, Revision> | undefined,
  ): Promise<{ snapshot: DirectorySnapshot; revisions: ReadonlyMap<string, Revision> }> {
    if (basedOn === undefined)
      return { snapshot: hashed, revisions: await this.store.replace(hashed) }
    let snapshot = hashed
    let base = basedOn
    for (let attempt = 1; ; attempt += 1) {
      const revisions = await this.store.replaceIfUnchanged(snapshot, base)
      if (revisions !== undefined) return { snapshot, revisions }
      if (attempt === MAX_COMMIT_ATTEMPTS)
        throw new Error(
          'The directory kept changing while the directory file was imported: not stored',
        )
      const stored = await this.store.load()
      snapshot = rebaseImport(hashed, stored)
      base = stored?.revisions ?? new Map()
    }
  }

  /**
   * Resolves once the import the directory started from, if any, is stored (completing it when nobody did yet),
   * without waiting for the other nodes to reload it: what a change or a reload waits for in the queue.
   */
  private importIsStored(): Promise<void> {
    void this.completeImport().catch(() => undefined)
    return this.importStored ?? Promise.resolve()
  }

  /**
   * Gives up completing the import (the service is stopping): no more hashes start, what is not stored
   * stays so, and completeImport fails with ImportAbandonedError; the next start imports the file again.
   */
  async abandonImport(): Promise<void> {
    const importing = this.importing
    if (importing === undefined) return
    importing.passwords.abandon()
    await this.importCompleted?.catch(() => undefined)
  }

  /**
   * Reloads the accounts a reset or restore of the platform wrote in the store (docs/sandbox.md), or the
   * whole directory when it wrote its settings, in turn with the changes; a password verified against an
   * account's previous hash no longer opens it. Only those accounts are indexed anew: the search's index of
   * 10,000 users takes seconds to build whole. Unlike a reload another node asked for, a failure is the
   * caller's.
   */
  async restored(written: { accounts: readonly string[]; settings: boolean }): Promise<void> {
    await this.completeImport()
    await this.enqueue(async () => {
      if (written.settings) return this.reloadAll()
      for (const loginName of written.accounts) await this.reloadAccount(loginName)
    })
  }

  /** The stored user in the directory file's format, without its password. */
  userEntry(account: UserAccount): ReturnType<typeof userEntry> {
    return userEntry(account)
  }

  /** Applies a preferences change; see {@link AccountChanges.updatePreferences}. */
  async updatePreferences(account: UserAccount, change: UserPreferences): Promise<UserPreferences> {
    return this.change(() => this.accountChanges.updatePreferences(account, change))
  }

  /** Changes an account's password after checking the old one. */
  async changePassword(loginName: string, oldPassword: string, newPassword: string): Promise<void> {
    await this.completeImport()
    const verified = await this.accountChanges.verifyPasswordChange(
      loginName,
      oldPassword,
      newPassword,
    )
    await this.change(() => this.accountChanges.changePassword(verified))
  }

  /** Creates a user; see {@link DirectoryProvisioning.createUser}. */
  async createUser(entry: unknown): Promise<UserAccount> {
    const password = await this.provisioning.newUserPassword(entry)
    return this.change(() => this.provisioning.createUser(entry, password))
  }

  /** Changes a user; see {@link DirectoryProvisioning.updateUser}. */
  async updateUser(loginName: string, patch: unknown): Promise<UserAccount> {
    const password = await this.provisioning.patchPassword(loginName, patch)
    return this.change(() => this.provisioning.updateUser(loginName, patch, password))
  }

  /** Deletes a user; see {@link DirectoryProvisioning.deleteUser}. */
  async deleteUser(loginName: string): Promise<void> {
    await this.change(() => this.provisioning.deleteUser(loginName))
  }

  /** Adds a device to a user; see {@link DirectoryProvisioning.addDevice}. */
  async addDevice(loginName: string, device: unknown): Promise<DirectoryDevice> {
    return this.change(() => this.provisioning.addDevice(loginName, device))
  }

  /** Changes a user's device; see {@link DirectoryProvisioning.updateDevice}. */
  async updateDevice(
    loginName: string,
    deviceId: string,
    patch: unknown,
  ): Promise<DirectoryDevice> {
    return this.change(() => this.provisioning.updateDevice(loginName, deviceId, patch))
  }

  /** Removes a user's device; see {@link DirectoryProvisioning.removeDevice}. */
  async removeDevice(loginName: string, deviceId: string): Promise<void> {
    await this.change(() => this.provisioning.removeDevice(loginName, deviceId))
  }

  /** Every pickup group, by name, with its members; see pickup-groups.ts. */
  pickupGroups(): PickupGroup[] {
    return pickupGroupsOf(this)
  }

  /** The pickup group `name`, or NOT_FOUND when no user is in it. */
  pickupGroup(name: string): PickupGroup {
    return existingPickupGroup(this, name)
  }

  /** Makes the body's `members` exactly the users of the pickup group; see {@link setPickupGroup}. */
  async setPickupGroup(name: string, body: unknown): Promise<PickupGroup> {
    return this.change(() => setPickupGroup(this, name, body))
  }

  /** Takes every member out of the pickup group; see {@link deletePickupGroup}. */
  async deletePickupGroup(name: string): Promise<void> {
    await this.change(() => deletePickupGroup(this, name))
  }

  /**
   * Plans a change once every change queued before it is done, so that changes never interleave and
   * each is planned on the state the previous one left; then carries it out: the account deleted,
   * each account stored and indexed, then each event published. Resolves once the other nodes were told
   * (docs/cluster.md, "Read your writes"), outside the queue: their reloads may wait for changes of this
   * node's queue.
   */
  private change<T>(plan: () => DirectoryChange<T>): Promise<T> {
    // A change needs the import stored first; it fails when storing the import did.
    const imported = this.importIsStored()
    let announced: Promise<void> = Promise.resolve()
    return this.enqueue(async () => {
      await imported
      const change = await this.commit(plan)
      await Promise.all(this.watchers.map((watcher) => watcher.settled?.()))
      for (const event of change.events) this.events.publish(event)
      if (change.events.length > 0) await this.published?.()
      if (this.notices !== undefined) announced = this.announce(this.notices, change)
      return change.result
    }).then(async (result) => {
      await announced
      return result
    })
  }

  /**
   * Plans the change and stores it over the revisions of the accounts it was planned on; while another writer
   * changed one of them since (the store wrote nothing), waits for that writer's notice (it comes once that
   * change's events are out, NOTICE_WAIT_MS at most), reloads them and plans it again, so that it is never
   * written over a state it did not read, and its events follow the other change's. Then holds what it stored.
   */
  private async commit<T>(plan: () => DirectoryChange<T>): Promise<DirectoryChange<T>> {
    for (let attempt = 1; ; attempt += 1) {
      const change = plan()
      if (change.delete === undefined && change.save.length === 0) return change
      const groupEvents = pickupGroupEvents(this, change)
      const writes = this.writesOf(change)
      const heard = new Map(accountsOf(writes).map((login) => [login, this.heard.count(login)]))
      const outcome = await this.store.commit(writes)
      if (outcome.stale === undefined) {
        if (change.delete !== undefined) this.forget(change.delete)
        for (const account of change.save)
          this.index(account, outcome.revisions.get(account.loginName))
        const moved = groupEvents()
        return moved.length === 0 ? change : { ...change, events: [...change.events, ...moved] }
      }
      if (attempt === MAX_COMMIT_ATTEMPTS)
        throw new PlatformError(
          'SERVER_PROBLEM',
          `The accounts ${outcome.stale.join(', ')} kept changing under this request: nothing was changed`,
        )
      // The first notice of one of them will do: a conflict PostgreSQL reported names every account written.
      if (this.notices !== undefined)
        await Promise.race(
          outcome.stale.map((login) => this.heard.after(login, heard.get(login) ?? 0)),
        )
      for (const loginName of outcome.stale) await this.reloadAccount(loginName)
    }
  }

  /** What the change writes, each account at the revision this node holds it at (none: a new account). */
  private writesOf(change: DirectoryChange<unknown>): AccountWrites {
    const deleted = change.delete
    return {
      ...(deleted !== undefined && {
        delete: { loginName: deleted, revision: this.revisions.get(deleted) ?? '' },
      }),
      save: change.save.map((account) => ({
        account,
        revision: this.revisions.get(account.loginName),
      })),
    }
  }

  /** Tells the other nodes which accounts the change stored or deleted, once it is all stored. */
  private async announce(notices: ChangeNotices, change: DirectoryChange<unknown>): Promise<void> {
    const changed = change.save.map((account) => account.loginName)
    if (change.delete !== undefined) changed.unshift(change.delete)
    await Promise.all(changed.map((loginName) => notices.announce('directory', loginName)))
  }

  /**
   * Reloads what another node changed (`EVERY_KEY`: everything), in turn with this node's own changes, once
   * the import it started from is stored; the watchers follow as they follow a change made here.
   */
  private reload(loginName: string): Promise<void> {
    const imported = this.importIsStored()
    const reloaded = this.enqueue(async () => {
      await imported
      if (loginName === EVERY_KEY) await this.reloadAll()
      else await this.reloadAccount(loginName)
    }).catch((error: unknown) => this.onReloadFailure(error, loginName))
    this.reloading.set(loginName, reloaded)
    void reloaded.then(() => {
      if (this.reloading.get(loginName) === reloaded) this.reloading.delete(loginName)
    })
    return reloaded
  }

  /** Reloads one account as stored, forgotten when the store no longer has it. */
  private async reloadAccount(loginName: string): Promise<void> {
    const stored = await this.store.loadAccount(loginName)
    if (stored === undefined) this.forget(loginName)
    else this.reindex(stored.account, stored.revision)
  }

  /**
   * Holds the account as stored at `revision`: nothing to do at the revision held (the same revision is the
   * same content); only the revision when the content is the same (a restore or a replace wrote it again), so
   * that the account's object, and what is kept of it (its views' JSON), stays; indexed anew otherwise.
   */
  private reindex(account: StoredAccount, revision: Revision | undefined): void {
    const held = this.byLoginName.get(account.loginName)
    if (revision !== undefined && revision === this.revisions.get(account.loginName)) return
    if (held !== undefined && revision !== undefined && isDeepStrictEqual(account, held))
      this.revisions.set(account.loginName, revision)
    else this.index(account, revision)
  }

  /** Reloads the whole directory as stored: settings and every account whose revision moved on. */
  private async reloadAll(): Promise<void> {
    const snapshot = await this.store.load()
    if (snapshot === undefined) return
    this.settings = snapshot.settings
    const stored = new Set(snapshot.accounts.map((account) => account.loginName))
    for (const loginName of [...this.byLoginName.keys()])
      if (!stored.has(loginName)) this.forget(loginName)
    for (const account of snapshot.accounts)
      this.reindex(account, snapshot.revisions.get(account.loginName))
  }

  /** Runs `task` once every task queued before it is done, whether they succeeded or not. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const done = this.queue.then(task)
    this.queue = done.then(
      () => undefined,
      () => undefined,
    )
    return done
  }

  /** The numbering plan's dialing rule: a user's unless the directory gives the user one of its own. */
  planDialingRule(): NonNullable<User['dialingRule']> {
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

  /** Holds the account, stored at `revision` (undefined: not known), and every index entry leading to it. */
  private index(account: StoredAccount, revision: Revision | undefined): void {
    const previousHash = this.byLoginName.get(account.loginName)?.passwordHash
    this.unindex(account.loginName)
    // A password verified against the previous hash no longer opens the account.
    if (previousHash !== undefined && previousHash !== account.passwordHash)
      this.verified?.forget(previousHash)
    this.byLoginName.set(account.loginName, account)
    if (revision === undefined) this.revisions.delete(account.loginName)
    else this.revisions.set(account.loginName, revision)
    for (const watcher of this.watchers) watcher.put(account)
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

  /** Forgets a deleted account, with the password last verified for it. */
  private forget(loginName: string): void {
    const hash = this.byLoginName.get(loginName)?.passwordHash
    this.unindex(loginName)
    if (hash !== undefined) this.verified?.forget(hash)
  }

  /** Forgets the account and every index entry that leads to it. */
  private unindex(loginName: string): void {
    const previous = this.byLoginName.get(loginName)
    this.byLoginName.delete(loginName)
    this.revisions.delete(loginName)
    if (previous !== undefined) for (const watcher of this.watchers) watcher.drop(loginName)
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

/** The login names of the accounts a change writes. */
function accountsOf(writes: AccountWrites): string[] {
  const names = writes.save.map(({ account }) => account.loginName)
  if (writes.delete !== undefined) names.push(writes.delete.loginName)
  return names
}

/** An account's views as JSON, full (the owner's and administrators') and not, under these settings. */
interface ViewJson {
  settings: DirectorySettings
  full?: string
  partial?: string
}

/**
 * Fields of the user record that are not User fields (clirMode, pickupGroup, the intrusion settings) or are
 * shown in force (dialingRule).
 */
const HIDDEN_FIELDS: ReadonlySet<string> = new Set([
  'clirMode',
  'dialingRule',
  'pickupGroup',
  'intrusion',
  'intrusionProtection',
  'deskSharing',
])

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

const PRIVATE_FIELDS: ReadonlySet<string> = new Set(PRIVATE_USER_FIELDS)
