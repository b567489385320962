import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { readSessionCookie } from './cookies.js'

function withCookie(cookie: string | undefined): FastifyRequest {
  return { headers: cookie === undefined ? {} : { cookie } } as FastifyRequest
}

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

describe('readSessionCookie', () => {
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
    expect(readSessionCookie(withCookie(header))).toBe(expected)
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
      expect(readSessionCookie(withCookie(header)), header).toBe(splitReading(header))
    }
  })
})
