/** The behaviour every DirectoryStore adapter must show, run once per adapter by its test file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DirectorySettings, StoredAccount } from '../../src/platform/directory/account.js'
import type { DirectorySnapshot, DirectoryStore } from '../../src/platform/ports.js'

/** A fresh, empty store, and, for durable adapters, a way to open its storage again after close(). */
export interface DirectoryStoreUnderTest {
  store: DirectoryStore
  reopen?: () => Promise<DirectoryStore>
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

    beforeEach(async () => {
      ;({ store, reopen } = await create())
    })

    afterEach(async () => {
      await store.close()
    })

    it('loads undefined when nothing was ever stored', async () => {
      expect(await store.load()).toBeUndefined()
    })

    it('loads back the snapshot it replaced, optional fields absent or present as given', async () => {
      await store.replace(SNAPSHOT)

      expect(await store.load()).toStrictEqual(LOADED_SNAPSHOT)
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

      expect(await store.load()).toStrictEqual({ ...second, accounts: [aliceWithPassword, CAROL] })
    })

    it('keeps the previous directory when a replace fails (duplicate login name)', async () => {
      await store.replace(SNAPSHOT)
      const invalid: DirectorySnapshot = {
        sourceDigest: 'sha256:invalid',
        settings: OTHER_SETTINGS,
        accounts: [CAROL, { ...CAROL, preferences: { colleague: 'bob' } }],
      }

      await expect(store.replace(invalid)).rejects.toThrow()

      expect(await store.load()).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('inserts a new account on saveAccount without touching the others', async () => {
      await store.replace(SNAPSHOT)

      await store.saveAccount(CAROL)

      expect(await store.load()).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, ALICE, BOB, CAROL, EMILE],
      })
    })

    it('updates password hash, passwordChangedAt and preferences on saveAccount', async () => {
      await store.replace(SNAPSHOT)
      const alice: StoredAccount = {
        ...ALICE,
        passwordHash: 'scrypt$16384$8$1$bmV3$bmV3',
        passwordChangedAt: '2025-01-02T03:04:05.678Z',
        preferences: { guiLanguage: 'de', telephony: { clirMode: 'INACTIVE' } },
      }
      const zoe: StoredAccount = { ...ZOE, preferences: { guiLanguage: 'zh_CN' } }

      await store.saveAccount(alice)
      await store.saveAccount(zoe)

      expect(await store.load()).toStrictEqual({ ...SNAPSHOT, accounts: [zoe, alice, BOB, EMILE] })
    })

    it('drops on saveAccount the optional fields the account no longer has', async () => {
      await store.replace(SNAPSHOT)
      const { passwordHash: _hash, passwordChangedAt: _changedAt, ...emile } = EMILE

      await store.saveAccount(emile)

      expect(await store.load()).toStrictEqual({ ...SNAPSHOT, accounts: [ZOE, ALICE, BOB, emile] })
    })

    it('keeps what it stored apart from the objects the caller passed or received', async () => {
      const given = structuredClone(SNAPSHOT)
      await store.replace(given)
      given.settings.companyName = 'changed after replace'
      given.accounts.pop()
      const first = (await store.load())?.accounts[0]
      if (first === undefined) throw new Error('no account loaded')
      first.preferences.guiLanguage = 'changed after load'

      expect(await store.load()).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('deletes on deleteAccount the one account named, users and administrators alike', async () => {
      await store.replace(SNAPSHOT)

      await store.deleteAccount('émile')
      await store.deleteAccount('Zoë.admin')

      expect(await store.load()).toStrictEqual({ ...SNAPSHOT, accounts: [ALICE, BOB] })
    })

    it('does nothing on deleteAccount of a login name it does not hold', async () => {
      await store.replace(SNAPSHOT)

      await store.deleteAccount('nobody')

      expect(await store.load()).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('matches the login name exactly on deleteAccount: another case is another name', async () => {
      await store.replace(SNAPSHOT)

      await store.deleteAccount('ALICE')
      await store.deleteAccount('zoë.admin')

      expect(await store.load()).toStrictEqual(LOADED_SNAPSHOT)
    })

    it('keeps nothing of a deleted account when saveAccount stores the same login name again', async () => {
      await store.replace(SNAPSHOT)
      const { passwordHash: _hash, passwordChangedAt: _changedAt, ...rest } = EMILE
      const reborn: StoredAccount = { ...rest, preferences: {} }

      await store.deleteAccount('émile')
      await store.saveAccount(reborn)

      expect(await store.load()).toStrictEqual({ ...SNAPSHOT, accounts: [ZOE, ALICE, BOB, reborn] })
    })

    it('loads one account on loadAccount as last stored, users and administrators alike', async () => {
      await store.replace(SNAPSHOT)
      const alice: StoredAccount = {
        ...ALICE,
        passwordHash: 'scrypt$16384$8$1$bmV3$bmV3',
        passwordChangedAt: '2025-01-02T03:04:05.678Z',
        preferences: { guiLanguage: 'de' },
      }
      await store.saveAccount(alice)

      expect(await store.loadAccount('alice')).toStrictEqual(alice)
      expect(await store.loadAccount('émile')).toStrictEqual(EMILE)
      expect(await store.loadAccount('Zoë.admin')).toStrictEqual(ZOE)
      expect(await store.loadAccount('bob')).toStrictEqual(BOB)
    })

    it('loads undefined on loadAccount for an account deleted, never stored, or of another case', async () => {
      expect(await store.loadAccount('alice')).toBeUndefined()
      await store.replace(SNAPSHOT)

      await store.deleteAccount('émile')

      expect(await store.loadAccount('émile')).toBeUndefined()
      expect(await store.loadAccount('carol')).toBeUndefined()
      expect(await store.loadAccount('ALICE')).toBeUndefined()
      expect(await store.loadAccount('zoë.admin')).toBeUndefined()
    })

    it('keeps what loadAccount answered apart from what it stores', async () => {
      await store.replace(SNAPSHOT)
      const loaded = await store.loadAccount('émile')
      if (loaded === undefined) throw new Error('émile was not loaded')
      loaded.preferences.guiLanguage = 'changed after load'

      expect(await store.loadAccount('émile')).toStrictEqual(EMILE)
    })

    it('accepts deleteAccount on a store that holds no directory yet', async () => {
      await store.deleteAccount('alice')

      expect(await store.load()).toBeUndefined()
    })

    it('keeps the directory across closing and reopening', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.replace(SNAPSHOT)
      await store.saveAccount(CAROL)

      await store.close()
      store = await reopen()

      expect(await store.load()).toStrictEqual({
        ...SNAPSHOT,
        accounts: [ZOE, ALICE, BOB, CAROL, EMILE],
      })
    })

    it('keeps a deletion across closing and reopening', async (context) => {
      if (reopen === undefined) return context.skip('the adapter keeps nothing once closed')
      await store.replace(SNAPSHOT)
      await store.deleteAccount('alice')

      await store.close()
      store = await reopen()

      expect(await store.load()).toStrictEqual({ ...SNAPSHOT, accounts: [ZOE, BOB, EMILE] })
    })
  })
}
