import { describe, expect, it } from 'vitest'
import { applicationUrlParameterOf, SessionCookies } from './cookies.js'

const specificationOnly = new SessionCookies(['SvcUserId'])
const both = new SessionCookies()

/** The reading the scan replaced: split on semicolons, the first pair whose trimmed name matches. */
function splitReading(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const separator = part.indexOf('=')
    if (separator === -1) continue
    if (part.slice(0, separator).trim() === 'SvcUserId') return part.slice(separator + 1).trim()
  }
  return undefined
}

describe('SessionCookies.read', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['SvcUserId=abc', 'abc'],
    ['SvcUserId=', ''],
    ['  SvcUserId  =  abc  ', 'abc'],
    ['other=1; SvcUserId=abc; last=2', 'abc'],
    ['other=1;SvcUserId=abc', 'abc'],
    ['SvcUserId=first; SvcUserId=second', 'first'],
    ['SvcUserId; SvcUserId=abc', 'abc'],
    ['flag; other=x=y; SvcUserId=a=b', 'a=b'],
    ['svcuserid=abc', undefined],
    ['XSvcUserId=abc', undefined],
    ['other=SvcUserId=abc', undefined],
    [';;SvcUserId=abc;;', 'abc'],
    ['SvcUserId=abc;', 'abc'],
    ['\tSvcUserId=\tabc\t', 'abc'],
  ])('reads %j as %j', (header, expected) => {
    expect(specificationOnly.read(header)).toBe(expected)
  })

  it.each([
    ['AlcUserId=abc', 'abc'],
    ['other=1; AlcUserId=abc', 'abc'],
    ['AlcUserId=first; SvcUserId=second', 'first'],
    ['SvcUserId=first; AlcUserId=second', 'first'],
    ['alcuserid=abc', undefined],
    ['XAlcUserId=abc', undefined],
  ])('reads %j as %j under both default names', (header, expected) => {
    expect(both.read(header)).toBe(expected)
  })

  it('does not read a name that is not configured', () => {
    expect(specificationOnly.read('AlcUserId=abc')).toBeUndefined()
    expect(new SessionCookies(['AlcUserId']).read('SvcUserId=abc; AlcUserId=def')).toBe('def')
  })

  it('reads every header as splitting on semicolons does', () => {
    const pieces = ['SvcUserId', 'other', '=', ';', ' ', 'abc', '\t', 'x']
    let seed = 1
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed
    }
    for (let round = 0; round < 5000; round++) {
      let header = ''
      const length = next() % 9
      for (let i = 0; i < length; i++) header += pieces[next() % pieces.length]
      expect(specificationOnly.read(header), header).toBe(splitReading(header))
    }
  })
})

describe('SessionCookies names', () => {
  it('pairs every cookie name with its basic login parameter', () => {
    expect(both.names).toEqual(['SvcUserId', 'AlcUserId'])
    expect(both.applicationUrlParameters).toEqual(['SvcApplicationUrl', 'AlcApplicationUrl'])
    expect(both.nameOfParameter('AlcApplicationUrl')).toBe('AlcUserId')
    expect(both.nameOfParameter('OtherApplicationUrl')).toBeUndefined()
    expect(() => applicationUrlParameterOf('session')).toThrow(/<prefix>UserId/)
  })

  it('finds the first accepted name a Cookie header carries', () => {
    expect(both.nameIn('x=1; AlcUserId=a; SvcUserId=b')).toBe('AlcUserId')
    expect(both.nameIn('x=1')).toBeUndefined()
    expect(both.nameIn(undefined)).toBeUndefined()
  })
})
