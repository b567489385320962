/** Directory.verifyPassword with VerifiedPasswords: a password verified lately is not verified again. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { testDocument } from '../../../test/support/directory-documents.js'
import { openDatabase } from '../../storage/sql/database.js'
import { SqlDirectoryStore } from '../../storage/sql/sql-directory-store.js'
import { PasswordHasher } from '../auth/password-hasher.js'
import { VerifiedPasswords } from '../auth/verified-passwords.js'
import type { Clock } from '../events.js'
import { Directory } from './directory.js'
import { importDirectory } from './directory-import.js'

let now = 0
const clock: Clock = {
  now: () => now,
  setTimer: () => ({ cancel: () => {} }),
  sleep: async () => {},
}

let hasher: PasswordHasher
let store: SqlDirectoryStore

beforeEach(async () => {
  now = Date.UTC(2026, 0, 1)
  hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 })
  store = new SqlDirectoryStore(await openDatabase({ kind: 'sqlite', filename: ':memory:' }))
})

afterEach(async () => {
  await store.close()
})

async function directoryWith(verified: VerifiedPasswords | undefined): Promise<Directory> {
  const snapshot = await importDirectory(testDocument(), 'digest', undefined, hasher)
  const stored = { ...snapshot, revisions: await store.replace(snapshot) }
  return new Directory(store, stored, hasher, clock, { publish: () => {} }, { verified })
}

describe('Directory.verifyPassword with verified passwords kept for 60 s', () => {
  it('verifies a password once, then answers the same account without scrypt', async () => {
    const directory = await directoryWith(new VerifiedPasswords(clock, 60))
    const verify = vi.spyOn(hasher, 'verify')
    const alice = directory.findUser('alice')
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBe(alice)
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBe(alice)
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBe(alice)
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('verifies a wrong password in full every time, and refuses it', async () => {
    const directory = await directoryWith(new VerifiedPasswords(clock, 60))
    await directory.verifyPassword('alice', 'demo-alice')
    const verify = vi.spyOn(hasher, 'verify')
    expect(await directory.verifyPassword('alice', 'wrong')).toBeUndefined()
    expect(await directory.verifyPassword('alice', 'wrong')).toBeUndefined()
    expect(await directory.verifyPassword('bob', 'demo-alice')).toBeUndefined()
    expect(verify).toHaveBeenCalledTimes(3)
  })

  it('refuses the old password at once after a password change', async () => {
    const directory = await directoryWith(new VerifiedPasswords(clock, 60))
    await directory.verifyPassword('alice', 'demo-alice')
    await directory.changePassword('alice', 'demo-alice', 'a-new-secret')
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBeUndefined()
    expect(await directory.verifyPassword('alice', 'a-new-secret')).toBe(
      directory.findUser('alice'),
    )
  })

  it('verifies in full again once the 60 s are over', async () => {
    const directory = await directoryWith(new VerifiedPasswords(clock, 60))
    await directory.verifyPassword('alice', 'demo-alice')
    now += 60_000
    const verify = vi.spyOn(hasher, 'verify')
    expect(await directory.verifyPassword('alice', 'demo-alice')).toBe(directory.findUser('alice'))
    expect(verify).toHaveBeenCalledTimes(1)
  })
})

describe('Directory.verifyPassword without verified passwords', () => {
  it('verifies every login in full', async () => {
    const directory = await directoryWith(undefined)
    const verify = vi.spyOn(hasher, 'verify')
    await directory.verifyPassword('alice', 'demo-alice')
    await directory.verifyPassword('alice', 'demo-alice')
    expect(verify).toHaveBeenCalledTimes(2)
  })
})
