/**
 * A restore while another node writes (docs/cluster.md, "No lost update"): on PostgreSQL the restore runs in one
 * serializable transaction, run again when it met a concurrent change, so that it neither fails on a row another
 * writer inserted after it read the table nor leaves the tables other than its image.
 */
import { expect, it } from 'vitest'
import { describeWithPostgres, withClient } from '../../../test/support/postgres.js'
import type { StoredAccount } from '../../platform/directory/account.js'
import type { DirectorySnapshot } from '../../platform/directory/directory-store.js'
import { openDatabase } from './database.js'
import { SqlDirectoryStore } from './sql-directory-store.js'
import { SqlPlatformImages } from './sql-platform-images.js'

function user(loginName: string, guiLanguage = 'en'): StoredAccount {
  return {
    kind: 'USER',
    loginName,
    record: { loginName, salutation: 'MR', type: 'STANDARD', apiRights: [], clirMode: 'INACTIVE' },
    preferences: { guiLanguage },
  }
}

const DIRECTORY: DirectorySnapshot = {
  sourceDigest: 'sha256:restore',
  settings: {
    companyName: 'Restore Corp',
    nodeId: '1',
    numberingPlan: {
      countryCode: 'FR',
      externalPrefix: '0',
      addPfxForNbLength: 5,
      exceptionRules: [],
      extensionLength: 4,
    },
    licenses: { TELEPHONY_BASIC: 9, TELEPHONY_ADVANCED: 9, MESSAGING: 9, CONFERENCING: 9 },
    languages: { gui: ['en', 'fr'], tui: [] },
  },
  accounts: [user('alice'), user('bob'), user('erin')],
}

describeWithPostgres(
  'SqlPlatformImages.restore with another writer at the same moment',
  (target) => {
    it('runs again, and puts the image back, when another writer inserted a row it was about to insert', async () => {
      const db = await openDatabase(target)
      const store = new SqlDirectoryStore(db)
      const images = new SqlPlatformImages(db)
      try {
        await store.replace(DIRECTORY)
        const image = await images.capture()
        // After the snapshot: erin leaves and bob changes, so the restore deletes bob's row and inserts erin's.
        const erin = await store.loadAccount('erin')
        const bob = await store.loadAccount('bob')
        await store.commit({
          delete: { loginName: 'erin', revision: erin?.revision ?? '' },
          save: [{ account: user('bob', 'fr'), revision: bob?.revision }],
        })
        // The restore's first delete waits half a second: meanwhile another node creates erin anew.
        await withClient(target, async (client) => {
          await client.query(`set search_path to "${target.schema}"`)
          await client.query(
            `create function slow_delete() returns trigger language plpgsql as $$ begin ` +
              `perform pg_sleep(0.5); return old; end $$`,
          )
          await client.query(
            'create trigger slow_delete before delete on account for each row execute function slow_delete()',
          )
        })
        const restored = images.restore(image)
        await new Promise((resolve) => setTimeout(resolve, 150))
        const created = await store.commit({
          save: [{ account: user('erin', 'fr'), revision: undefined }],
        })
        expect(created.stale).toBeUndefined()
        await withClient(target, (client) =>
          client.query(`drop trigger slow_delete on "${target.schema}".account`),
        )

        const rows = await restored

        expect(rows.accounts.sort()).toStrictEqual(['bob', 'erin'])
        expect(await images.capture()).toStrictEqual(image)
      } finally {
        await store.close()
      }
    })
  },
)
