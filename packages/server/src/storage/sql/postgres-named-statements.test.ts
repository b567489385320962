import { describe, expect, it } from 'vitest'
import { namedStatement, statementName } from './postgres-named-statements.js'

describe('named statements', () => {
  it('reads back the name a text begins with', () => {
    expect(statementName(`${namedStatement('engine-fenced-save')}\n select 1`)).toBe(
      'engine-fenced-save',
    )
  })

  it('names no statement whose text does not begin with the marker', () => {
    expect(statementName('select 1')).toBeUndefined()
    expect(statementName(` ${namedStatement('a')} select 1`)).toBeUndefined()
    expect(statementName('/* statement unterminated')).toBeUndefined()
  })

  it('refuses a name that is not letters, digits and dashes', () => {
    expect(() => namedStatement('a */ drop')).toThrow()
  })
})
