import { describe, expect, it } from 'vitest'
import { PlatformError } from '../platform-error.js'
import {
  type CanonicalInput,
  type CompanyNumbers,
  canonicalNumber,
  type DialingRule,
  dialableNumber,
} from './numbering.js'

/** The demo directory's numbering plan: Paris, outside line 0, extensions of 4 digits, Lyon on 39xxxx. */
const PARIS: DialingRule = {
  countryCode: 'FR',
  areaCode: '1',
  externalPrefix: '0',
  addPfxForNbLength: 4,
  exceptionRules: [{ lengthException: 6, beginPatternException: '39' }],
}
const LYON: DialingRule = {
  countryCode: 'FR',
  areaCode: '4',
  externalPrefix: '0',
  addPfxForNbLength: 4,
}
/** Manhattan, outside line 9, extensions of 5 digits, a private network on 8 + 7 digits. */
const NEW_YORK: DialingRule = {
  countryCode: 'US',
  areaCode: '212',
  externalPrefix: '9',
  addPfxForNbLength: 5,
  exceptionRules: [{ lengthException: 8, beginPatternException: '8' }],
}
const LONDON: DialingRule = {
  countryCode: 'GB',
  areaCode: '20',
  externalPrefix: '9',
  addPfxForNbLength: 4,
}
const BERLIN: DialingRule = {
  countryCode: 'DE',
  areaCode: '30',
  externalPrefix: '0',
  addPfxForNbLength: 3,
  exceptionRules: [{ lengthException: 0, beginPatternException: '77' }],
}
/** Denmark numbers without area codes. */
const COPENHAGEN: DialingRule = { countryCode: 'DK', externalPrefix: '0', addPfxForNbLength: 4 }
const ROME: DialingRule = { countryCode: 'IT', externalPrefix: '0', addPfxForNbLength: 4 }
/** International prefix 010. */
const TOKYO: DialingRule = {
  countryCode: 'JP',
  areaCode: '3',
  externalPrefix: '0',
  addPfxForNbLength: 4,
}
/** International prefix 0011. */
const SYDNEY: DialingRule = {
  countryCode: 'AU',
  areaCode: '2',
  externalPrefix: '0',
  addPfxForNbLength: 4,
}
/** One international prefix per carrier: no single one to dial. */
const SAO_PAULO: DialingRule = { countryCode: 'BR', externalPrefix: '0', addPfxForNbLength: 4 }

type Row = [
  rule: DialingRule,
  phoneNumber: string,
  options: Omit<CanonicalInput, 'phoneNumber'>,
  expected: string,
]

describe('canonicalNumber', () => {
  const rows: Row[] = [
    // The specification's default pattern, +C (A) xxxxxxxxxx, from Paris.
    [PARIS, '0155661234', {}, '+33 (1) 55661234'],
    [PARIS, '01 55 66 12 34', {}, '+33 (1) 55661234'],
    [PARIS, '01.55.66.12.34', {}, '+33 (1) 55661234'],
    [PARIS, '(01) 55-66/12.34', {}, '+33 (1) 55661234'],
    [PARIS, '+33 1 55 66 12 34', {}, '+33 (1) 55661234'],
    [PARIS, '+33 (0)1 55 66 12 34', {}, '+33 (1) 55661234'],
    [PARIS, '155661234', {}, '+33 (1) 55661234'],
    [PARIS, '55661234', {}, '+33 (1) 55661234'],
    [PARIS, '0033155661234', {}, '+33 (1) 55661234'],
    [PARIS, '0612345678', {}, '+33 (6) 12345678'],
    [PARIS, '0044 20 7946 0018', {}, '+44 (20) 79460018'],
    [PARIS, '+1 212-555-1234', {}, '+1 (212) 5551234'],
    [PARIS, ' 33155661234', {}, '+33 (1) 55661234'],
    // isPrefixIncluded: with prefix 0 and international prefix 00, 00155661234 is either.
    [PARIS, '00155661234', { isPrefixIncluded: true }, '+33 (1) 55661234'],
    [PARIS, '00155661234', {}, '+33 (1) 55661234'],
    [PARIS, '0155661234', { isPrefixIncluded: true }, '+33 (1) 55661234'],
    [PARIS, '000442079460018', { isPrefixIncluded: true }, '+44 (20) 79460018'],
    [PARIS, '+33155661234', { isPrefixIncluded: true }, '+33 (1) 55661234'],
    [PARIS, '155661234', { isPrefixIncluded: true }, '+33 (1) 55661234'],
    // Extensions and the private network have no public form.
    [PARIS, '1002', {}, '1002'],
    [PARIS, '8000', { isPrefixIncluded: true }, '8000'],
    [PARIS, '39 12 34', {}, '391234'],
    [LYON, '0478123456', {}, '+33 (4) 78123456'],
    [LYON, '78123456', {}, '+33 (4) 78123456'],
    // Other patterns.
    [PARIS, '0155661234', { resultPattern: '+Cxxxxxxxxx' }, '+33155661234'],
    [PARIS, '0155661234', { resultPattern: '+C a xx xx xx xx' }, '+33 1 55 66 12 34'],
    [PARIS, '0155661234', { resultPattern: 'A xx xx xx xx' }, '01 55 66 12 34'],
    [PARIS, '0155661234', { resultPattern: 'a xx xx xx xx' }, '1 55 66 12 34'],
    [PARIS, '0155661234', { resultPattern: 'xx xx xx xx xx' }, '01 55 66 12 34'],
    [PARIS, '0155661234', { resultPattern: 'xx.xx.xx.xx.xx' }, '01.55.66.12.34'],
    [PARIS, '0155661234', { resultPattern: '' }, '+33 (1) 55661234'],
    // More digits than x: they follow the last x; fewer: the unused x go with their separators.
    [PARIS, '0155661234', { resultPattern: '+C xxxx' }, '+33 155661234'],
    [PARIS, '0155661234', { resultPattern: 'xx-xx' }, '01-55661234'],
    [PARIS, '0155661234', { resultPattern: '+C (A) xx xx xx xx xx xx' }, '+33 (1) 55 66 12 34'],
    [PARIS, '0155661234', { resultPattern: '+C (A) xxx xxx' }, '+33 (1) 556 61234'],
    [PARIS, '0155661234', { resultPattern: '+C (A)' }, '+33 (1)55661234'],
    // New York: national prefix 1 not written in national patterns, local numbers, prefix 9.
    [NEW_YORK, '2125551234', {}, '+1 (212) 5551234'],
    [NEW_YORK, '(212) 555-1234', {}, '+1 (212) 5551234'],
    [NEW_YORK, '1 212 555 1234', {}, '+1 (212) 5551234'],
    [NEW_YORK, '555-1234', {}, '+1 (212) 5551234'],
    [NEW_YORK, '9 1 212 555 1234', { isPrefixIncluded: true }, '+1 (212) 5551234'],
    [NEW_YORK, '912125551234', {}, '+1 (212) 5551234'],
    [NEW_YORK, '011 44 20 7946 0018', {}, '+44 (20) 79460018'],
    [NEW_YORK, '9011442079460018', { isPrefixIncluded: true }, '+44 (20) 79460018'],
    [NEW_YORK, '2125551234', { resultPattern: '(a) xxx-xxxx' }, '(212) 555-1234'],
    [NEW_YORK, '2125551234', { resultPattern: 'A.xxx.xxxx' }, '212.555.1234'],
    [NEW_YORK, '2125551234', { resultPattern: '+C-a-xxx-xxxx' }, '+1-212-555-1234'],
    [NEW_YORK, '12345', {}, '12345'],
    [NEW_YORK, '8123-4567', {}, '81234567'],
    // London, Berlin, Copenhagen, Rome, Tokyo, Sydney.
    [LONDON, '020 7946 0018', {}, '+44 (20) 79460018'],
    [LONDON, '7946 0018', {}, '+44 (20) 79460018'],
    [LONDON, '020 7946 0018', { resultPattern: 'A xxxx xxxx' }, '020 7946 0018'],
    [LONDON, '07400 123456', {}, '+44 (7400) 123456'],
    [BERLIN, '030 1234567', {}, '+49 (30) 1234567'],
    [BERLIN, '1234567', {}, '+49 (30) 1234567'],
    [BERLIN, '01512 3456789', {}, '+49 (1512) 3456789'],
    [BERLIN, '00 33 1 55 66 12 34', {}, '+33 (1) 55661234'],
    [BERLIN, '77123', {}, '77123'],
    [COPENHAGEN, '32 12 34 56', {}, '+45 32123456'],
    [COPENHAGEN, '32 12 34 56', { resultPattern: '(a) xx xx xx xx' }, '32 12 34 56'],
    [COPENHAGEN, '+45 32 12 34 56', { resultPattern: '+C-A-xxxxxxxx' }, '+45-32123456'],
    [ROME, '06 6982 1234', {}, '+39 (06) 69821234'],
    [ROME, '+39 06 6982 1234', { resultPattern: 'A xxxx xxxx' }, '06 6982 1234'],
    [TOKYO, '03-1234-5678', {}, '+81 (3) 12345678'],
    [TOKYO, '12345678', {}, '+81 (3) 12345678'],
    [TOKYO, '010 33 1 55 66 12 34', {}, '+33 (1) 55661234'],
    [SYDNEY, '(02) 1234 5678', {}, '+61 (2) 12345678'],
    [SYDNEY, '0011 44 20 7946 0018', {}, '+44 (20) 79460018'],
  ]

  it.each(rows)('%# %j: %s %j gives %s', (rule, phoneNumber, options, expected) => {
    expect(canonicalNumber({ phoneNumber, ...options }, rule)).toBe(expected)
  })

  it.each([
    [PARIS, '01 55 66 12 34 ext 5', {}, /phoneNumber: .* may only hold digits/],
    [PARIS, 'O155661234', {}, /phoneNumber: .* may only hold digits/],
    [PARIS, '01 55 66 12 34 +', {}, /phoneNumber: .* may only hold digits/],
    [PARIS, '+', {}, /phoneNumber: '\+' has no digit/],
    [PARIS, '- -', {}, /phoneNumber: .* has no digit/],
    [PARIS, '1'.repeat(31), {}, /phoneNumber: .* has more than 30 digits/],
    [PARIS, '+999 123', {}, /phoneNumber: .* does not start with a known country code/],
    [PARIS, '+33 12', {}, /phoneNumber: .* has not the length of a number of its country/],
    [PARIS, '01556', {}, /phoneNumber: '01556' is not a phone number of FR/],
    [
      PARIS,
      '00155661234',
      { isPrefixIncluded: false },
      /phoneNumber: .* \(set isPrefixIncluded if it starts with the external prefix 0\)/,
    ],
    [PARIS, '0 12', { isPrefixIncluded: true }, /phoneNumber: .* after the prefix/],
    [PARIS, '0155661234', { resultPattern: '+C (A) xxxx#' }, /resultPattern: '#' is not allowed/],
    [PARIS, '0155661234', { resultPattern: '+33 xxxxxxxxx' }, /resultPattern: '3' is not allowed/],
    [PARIS, '0155661234', { resultPattern: 'C C xxx' }, /resultPattern: C may appear only once/],
    [
      PARIS,
      '0155661234',
      { resultPattern: 'A a xxx' },
      /resultPattern: A and a may appear only once/,
    ],
    [PARIS, '1002', { resultPattern: 'X' }, /resultPattern: 'X' is not allowed/],
  ] satisfies [DialingRule, string, Omit<CanonicalInput, 'phoneNumber'>, RegExp][])(
    '%# refuses %j with BAD_PARAMETER naming the parameter',
    (rule, phoneNumber, options, message) => {
      expect(() => canonicalNumber({ phoneNumber, ...options }, rule)).toThrow(
        expect.objectContaining({ type: 'BAD_PARAMETER', message: expect.stringMatching(message) }),
      )
    },
  )

  it('answers SERVER_PROBLEM for a dialing rule of a country without a numbering plan', () => {
    const rule = { ...PARIS, countryCode: 'XX' }
    expect(() => canonicalNumber({ phoneNumber: '0155661234' }, rule)).toThrow(PlatformError)
    expect(() => canonicalNumber({ phoneNumber: '0155661234' }, rule)).toThrow(
      expect.objectContaining({ type: 'SERVER_PROBLEM' }),
    )
  })
})

describe('dialableNumber', () => {
  const rows: Row[] = [
    [PARIS, '+33 1 55 66 12 34', {}, '00155661234'],
    [PARIS, '0155661234', {}, '00155661234'],
    [PARIS, '01 55 66 12 34', {}, '00155661234'],
    [PARIS, '55661234', {}, '00155661234'],
    [PARIS, '00155661234', { isPrefixIncluded: true }, '00155661234'],
    [PARIS, '00155661234', {}, '00155661234'],
    [PARIS, '+44 20 7946 0018', {}, '000442079460018'],
    [PARIS, '0044 20 7946 0018', {}, '000442079460018'],
    [PARIS, '1002', {}, '1002'],
    [PARIS, '39 12 34', {}, '391234'],
    [PARIS, '123456789012', {}, '0123456789012'],
    [LYON, '391234', {}, '0391234'],
    [NEW_YORK, '+1 212 555 1234', {}, '912125551234'],
    [NEW_YORK, '(212) 555-1234', {}, '912125551234'],
    [NEW_YORK, '555-1234', {}, '912125551234'],
    [NEW_YORK, '+44 20 7946 0018', {}, '9011442079460018'],
    [NEW_YORK, '911', {}, '911'],
    [NEW_YORK, '8123-4567', {}, '81234567'],
    [LONDON, '+33155661234', {}, '90033155661234'],
    [LONDON, '7946 0018', {}, '902079460018'],
    [BERLIN, '77 12 34 56', {}, '77123456'],
    [COPENHAGEN, '+45 32 12 34 56', {}, '032123456'],
    [TOKYO, '+44 20 7946 0018', {}, '0010442079460018'],
    [SYDNEY, '+44 20 7946 0018', {}, '00011442079460018'],
    [SAO_PAULO, '+44 20 7946 0018', {}, '+442079460018'],
  ]

  it.each(rows)('%# %j: %s %j gives %s', (rule, phoneNumber, options, expected) => {
    expect(dialableNumber({ phoneNumber, ...options }, rule)).toBe(expected)
  })

  it.each([
    ['+999 123', /does not start with a known country code/],
    ['01-55-66-12-34 x', /may only hold digits/],
  ])('refuses %j with BAD_PARAMETER', (phoneNumber, message) => {
    expect(() => dialableNumber({ phoneNumber }, PARIS)).toThrow(
      expect.objectContaining({ type: 'BAD_PARAMETER', message: expect.stringMatching(message) }),
    )
  })
})

/** The demo's public numbers: +3315566 and an extension; 1001 and 1002 ring somebody, 1003 nobody. */
const COMPANY: CompanyNumbers = {
  publicNumberPrefix: '+3315566',
  reaches: (extension) => extension === '1001' || extension === '1002',
}

describe("the company's public numbers", () => {
  const canonicalRows: [DialingRule, string, Omit<CanonicalInput, 'phoneNumber'>, string][] = [
    [PARIS, '1002', {}, '+33 (1) 55661002'],
    [PARIS, '1001', { resultPattern: 'A xx xx xx xx' }, '01 55 66 10 01'],
    [PARIS, '1001', { resultPattern: '+Cxxxxxxxxx' }, '+33155661001'],
    // An extension nobody answers has no public number; the private network never has one.
    [PARIS, '1003', {}, '1003'],
    [PARIS, '39 12 34', {}, '391234'],
    // Public numbers, the company's included, read as before.
    [PARIS, '0155661002', {}, '+33 (1) 55661002'],
    [PARIS, '0155661234', {}, '+33 (1) 55661234'],
    [NEW_YORK, '1002', {}, '+33 (1) 55661002'],
  ]
  it.each(canonicalRows)(
    'canonical %#: %s %j %j gives %s',
    (rule, phoneNumber, options, expected) => {
      expect(canonicalNumber({ phoneNumber, ...options }, rule, COMPANY)).toBe(expected)
    },
  )

  const dialableRows: [DialingRule, string, Omit<CanonicalInput, 'phoneNumber'>, string][] = [
    // The company's own public numbers are dialed as their extensions, however written.
    [PARIS, '+33 1 55 66 10 02', {}, '1002'],
    [PARIS, '01 55 66 10 02', {}, '1002'],
    [PARIS, '55661001', {}, '1001'],
    [PARIS, '0033155661001', {}, '1001'],
    [NEW_YORK, '+33 1 55 66 10 02', {}, '1002'],
    // One that reaches nobody, another number, or one the application gives with the prefix: as before.
    [PARIS, '+33 1 55 66 10 03', {}, '00155661003'],
    [PARIS, '0155661234', {}, '00155661234'],
    [PARIS, '00155661002', { isPrefixIncluded: true }, '00155661002'],
    [PARIS, '1002', {}, '1002'],
  ]
  it.each(dialableRows)(
    'dialable %#: %s %j %j gives %s',
    (rule, phoneNumber, options, expected) => {
      expect(dialableNumber({ phoneNumber, ...options }, rule, COMPANY)).toBe(expected)
    },
  )

  it('are not mapped when the prefix is not in +E.164 (it is then matched as written, by incoming calls only)', () => {
    const national: CompanyNumbers = { ...COMPANY, publicNumberPrefix: '0155661' }
    expect(canonicalNumber({ phoneNumber: '1002' }, PARIS, national)).toBe('1002')
    expect(dialableNumber({ phoneNumber: '0155661002' }, PARIS, national)).toBe('00155661002')
  })
})
