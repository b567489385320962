/**
 * The hostile texts of a request, by where they go: path segments the router and the handlers must refuse
 * cleanly, query values of the wrong type or size, bodies that are not JSON or not JSON a parser survives, content
 * types the service does not take, credentials right and wrong. Constants: each is tried by name, and a failure
 * names the one it was.
 */

/** Path segments as sent (encoded already, or badly): traversal, bad encodings, limits, numbers, prototype keys. */
export const HOSTILE_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AE',
  '%00',
  '%FF',
  '%F0%9F%98%80',
  '%E2%80%AE',
  'a'.repeat(100),
  'a'.repeat(101),
  '0',
  '-1',
  '1e309',
  '99999999999999999999',
  'NaN',
  '0x10',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '*',
  '%20',
  "'%3B%20DROP%20TABLE%20account%3B--",
  '%7BcallRef%7D',
]

/** Query values of the wrong type or shape for most parameters. */
export const HOSTILE_QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '1.5',
  '1e309',
  'true',
  'yes',
  'null',
  '[]',
  '{}',
  '%ZZ',
  '__proto__',
]

/** Names a query should not carry, or carries twice. */
export const HOSTILE_QUERY_NAMES = [
  'loginName',
  '__proto__',
  'constructor[prototype][x]',
  'a[]',
  'x',
  '',
]

/** Text after the query's pairs: empty pairs, bad encodings, a fragment, 20 KB. */
export const QUERY_TAILS = [
  '&',
  '&&=&=x',
  '&%',
  '#fragment',
  '&a=%E0%A4%A',
  `&x=${'q'.repeat(20_000)}`,
]

/** The JSON content types a client sends. */
export const JSON_TYPES = ['application/json', 'application/json; charset=utf-8']

/** Content types the service does not take for JSON, or takes only for an empty body; none at all. */
export const ODD_TYPES = [
  undefined,
  '',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'application/json, text/html',
  ';;;',
]

/** Bodies that are not JSON, or not JSON the parser survives (nested 50,000 deep), or over the 64 KB limit. */
export const RAW_BODIES = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'undefined',
  'NaN',
  '"unterminated',
  '\u0000',
  '\uFEFF{}',
  '<xml/>',
  'a=b&c=d',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
  '{"version":"1.0","version":2}',
  '{"timeout":1e999}',
  `${'['.repeat(100_000)}`,
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  'x'.repeat(70_000),
  `{"applicationName":"${'x'.repeat(70_000)}"}`,
]

/** Basic credentials that authenticate (the demo directory's passwords). */
export const GOOD_CREDENTIALS = [
  `Basic ${btoa('alice:demo-alice')}`,
  `Basic ${btoa('admin:demo-admin')}`,
]

/** Credentials that do not: wrong passwords, unknown users, broken encodings, other schemes. */
export const BAD_CREDENTIALS = [
  `Basic ${btoa('alice:wrong')}`,
  `Basic ${btoa('nobody:demo-nobody')}`,
  `Basic ${btoa(':')}`,
  `Basic ${btoa('alice')}`,
  'Basic !!!',
  'Basic ',
  `Basic ${'A'.repeat(8_000)}`,
  'Negotiate YIIB',
  'Bearer x',
  'basic',
]
