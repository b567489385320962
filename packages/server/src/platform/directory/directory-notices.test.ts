/**
 * Two Directory nodes over one store, telling each other of their changes through one memory hub (the
 * cluster's notices, docs/cluster.md "What each node keeps in memory"): what one node changes, the other
 * reloads, its search index and its verified passwords following; and a node alone reads nothing more.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { testDocument, testUser } from '../../../test/support/directory-documents.js'
import { TrackedChangeNotices } from '../../../test/support/tracked-change-notices.js'
import { MemoryChangeNotices, MemoryNoticeHub } from '../../storage/memory/memory-change-notices.js'
import { openDatabase } from '../../storage/sql/database.js'
import { SqlDirectoryStore } from '../../storage/sql/sql-directory-store.js'
import { PasswordHasher } from '../auth/password-hasher.js'
import { VerifiedPasswords } from '../auth/verified-passwords.js'
import { EVERY_KEY } from '../change-notices.js'
import { DirectoryIndex } from '../directory-search/directory-index.js'
import type { Clock, EventSink } from '../events.js'
import { Directory, type UserAccount } from './directory.js'
import { importDirectory, planImport } from './directory-import.js'
import type { DirectorySnapshot, StoredDirectory } from './directory-store.js'
import type { DirectoryImport } from './imported-passwords.js'

const clock: Clock = {
  now: () => Date.UTC(2026, 0, 1),
  setTimer: () => ({ cancel: () => {} }),
  sleep: async () => {},
}
const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 })

/** One node: its directory, the search index following it, its verified passwords and its notices. */
interface Node {
  directory: Directory
  index: DirectoryIndex
  verified: VerifiedPasswords
  notices: TrackedChangeNotices
  failures: unknown[]
}

let store: SqlDirectoryStore
let snapshot: StoredDirectory
let hub: MemoryNoticeHub

function node(source: DirectorySnapshot | DirectoryImport = snapshot, sharedStore = store): Node {
  const notices = new TrackedChangeNotices(new MemoryChangeNotices(hub))
  const verified = new VerifiedPasswords(clock, 600)
  const failures: unknown[] = []
  const directory = new Directory(
    sharedStore,
    source,
    hasher,
    clock,
    { publish: () => {} },
    {
      verified,
      notices,
      onReloadFailure: (error) => failures.push(error),
    },
  )
  const index = new DirectoryIndex(directory.accounts())
  directory.watch(index)
  return { directory, index, verified, notices, failures }
}

/** The login names the node's index finds by login name. */
function found(node: Node, loginName: string): string[] {
  return node.index
    .search(
      { kind: 'leaf', field: 'id.loginName', operation: 'EQUAL_IGNORE_CASE', key: loginName },
      10,
    )
    .map((contact) => contact.id.loginName ?? '')
}

beforeEach(async () => {
  store = new SqlDirectoryStore(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
  const imported = await importDirectory(testDocument(), 'digest', undefined, hasher)
  snapshot = { ...imported, revisions: await store.replace(imported) }
  hub = new MemoryNoticeHub()
})

afterEach(async () => {
  await store.close()
})

describe('Directory across nodes', () => {
  it('refuses on B a password changed on A, and B forgets the password it had verified', async () => {
    const a = node()
    const b = node()
    expect(await b.directory.verifyPassword('alice', 'demo-alice')).toBeDefined()
    const oldHash = b.directory.findAccount('alice')?.passwordHash ?? ''
    expect(b.verified.has(oldHash, 'demo-alice')).toBe(true)

    const reloaded = b.notices.next('directory', 'alice')
    await a.directory.changePassword('alice', 'demo-alice', 'a-new-password')
    await reloaded

    const verify = vi.spyOn(hasher, 'verify')
    expect(await b.directory.verifyPassword('alice', 'demo-alice')).toBeUndefined()
    expect(b.verified.has(oldHash, 'demo-alice')).toBe(false)
    expect(b.verified.size).toBe(0)
    expect(await b.directory.verifyPassword('alice', 'a-new-password')).toBeDefined()
    expect(verify).toHaveBeenCalledTimes(2)
  })

  it('checks a login on B against the account being reloaded, once the notice came', async () => {
    const a = node()
    const b = node()
    expect(await b.directory.verifyPassword('alice', 'demo-alice')).toBeDefined()
    // B's reload reads the store only once the test lets it.
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let reloading: () => void = () => {}
    const reloadStarted = new Promise<void>((resolve) => {
      reloading = resolve
    })
    const load = store.loadAccount.bind(store)
    vi.spyOn(store, 'loadAccount').mockImplementationOnce(async (loginName) => {
      reloading()
      await gate
      return load(loginName)
    })

    const changed = a.directory.changePassword('alice', 'demo-alice', 'a-new-password')
    await reloadStarted
    const login = b.directory.verifyPassword('alice', 'demo-alice')
    release()

    expect(await login).toBeUndefined()
    await changed
  })

  it('answers a change on A only once B applied it (docs/cluster.md, "Read your writes")', async () => {
    const a = node()
    const b = node()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const load = store.loadAccount.bind(store)
    vi.spyOn(store, 'loadAccount').mockImplementationOnce(async (loginName) => {
      await gate
      return load(loginName)
    })
    let answered = false

    const changed = a.directory
      .updatePreferences(a.directory.findUser('alice') as UserAccount, { guiLanguage: 'fr' })
      .then(() => {
        answered = true
      })
    await vi.waitFor(() =>
      expect(a.directory.findUser('alice')?.preferences.guiLanguage).toBe('fr'),
    )
    await new Promise((resolve) => setImmediate(resolve))
    expect(answered).toBe(false)
    expect(b.directory.findUser('alice')?.preferences.guiLanguage).toBeUndefined()
    release()
    await changed

    expect(b.directory.findUser('alice')?.preferences.guiLanguage).toBe('fr')
  })

  it('reads on B the preferences changed on A', async () => {
    const a = node()
    const b = node()
    const alice = a.directory.findUser('alice')
    if (alice === undefined) throw new Error('no alice')

    const reloaded = b.notices.next('directory', 'alice')
    await a.directory.updatePreferences(alice, { guiLanguage: 'fr' })
    await reloaded

    const onB = b.directory.findUser('alice')
    expect(onB?.preferences).toStrictEqual({ guiLanguage: 'fr' })
    if (onB === undefined) throw new Error('no alice on B')
    expect(b.directory.preferences(onB).guiLanguage).toBe('fr')
  })

  it("knows on B, and finds in B's search index, a user created on A; and no longer once deleted", async () => {
    const a = node()
    const b = node()
    const { password: _password, ...erin } = testUser('erin', '1005')

    const created = b.notices.next('directory', 'erin')
    await a.directory.createUser({ ...erin, password: 'erin-password' })
    await created
    expect(b.directory.findUser('erin')?.record.companyPhone).toBe('1005')
    expect(b.directory.findUserByDevice('1005')?.loginName).toBe('erin')
    expect(found(b, 'erin')).toStrictEqual(['erin'])
    expect(await b.directory.verifyPassword('erin', 'erin-password')).toBeDefined()

    const deleted = b.notices.next('directory', 'erin')
    await a.directory.deleteUser('erin')
    await deleted
    expect(b.directory.findAccount('erin')).toBeUndefined()
    expect(b.directory.findUserByDevice('1005')).toBeUndefined()
    expect(found(b, 'erin')).toStrictEqual([])
    expect(b.verified.size).toBe(0)
  })

  it('reloads the settings and every account on B when A stored an import', async () => {
    const b = node()
    const document = testDocument([testUser('alice', '1001'), testUser('dave', '1004')])
    document.company.name = 'Renamed Corp'
    const imported = await importDirectory(document, 'digest-2', snapshot, hasher)

    const reloaded = b.notices.next('directory', EVERY_KEY)
    // A node that stored the new file's directory announces it as a whole, as completeImport does.
    await store.replace(imported)
    await new MemoryChangeNotices(hub).announce('directory', EVERY_KEY)
    await reloaded

    expect(b.directory.settings.companyName).toBe('Renamed Corp')
    expect([...b.directory.accounts()].map((account) => account.loginName).sort()).toStrictEqual([
      'admin',
      'alice',
      'dave',
    ])
    expect(found(b, 'bob')).toStrictEqual([])
    expect(found(b, 'dave')).toStrictEqual(['dave'])
  })

  it('announces a whole import once it is stored, and B reloads it', async () => {
    const document = testDocument([testUser('alice', '1001'), testUser('dave', '1004')])
    const b = node()
    const a = node(planImport(document, 'digest-2', snapshot))

    const reloaded = b.notices.next('directory', EVERY_KEY)
    await a.directory.completeImport()
    await reloaded

    expect(b.directory.findUser('dave')).toBeDefined()
    expect(b.directory.findUser('bob')).toBeUndefined()
    expect(await b.directory.verifyPassword('dave', 'demo-dave')).toBeDefined()
  })

  it('tells the reporter of a reload that failed, and keeps its copy', async () => {
    const a = node()
    const failing = new SqlDirectoryStore(
      await openDatabase({ kind: 'sqlite', filename: ':memory:' }),
    )
    const b = node(snapshot, failing)
    await failing.close()
    const alice = a.directory.findUser('alice')
    if (alice === undefined) throw new Error('no alice')

    await a.directory.updatePreferences(alice, { guiLanguage: 'fr' })

    await vi.waitFor(() => expect(b.failures).toHaveLength(1))
    expect(b.directory.findUser('alice')?.preferences).toStrictEqual({})
  })
})

describe('Directory changes on two nodes at once (docs/cluster.md, "No lost update")', () => {
  /** Alice as `node` holds her. */
  function alice(node: Node) {
    const user = node.directory.findUser('alice')
    if (user === undefined) throw new Error('no alice')
    return user
  }

  it('keeps both fields two nodes change in one account at the same moment, each planned on the same copy', async () => {
    const a = node()
    const b = node()
    const stored = await store.loadAccount('alice')
    const commits = vi.spyOn(store, 'commit')

    // Both planned on the account as both nodes hold it; B's is stored second and planned again on A's.
    const [onA, onB] = await Promise.all([
      a.directory.updatePreferences(alice(a), { personalPhone: '+33 1 00 00 00 01' }),
      b.directory.updatePreferences(alice(b), { guiLanguage: 'fr' }),
    ])

    const both = { personalPhone: '+33 1 00 00 00 01', guiLanguage: 'fr' }
    expect((await store.loadAccount('alice'))?.account.preferences).toStrictEqual(both)
    expect(onA).toStrictEqual({ personalPhone: '+33 1 00 00 00 01' })
    expect(onB).toStrictEqual(both)
    expect((await store.loadAccount('alice'))?.revision).not.toBe(stored?.revision)
    // A's commit, B's refused (alice moved on), B's planned again.
    expect(commits).toHaveBeenCalledTimes(3)
    expect(await commits.mock.results[1]?.value).toStrictEqual({ stale: ['alice'] })
    await vi.waitFor(() => {
      expect(alice(a).preferences).toStrictEqual(both)
      expect(alice(b).preferences).toStrictEqual(both)
    })
  })

  it('publishes from each node the preferences its change left, the later one holding both', async () => {
    const events: { node: string; preferences: unknown }[] = []
    const sink = (name: string): EventSink => ({
      publish: (event) => void events.push({ node: name, preferences: event['preferences'] }),
    })
    const a = new Directory(store, snapshot, hasher, clock, sink('a'))
    const b = new Directory(store, snapshot, hasher, clock, sink('b'))
    const holder = (directory: Directory) => {
      const user = directory.findUser('alice')
      if (user === undefined) throw new Error('no alice')
      return user
    }

    await Promise.all([
      a.updatePreferences(holder(a), { personalPhone: '+33 1 00 00 00 01' }),
      b.updatePreferences(holder(b), { guiLanguage: 'fr' }),
    ])

    expect(events).toStrictEqual([
      {
        node: 'a',
        preferences: { personalPhone: '+33 1 00 00 00 01', telephony: expect.anything() },
      },
      {
        node: 'b',
        preferences: {
          personalPhone: '+33 1 00 00 00 01',
          guiLanguage: 'fr',
          telephony: expect.anything(),
        },
      },
    ])
  })

  it('refuses on B the old password that A changed while B still held it', async () => {
    const a = node()
    const b = node()
    // B checks the old password against its copy, then A's change is stored before B's.
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const commit = store.commit.bind(store)
    const spy = vi.spyOn(store, 'commit').mockImplementationOnce(async (writes) => {
      await gate
      return commit(writes)
    })
    const onB = b.directory.changePassword('alice', 'demo-alice', 'b-new-password')
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1))
    // A's change is stored, then waits for B to apply it, which B does once its own change is done.
    const onA = a.directory.changePassword('alice', 'demo-alice', 'a-new-password')
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2))
    release()
    await onA

    await expect(onB).rejects.toThrow('oldPassword is not the current password')
    expect(await a.directory.verifyPassword('alice', 'a-new-password')).toBeDefined()
    await vi.waitFor(async () =>
      expect(await b.directory.verifyPassword('alice', 'a-new-password')).toBeDefined(),
    )
  })

  it('creates a login name once when two nodes create it at the same moment, refusing the other', async () => {
    const a = node()
    const b = node()
    const { password: _password, ...erin } = testUser('erin', '1005')

    const outcomes = await Promise.allSettled([
      a.directory.createUser({ ...erin, password: 'erin-on-a' }),
      b.directory.createUser({ ...erin, firstName: 'Other', password: 'erin-on-b' }),
    ])

    expect(outcomes.map((outcome) => outcome.status).sort()).toStrictEqual([
      'fulfilled',
      'rejected',
    ])
    const kept = (await store.loadAccount('erin'))?.account
    const winner = outcomes[0]?.status === 'fulfilled' ? 'erin-on-a' : 'erin-on-b'
    expect(await hasher.verify(winner, kept?.passwordHash)).toBe(true)
  })

  it('deletes nothing of an account another node changed since the delete was planned, planning it again', async () => {
    const a = node()
    // B has not heard of A's change: it holds the account as it was.
    const b = new Directory(store, snapshot, hasher, clock, { publish: () => {} })
    await a.directory.updatePreferences(alice(a), { guiLanguage: 'fr' })
    const commits = vi.spyOn(store, 'commit')

    await b.deleteUser('alice')

    expect(await store.loadAccount('alice')).toBeUndefined()
    expect(commits).toHaveBeenCalledTimes(2)
    expect(await commits.mock.results[0]?.value).toStrictEqual({ stale: ['alice'] })
  })
})

describe('Directory alone (the embedded mode)', () => {
  it('reads nothing more from its store for a change than it did before', async () => {
    const alone = node()
    const load = vi.spyOn(store, 'load')
    const loadAccount = vi.spyOn(store, 'loadAccount')
    const alice = alone.directory.findUser('alice')
    if (alice === undefined) throw new Error('no alice')

    await alone.directory.updatePreferences(alice, { guiLanguage: 'fr' })
    await alone.directory.changePassword('alice', 'demo-alice', 'a-new-password')
    await alone.directory.deleteUser('bob')
    await new Promise((resolve) => setImmediate(resolve))

    expect(load).not.toHaveBeenCalled()
    expect(loadAccount).not.toHaveBeenCalled()
    expect(alone.notices.applied).toStrictEqual([])
  })
})
