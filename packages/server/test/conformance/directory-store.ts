/** The behaviour every DirectoryStore adapter must show, run once per adapter by its test file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Revision } from '../../src/platform/change-notices.js'
import type { DirectorySettings, StoredAccount } from '../../src/platform/directory/account.js'
import type {
  DirectorySnapshot,
  DirectoryStore,
  StoredDirectory,
} from '../../src/platform/directory/directory-store.js'

/** A fresh, empty store, and, for durable adapters, a way to open its storage again after close(). */
export interface DirectoryStoreUnderTest {
  store: DirectoryStore
  reopen?: () => Promise<DirectoryStore>
  /**
   * Another store over the same storage that writes at the same moment as this one (another node), where the
   * adapter serves several writers (PostgreSQL).
   */
  concurrent?: () => Promise<DirectoryStore>
}

const SETTINGS: DirectorySettings = {
  companyName: 'Société d’Ingénierie Œstrus — 東京支社 🚀',
  nodeId: '1',
  numberingPlan: {
    countryCode: 'FR',
    areaCode: '1',
    externalPrefix: '0',
    addPfxForNbLength: 5,
    exceptionRules: [{ lengthException: 0, beginPatternException: '112' }],
    extensionLength: 4,
    voicemailNumber: '8000',
  },
  licenses: { TELEPHONY_BASIC: 100, TELEPHONY_ADVANCED: 20, MESSAGING: 0, CONFERENCING: 5 },
  languages: { gui: ['en', 'fr'], tui: ['en_US', 'fr_FR'] },
}

/** Optional fields absent where SETTINGS has them. */
const OTHER_SETTINGS: DirectorySettings = {
  companyName: 'Ørsted Ålborg',
  nodeId: '7',
  numberingPlan: {
    countryCode: 'DK',
    externalPrefix: '00',
    addPfxForNbLength: 8,
    exceptionRules: [],
    extensionLength: 5,
  },
  licenses: { TELEPHONY_BASIC: 3, TELEPHONY_ADVANCED: 0, MESSAGING: 1, CONFERENCING: 0 },
  languages: { gui: ['da'], tui: [] },
}

/** Every optional field present, unicode in names. */
const EMILE: StoredAccount = {
  kind: 'USER',
  loginName: 'émile',
  record: {
    loginName: 'émile',
    salutation: 'MR',
    firstName: 'Émile',
    lastName: 'Zola-Müller',
    companyPhone: '+33 1 23 45 67 89',
    companyEmail: 'émile@example.com',
    type: 'MULTIMEDIA',
    apiRights: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'],
    applicationRights: ['DESKTOP', 'MOBILE'],
    clirMode: 'ACTIVE',
    dialingRule: {
      countryCode: 'FR',
      externalPrefix: '0',
      addPfxForNbLength: 5,
      exceptionRules: [{ lengthException: 3, beginPatternException: '1' }],
    },
    devices: [{ type: 'DESKPHONE', id: '1001', label: 'Bureau' }],
    customAttributes: { user: { équipe: 'réseau' } },
  },
  passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
  passwordChangedAt: '2024-03-01T09:30:00.000Z',
  preferences: {
    guiLanguage: 'fr',
    tuiLanguage: 'fr_FR',
    personalMobile: '+33 6 00 00 00 00',
    telephony: { clirMode: 'ACTIVE' },
  },
}

/** Every optional field absent. */
const ALICE: StoredAccount = {
  kind: 'USER',
  loginName: 'alice',
  record: {
    loginName: 'alice',
    salutation: 'MRS',
    type: 'STANDARD',
    apiRights: [],
    clirMode: 'NOT_SUPPORTED',
  },
  preferences: {},
}

const ZOE: StoredAccount = {
  kind: 'ADMINISTRATOR',
  loginName: 'Zoë.admin',
  record: { loginName: 'Zoë.admin', firstName: 'Zoë', lastName: '李', supervisor: true },
  passwordHash: 'scrypt$16384$8$1$c2Vs$em/DqwHvv4==',
  preferences: { guiLanguage: 'en' },
}

const BOB: StoredAccount = {
  kind: 'ADMINISTRATOR',
  loginName: 'bob',
  record: { loginName: 'bob', supervisor: false },
  preferences: {},
}

const CAROL: StoredAccount = {
  kind: 'USER',
  loginName: 'carol',
  record: {
    loginName: 'carol',
    salutation: 'MISS',
    firstName: 'Carol',
    type: 'STANDARD',
    apiRights: ['MESSAGING'],
    clirMode: 'INACTIVE',
  },
  passwordHash: 'scrypt$16384$8$1$Y2Fyb2w$Y2Fyb2w',
  preferences: { colleague: 'alice' },
}

/** Given out of order on purpose: stores return accounts in code point order of login name. */
const SNAPSHOT: DirectorySnapshot = {
  sourceDigest: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  settings: SETTINGS,
  accounts: [EMILE, ALICE, ZOE, BOB],
}

/** SNAPSHOT as load() returns it. */
const LOADED_SNAPSHOT: DirectorySnapshot = { ...SNAPSHOT, accounts: [ZOE, ALICE, BOB, EMILE] }

/** The directory without its revisions: what a snapshot given to replace() holds. */
function contentOf(loaded: StoredDirectory | undefined): DirectorySnapshot | undefined {
  if (loaded === undefined) return undefined
  const { revisions: _revisions, ...snapshot } = loaded
  return snapshot
}

/** Stores `account` over whatever the store holds of it now; answers its new revision. */
async function save(store: DirectoryStore, account: StoredAccount): Promise<Revision> {
  const current = await store.loadAccount(account.loginName)
  const outcome = await store.commit({ save: [{ account, revision: current?.revision }] })
  if (outcome.stale !== undefined) throw new Error(`${account.loginName} moved on under the test`)
  const revision = outcome.revisions.get(account.loginName)
  if (revision === undefined) throw new Error(`no revision answered for ${account.loginName}`)
  return revision
}

/** Deletes the account as the store holds it now. */
async function remove(store: DirectoryStore, loginName: string): Promise<void> {
  const current = await store.loadAccount(loginName)
  if (current === undefined) throw new Error(`${loginName} is not stored`)
  const outcome = await store.commit({
    delete: { loginName, revision: current.revision },
    save: [],
  })
  if (outcome.stale !== undefined) throw new Error(`${loginName} moved on under the test`)
}

/** The revision the store holds `loginName` at now. */
async function revisionOf(store: DirectoryStore, loginName: string): Promise<Revision> {
  const stored = await store.loadAccount(loginName)
  if (stored === undefined) throw new Error(`${loginName} is not stored`)
  return stored.revision
}

/**
 * Registers the DirectoryStore conformance suite under `name`; `create` runs before each case and
 * must return an empty store, which the suite closes.
 */
export function directoryStoreConformance(
  name: string,
  create: () => Promise<DirectoryStoreUnderTest>,
): void {
  describe(`DirectoryStore conformance: ${name}`, () => {
    let store: DirectoryStore
    let reopen: DirectoryStoreUnderTest['reopen']
    let concurrent: DirectoryStoreUnderTest['concurrent']

    beforeEach(async () => {
      ;({ store, reopen, concurrent } = await create())
    })

    afterEach(async () => {
      await store.close()
    })

    it('loads undefined when nothing was ever stored', async () => {
      expect(await store.load()).toBeUndefined()
    })

    it('loads back the snapshot it replaced, optional fields absent or present as given', async () => {
      await store.replace(SNAPSHOT)

      expect(contentOf(await store.load())).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('answers on replace the revision of each account, as load and loadAccount give them', async () => {
      const revisions = await store.replace(SNAPSHOT)

      expect([...revisions.keys()].sort()).toStrictEqual(['Zoë.admin', 'alice', 'bob', 'émile'])
      expect((await store.load())?.revisions).toStrictEqual(revisions)
      for (const [loginName, revision] of revisions)
        expect(await revisionOf(store, loginName)).toBe(revision)
    })

    it('returns accounts in code point order of their login names', async () => {
      await store.replace(SNAPSHOT)

      const loaded = await store.load()

      expect(loaded?.accounts.map((account) => account.loginName)).toStrictEqual([
        'Zoë.admin',
        'alice',
        'bob',
        'émile',
      ])
    })

    it('removes on a second replace the accounts it no longer lists, and replaces the settings', async () => {
      await store.replace(SNAPSHOT)
      const aliceWithPassword: StoredAccount = {
        ...ALICE,
        passwordHash: 'scrypt$16384$8$1$YQ$YQ',
        preferences: { tuiLanguage: 'en_GB' },
      }
      const second: DirectorySnapshot = {
        sourceDigest: 'sha256:second',
        settings: OTHER_SETTINGS,
        accounts: [CAROL, aliceWithPassword],
      }

      await store.replace(second)

      expect(contentOf(await store.load())).toStrictEqual({
        ...second,
        accounts: [aliceWithPassword, CAROL],
      })
    })

    it('keeps the previous directory when a replace fails (duplicate login name)', async () => {
      await store.replace(SNAPSHOT)
      const before = await store.load()
      const invalid: DirectorySnapshot = {
        sourceDigest: 'sha256:invalid',
        settings: OTHER_SETTINGS,
        accounts: [CAROL, { ...CAROL, preferences: { colleague: 'bob' } }],
      }

      await expect(store.replace(invalid)).rejects.toThrow()

      expect(await store.load()).toStrictEqual(before)
    })

    it('inserts a new account on commit without touching the others', async () => {
      const revisions = await store.replace(SNAPSHOT)

      await save(store, CAROL)

      const loaded = await store.load()
      expect(contentOf(loaded)).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, ALICE, BOB, CAROL, EMILE],
      })
      for (const [loginName, revision] of revisions)
        expect(loaded?.revisions.get(loginName)).toBe(revision)
    })

    it('updates password hash, passwordChangedAt and preferences on commit', async () => {
      await store.replace(SNAPSHOT)
      const alice: StoredAccount = {
        ...ALICE,
        passwordHash: 'scrypt$16384$8$1$bmV3$bmV3',
        passwordChangedAt: '2025-01-02T03:04:05.678Z',
        preferences: { guiLanguage: 'de', telephony: { clirMode: 'INACTIVE' } },
      }
      const zoe: StoredAccount = { ...ZOE, preferences: { guiLanguage: 'zh_CN' } }

      await save(store, alice)
      await save(store, zoe)

      expect(contentOf(await store.load())).toStrictEqual({
        ...SNAPSHOT,
        accounts: [zoe, alice, BOB, EMILE],
      })
    })

    it('drops on commit the optional fields the account no longer has', async () => {
      await store.replace(SNAPSHOT)
      const { passwordHash: _hash, passwordChangedAt: _changedAt, ...emile } = EMILE

      await save(store, emile)

      expect(contentOf(await store.load())).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, ALICE, BOB, emile],
      })
    })

    it('keeps what it stored apart from the objects the caller passed or received', async () => {
      const given = structuredClone(SNAPSHOT)
      await store.replace(given)
      given.settings.companyName = 'changed after replace'
      given.accounts.pop()
      const first = (await store.load())?.accounts[0]
      if (first === undefined) throw new Error('no account loaded')
      first.preferences.guiLanguage = 'changed after load'

      expect(contentOf(await store.load())).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('deletes on commit the one account named, users and administrators alike', async () => {
      await store.replace(SNAPSHOT)

      await remove(store, 'émile')
      await remove(store, 'Zoë.admin')

      expect(contentOf(await store.load())).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ALICE, BOB],
      })
    })

    it('deletes nothing, and names it, on a commit that deletes a login name it does not hold', async () => {
      const revisions = await store.replace(SNAPSHOT)

      const outcome = await store.commit({
        delete: { loginName: 'nobody', revision: revisions.get('alice') ?? '' },
        save: [],
      })

      expect(outcome).toStrictEqual({ stale: ['nobody'] })
      expect(contentOf(await store.load())).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('matches the login name exactly on delete: another case is another name', async () => {
      const revisions = await store.replace(SNAPSHOT)

      const alice = await store.commit({
        delete: { loginName: 'ALICE', revision: revisions.get('alice') ?? '' },
        save: [],
      })
      const zoe = await store.commit({
        delete: { loginName: 'zoë.admin', revision: revisions.get('Zoë.admin') ?? '' },
        save: [],
      })

      expect([alice, zoe]).toStrictEqual([{ stale: ['ALICE'] }, { stale: ['zoë.admin'] }])
      expect(contentOf(await store.load())).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('keeps nothing of a deleted account when a commit stores the same login name again', async () => {
      await store.replace(SNAPSHOT)
      const { passwordHash: _hash, passwordChangedAt: _changedAt, ...rest } = EMILE
      const reborn: StoredAccount = { ...rest, preferences: {} }

      await remove(store, 'émile')
      await save(store, reborn)

      expect(contentOf(await store.load())).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, ALICE, BOB, reborn],
      })
    })

    it('loads one account on loadAccount as last stored, users and administrators alike', async () => {
      await store.replace(SNAPSHOT)
      const alice: StoredAccount = {
        ...ALICE,
        passwordHash: 'scrypt$16384$8$1$bmV3$bmV3',
        passwordChangedAt: '2025-01-02T03:04:05.678Z',
        preferences: { guiLanguage: 'de' },
      }
      const revision = await save(store, alice)

      expect(await store.loadAccount('alice')).toStrictEqual({ account: alice, revision })
      expect((await store.loadAccount('émile'))?.account).toStrictEqual(EMILE)
      expect((await store.loadAccount('Zoë.admin'))?.account).toStrictEqual(ZOE)
      expect((await store.loadAccount('bob'))?.account).toStrictEqual(BOB)
    })

    it('loads undefined on loadAccount for an account deleted, never stored, or of another case', async () => {
      expect(await store.loadAccount('alice')).toBeUndefined()
      await store.replace(SNAPSHOT)

      await remove(store, 'émile')

      expect(await store.loadAccount('émile')).toBeUndefined()
      expect(await store.loadAccount('carol')).toBeUndefined()
      expect(await store.loadAccount('ALICE')).toBeUndefined()
      expect(await store.loadAccount('zoë.admin')).toBeUndefined()
    })

    it('keeps what loadAccount answered apart from what it stores', async () => {
      await store.replace(SNAPSHOT)
      const loaded = await store.loadAccount('émile')
      if (loaded === undefined) throw new Error('émile was not loaded')
      loaded.account.preferences.guiLanguage = 'changed after load'

      expect((await store.loadAccount('émile'))?.account).toStrictEqual(EMILE)
    })

    it('writes nothing on a store that holds no directory yet for a delete, naming the account', async () => {
      expect(
        await store.commit({ delete: { loginName: 'alice', revision: '0' }, save: [] }),
      ).toEqual({
        stale: ['alice'],
      })

      expect(await store.load()).toBeUndefined()
    })

    it('gives an account a new revision at each commit that writes it', async () => {
      const revisions = await store.replace(SNAPSHOT)
      const first = await save(store, { ...ALICE, preferences: { guiLanguage: 'de' } })
      const second = await save(store, { ...ALICE, preferences: { guiLanguage: 'fr' } })

      expect(new Set([revisions.get('alice'), first, second]).size).toBe(3)
      expect(await revisionOf(store, 'alice')).toBe(second)
    })

    it('writes nothing over a revision that moved on: the later change, planned on the earlier state, is refused', async () => {
      const revisions = await store.replace(SNAPSHOT)
      const read = revisions.get('alice')
      const phone: StoredAccount = { ...ALICE, preferences: { personalPhone: '+33 1 00 00 00 01' } }
      const language: StoredAccount = { ...ALICE, preferences: { guiLanguage: 'fr' } }

      const first = await store.commit({ save: [{ account: phone, revision: read }] })
      const second = await store.commit({ save: [{ account: language, revision: read }] })

      expect(first.stale).toBeUndefined()
      expect(second).toStrictEqual({ stale: ['alice'] })
      expect((await store.loadAccount('alice'))?.account).toStrictEqual(phone)
    })

    it('refuses a new account whose login name another writer took meanwhile, keeping theirs', async () => {
      await store.replace(SNAPSHOT)
      const theirs: StoredAccount = { ...CAROL, preferences: { colleague: 'bob' } }
      await save(store, theirs)

      const outcome = await store.commit({ save: [{ account: CAROL, revision: undefined }] })

      expect(outcome).toStrictEqual({ stale: ['carol'] })
      expect((await store.loadAccount('carol'))?.account).toStrictEqual(theirs)
    })

    it('deletes nothing when the account changed since the revision the delete was planned on', async () => {
      const revisions = await store.replace(SNAPSHOT)
      const changed: StoredAccount = { ...EMILE, preferences: { guiLanguage: 'de' } }
      await save(store, changed)

      const outcome = await store.commit({
        delete: { loginName: 'émile', revision: revisions.get('émile') ?? '' },
        save: [],
      })

      expect(outcome).toStrictEqual({ stale: ['émile'] })
      expect((await store.loadAccount('émile'))?.account).toStrictEqual(changed)
    })

    it('writes all of a change or none of it: one stale account leaves every other as it was', async () => {
      const revisions = await store.replace(SNAPSHOT)
      await save(store, { ...BOB, preferences: { guiLanguage: 'it' } })
      const before = await store.load()

      const outcome = await store.commit({
        delete: { loginName: 'émile', revision: revisions.get('émile') ?? '' },
        save: [
          {
            account: { ...ALICE, preferences: { colleague: 'bob' } },
            revision: revisions.get('alice'),
          },
          { account: CAROL, revision: undefined },
          { account: { ...BOB, preferences: {} }, revision: revisions.get('bob') },
        ],
      })

      expect(outcome).toStrictEqual({ stale: ['bob'] })
      expect(await store.load()).toStrictEqual(before)
    })

    it('lets one of many writers planned on the same revision write, at the same moment, through two connections', async (context) => {
      if (concurrent === undefined) return context.skip('the adapter serves one writer at a time')
      const revisions = await store.replace(SNAPSHOT)
      const other = await concurrent()
      try {
        const read = revisions.get('alice')
        const writers = Array.from({ length: 12 }, (_, index) =>
          (index % 2 === 0 ? store : other).commit({
            save: [
              {
                account: { ...ALICE, preferences: { colleague: `writer-${index}` } },
                revision: read,
              },
            ],
          }),
        )
        const outcomes = await Promise.all(writers)
        const written = outcomes.flatMap((outcome, index) =>
          outcome.stale === undefined ? [index] : [],
        )

        expect(written).toHaveLength(1)
        expect(outcomes.filter((outcome) => outcome.stale !== undefined)).toHaveLength(11)
        expect((await store.loadAccount('alice'))?.account.preferences).toStrictEqual({
          colleague: `writer-${written[0]}`,
        })
      } finally {
        await other.close()
      }
    })

    it('replaces the directory over the revisions it was planned on, and answers the new ones', async () => {
      const revisions = await store.replace(SNAPSHOT)
      const second: DirectorySnapshot = {
        sourceDigest: 'sha256:second',
        settings: OTHER_SETTINGS,
        accounts: [CAROL, ALICE],
      }

      const written = await store.replaceIfUnchanged(second, revisions)

      expect(contentOf(await store.load())).toStrictEqual({ ...second, accounts: [ALICE, CAROL] })
      expect((await store.load())?.revisions).toStrictEqual(written)
    })

    it('replaces nothing when an account was changed, created or deleted since the revisions given', async () => {
      for (const meanwhile of [
        () => save(store, { ...ALICE, preferences: { guiLanguage: 'fr' } }),
        () => save(store, CAROL),
        () => remove(store, 'bob'),
      ]) {
        const revisions = await store.replace(SNAPSHOT)
        await meanwhile()
        const before = await store.load()

        const written = await store.replaceIfUnchanged(
          { sourceDigest: 'sha256:second', settings: OTHER_SETTINGS, accounts: [CAROL] },
          revisions,
        )

        expect(written).toBeUndefined()
        expect(await store.load()).toStrictEqual(before)
      }
    })

    it('replaces over an empty map only a store that holds no account', async () => {
      expect(await store.replaceIfUnchanged(SNAPSHOT, new Map())).toBeDefined()
      expect(await store.replaceIfUnchanged(SNAPSHOT, new Map())).toBeUndefined()
      expect(contentOf(await store.load())).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('keeps both fields of 1,000 pairs of changes two writers plan on copies of their own, each read back', async () => {
      await store.replace(SNAPSHOT)
      // The second writer is another connection where the adapter serves several (another node).
      const other = (await concurrent?.()) ?? store
      try {
        type Copy = { account: StoredAccount; revision: Revision }
        const copyOf = async (writer: DirectoryStore): Promise<Copy> => {
          const stored = await writer.loadAccount('alice')
          if (stored === undefined) throw new Error('alice is not stored')
          return stored
        }
        /** Plans the change on the writer's copy; when the store refuses it, reloads and plans again. */
        const write = async (writer: DirectoryStore, copy: Copy, field: string, value: string) => {
          for (let from = copy; ; from = await copyOf(writer)) {
            const preferences = { ...from.account.preferences, [field]: value }
            const account = { ...from.account, preferences }
            const outcome = await writer.commit({ save: [{ account, revision: from.revision }] })
            const revision =
              outcome.stale === undefined ? outcome.revisions.get('alice') : undefined
            if (revision !== undefined) return { account, revision }
          }
        }
        let mine = await copyOf(store)
        let theirs = await copyOf(other)
        const wrong: string[] = []
        for (let pair = 0; pair < 1_000; pair += 1) {
          mine = await write(store, mine, 'personalPhone', `phone ${pair}`)
          theirs = await write(other, theirs, 'personalMobile', `mobile ${pair}`)
          for (const reader of [store, other]) {
            const { preferences } = (await copyOf(reader)).account
            if (preferences.personalPhone !== `phone ${pair}`) wrong.push(`phone of pair ${pair}`)
            if (preferences.personalMobile !== `mobile ${pair}`)
              wrong.push(`mobile of pair ${pair}`)
          }
        }
        expect(wrong).toEqual([])
      } finally {
        if (other !== store) await other.close()
      }
    })

    it('keeps the directory across closing and reopening', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.replace(SNAPSHOT)
      await save(store, CAROL)
      const before = await store.load()

      await store.close()
      store = await reopen()

      expect(contentOf(await store.load())).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, ALICE, BOB, CAROL, EMILE],
      })
      expect(await store.load()).toStrictEqual(before)
    })

    it('keeps a deletion across closing and reopening', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.replace(SNAPSHOT)
      await remove(store, 'alice')

      await store.close()
      store = await reopen()

      expect(contentOf(await store.load())).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, BOB, EMILE],
      })
    })
  })
}
