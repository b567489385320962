/**
 * A directory started from an import not stored yet (the service's first start): it answers at once,
 * hashes a password when its account logs in, and stores the whole import, every password hashed,
 * before any change (Directory.completeImport).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { testDocument } from '../../../test/support/directory-documents.js'
import { openDatabase } from '../../storage/sql/database.js'
import { SqlDirectoryStore } from '../../storage/sql/sql-directory-store.js'
import { PasswordHasher } from '../auth/password-hasher.js'
import type { Clock, PlatformEvent } from '../events.js'
import type { UserAccount } from './account.js'
import { Directory } from './directory.js'
import { importDirectory, planImport } from './directory-import.js'
import type { DirectorySnapshot } from './directory-store.js'
import { type DirectoryImport, ImportAbandonedError } from './imported-passwords.js'

const clock: Clock = {
  now: () => Date.UTC(2026, 0, 1),
  setTimer: () => ({ cancel: () => {} }),
  sleep: async () => {},
}

function imported(): DirectoryImport {
  const source = planImport(testDocument(), 'digest-1', undefined)
  if (!('snapshot' in source)) throw new Error('nothing imported')
  return source
}

let hasher: PasswordHasher
let store: SqlDirectoryStore
let events: PlatformEvent[]
let directory: Directory

beforeEach(async () => {
  hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 })
  store = new SqlDirectoryStore(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
  events = []
  directory = new Directory(store, imported(), hasher, clock, {
    publish: (e) => void events.push(e),
  })
})

afterEach(async () => {
  await store.close()
})

async function stored(): Promise<DirectorySnapshot> {
  const snapshot = await store.load()
  if (snapshot === undefined) throw new Error('nothing stored')
  return snapshot
}

/** The stored account `loginName` (the store answers accounts in its own order). */
function storedAccount(snapshot: DirectorySnapshot, loginName: string) {
  return snapshot.accounts.find((account) => account.loginName === loginName)
}

const alice = () => directory.findUser('alice') as UserAccount

describe('planImport', () => {
  it('leaves the passwords given in clear to hash, their accounts without a hash', () => {
    const { snapshot, passwords } = imported()
    expect(passwords).toEqual([
      { loginName: 'alice', password: 'demo-alice' },
      { loginName: 'bob', password: 'demo-bob' },
      { loginName: 'admin', password: 'demo-admin' },
    ])
    expect(snapshot.accounts.map((account) => account.passwordHash)).toEqual([
      undefined,
      undefined,
      undefined,
    ])
  })

  it('answers the previous snapshot itself when the file did not change', () => {
    const previous = { ...imported().snapshot }
    expect(planImport(testDocument(), 'digest-1', previous)).toBe(previous)
  })
})

describe('a directory started from an import', () => {
  it('serves the accounts at once, having hashed and stored nothing', async () => {
    const hash = vi.spyOn(hasher, 'hash')
    expect(alice().record.companyPhone).toBe('1001')
    expect(directory.findAccount('admin')?.kind).toBe('ADMINISTRATOR')
    expect(await store.load()).toBeUndefined()
    expect(hash).not.toHaveBeenCalled()
  })

  it('hashes the password of the account that logs in, once, and only that one', async () => {
    const hash = vi.spyOn(hasher, 'hash')
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBe(alice())
    expect(await directory.verifyPassword('alice', 'wrong')).toBeUndefined()
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBe(alice())
    expect(hash).toHaveBeenCalledTimes(1)
    expect(hash).toHaveBeenCalledWith('demo-alice')
    expect(await directory.verifyPassword('nobody', 'demo-alice')).toBeUndefined()
    expect(await store.load()).toBeUndefined()
  })

  it('stores the whole import with every password hashed, once, when completed', async () => {
    const replace = vi.spyOn(store, 'replaceIfUnchanged')
    await Promise.all([directory.completeImport(), directory.completeImport()])
    await directory.completeImport()
    expect(replace).toHaveBeenCalledTimes(1)
    const snapshot = await stored()
    expect(snapshot.sourceDigest).toBe('digest-1')
    expect(snapshot.accounts.map((account) => account.loginName).sort()).toEqual([
      'admin',
      'alice',
      'bob',
    ])
    for (const account of snapshot.accounts) {
      expect(await hasher.verify(`demo-${account.loginName}`, account.passwordHash)).toBe(true)
      expect(directory.findAccount(account.loginName)).toStrictEqual(account)
    }
    expect(await directory.verifyPassword('bob', 'demo-bob')).toBe(directory.findUser('bob'))
  })

  it('keeps the hash a login computed before the import was completed', async () => {
    await directory.verifyPassword('alice', 'demo-alice')
    const hash = vi.spyOn(hasher, 'hash')
    await directory.completeImport()
    expect(hash.mock.calls.map(([password]) => password)).toEqual(['demo-bob', 'demo-admin'])
  })

  it('stores the import before a change, and the change after it', async () => {
    await directory.updatePreferences(alice(), { guiLanguage: 'en' })
    const snapshot = await stored()
    expect(storedAccount(snapshot, 'alice')?.preferences).toEqual({ guiLanguage: 'en' })
    expect(await hasher.verify('demo-bob', storedAccount(snapshot, 'bob')?.passwordHash)).toBe(true)
    expect(events.map((event) => event.eventName)).toEqual(['OnPreferencesChanged'])
  })

  it('changes a password the file gave in clear: the old one verified, the new one stored', async () => {
    await directory.changePassword('alice', 'demo-alice', 'a-new-secret')
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBeUndefined()
    expect(await directory.verifyPassword('alice', 'a-new-secret')).toBe(alice())
    const snapshot = await stored()
    const hash = storedAccount(snapshot, 'alice')?.passwordHash
    expect(await hasher.verify('a-new-secret', hash)).toBe(true)
  })

  it('refuses every change when the import could not be stored, changing nothing', async () => {
    const failure = new Error('disk full')
    vi.spyOn(store, 'replaceIfUnchanged').mockRejectedValue(failure)
    await expect(directory.completeImport()).rejects.toBe(failure)
    await expect(directory.updatePreferences(alice(), { guiLanguage: 'en' })).rejects.toBe(failure)
    expect(alice().preferences).toEqual({})
    expect(events).toEqual([])
    expect(await store.load()).toBeUndefined()
  })
})

describe('a directory stopping before its import is stored', () => {
  it('starts no more hashes, stores nothing, and refuses changes', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const hashed: string[] = []
    vi.spyOn(hasher, 'hash').mockImplementation(async (password) => {
      hashed.push(password)
      await held
      return `hash of ${password}`
    })
    const completed = directory.completeImport()
    await vi.waitFor(() => expect(hashed).toEqual(['demo-alice']))
    const abandoned = directory.abandonImport()
    release()
    await abandoned
    await expect(completed).rejects.toBeInstanceOf(ImportAbandonedError)
    expect(hashed).toEqual(['demo-alice'])
    expect(await store.load()).toBeUndefined()
    await expect(
      directory.updatePreferences(alice(), { guiLanguage: 'en' }),
    ).rejects.toBeInstanceOf(ImportAbandonedError)
  })

  it('has nothing to abandon once the import is stored', async () => {
    await directory.completeImport()
    await directory.abandonImport()
    await directory.updatePreferences(alice(), { guiLanguage: 'en' })
    expect(alice().preferences).toEqual({ guiLanguage: 'en' })
  })
})

describe('Directory.completeImport while another node changes the directory (docs/cluster.md, "No lost update")', () => {
  it('keeps the preferences and the password another node changed while this one hashed the file', async () => {
    const first = await importDirectory(testDocument(), 'digest-1', undefined, hasher)
    await store.replace(first)
    const document = testDocument()
    document.company.name = 'Renamed Corp'
    // This node starts with a new file, planned on the directory as stored; another node serves meanwhile.
    const source = planImport(document, 'digest-2', await stored())
    const node = new Directory(store, source, hasher, clock, { publish: () => {} })
    const other = new Directory(store, await stored(), hasher, clock, { publish: () => {} })
    await other.updatePreferences(other.findUser('alice') as UserAccount, { guiLanguage: 'fr' })
    await other.changePassword('bob', 'demo-bob', 'bob-changed-it')

    await node.completeImport()

    const after = await stored()
    expect(after.settings.companyName).toBe('Renamed Corp')
    expect(storedAccount(after, 'alice')?.preferences).toStrictEqual({ guiLanguage: 'fr' })
    expect(await node.verifyPassword('bob', 'bob-changed-it')).toBeDefined()
    expect(await node.verifyPassword('bob', 'demo-bob')).toBeUndefined()
    expect(node.findUser('alice')?.preferences).toStrictEqual({ guiLanguage: 'fr' })
  })

  it('stores an import planned on an empty store over nothing another node stored meanwhile', async () => {
    const mine = imported()
    const theirs = await importDirectory(testDocument(), 'digest-1', undefined, hasher)
    const node = new Directory(store, mine, hasher, clock, { publish: () => {} })
    // Another node, started with the same file, stored it first; a user then changed a preference there.
    const revisions = await store.replace(theirs)
    const other = new Directory(store, { ...theirs, revisions }, hasher, clock, {
      publish: () => {},
    })
    await other.updatePreferences(other.findUser('alice') as UserAccount, { guiLanguage: 'fr' })

    await node.completeImport()

    expect(storedAccount(await stored(), 'alice')?.preferences).toStrictEqual({ guiLanguage: 'fr' })
  })
})
