import { describe, expect, it } from 'vitest'
import { PasswordHasher } from './password-hasher.js'

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 })

describe('PasswordHasher', () => {
  it('verifies the password it hashed and rejects another', async () => {
    const hash = await hasher.hash('demo-alice')
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect(await hasher.verify('demo-alice', hash)).toBe(true)
    expect(await hasher.verify('demo-bob', hash)).toBe(false)
  })

  it('salts every hash', async () => {
    expect(await hasher.hash('same')).not.toBe(await hasher.hash('same'))
  })

  it('answers false for a missing or malformed hash', async () => {
    expect(await hasher.verify('x', undefined)).toBe(false)
    expect(await hasher.verify('x', 'plain-text')).toBe(false)
    expect(PasswordHasher.isWellFormed('scrypt$1024$8$1$c2FsdA==$a2V5')).toBe(true)
    expect(PasswordHasher.isWellFormed('bcrypt$...')).toBe(false)
  })
})
