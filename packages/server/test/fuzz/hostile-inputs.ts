/**
 * The hostile requests the fuzzer sends to one operation. Each part of a request (session, path parameters,
 * query, body, headers) is either meaningful to the service (built from the operation's schemas and the demo
 * directory's names) or hostile (no session or a mangled cookie; over-long, badly encoded, wrongly typed or
 * shaped, deeply nested values, prototype keys; other content types). An input makes no part hostile, one, or
 * several: a request hostile everywhere would only ever meet the first check, so a fair share of inputs is
 * meaningful but in one place, and reaches the handler with it.
 */
import fc from 'fast-check'
import { domainValue } from './domain-values.js'
import type { FuzzOperation, QueryParameter } from './fuzz-operations.js'
import {
  BAD_CREDENTIALS,
  GOOD_CREDENTIALS,
  HOSTILE_QUERY_NAMES,
  HOSTILE_QUERY_VALUES,
  HOSTILE_SEGMENTS,
  JSON_TYPES,
  ODD_TYPES,
  QUERY_TAILS,
  RAW_BODIES,
} from './hostile-texts.js'
import { LiveValue } from './live-values.js'
import { hostileJson, hugeString, mutatedValue, schemaValue } from './schema-values.js'

/** Whose session the request carries: none, a user's with or without TELEPHONY_ADVANCED, an administrator's. */
export type SessionKind = 'none' | 'user' | 'basicUser' | 'admin'

/** How the Cookie header carries the token, or what it carries instead (fuzz-service.ts writes it). */
export type CookieForm = (typeof NO_SESSION_COOKIES)[number] | (typeof SESSION_COOKIES)[number]

const NO_SESSION_COOKIES = [
  'absent',
  'garbage',
  'credentialWithoutSession',
  'closedSession',
  'empty',
  'nameOnly',
  'huge',
] as const
const SESSION_COOKIES = [
  'plain',
  'otherName',
  'quoted',
  'spaced',
  'otherSessionFirst',
  'amongGarbage',
] as const

/** A path segment: text to percent-encode, or text sent as it is (already encoded, or badly). */
export interface PathSegment {
  value: string | LiveValue
  encode: boolean
}

/** One `name=value` pair of the query string. */
export interface QueryPair {
  name: string
  value: string | LiveValue
  encode: boolean
}

/**
 * A JSON body's value, printed by fast-check as its JSON cut short: its own printer recurses into a deeply nested
 * value until the stack ends, and fails on an object whose own `constructor` key is not a function.
 */
export class JsonDocument {
  constructor(readonly value: unknown) {}

  [fc.toStringMethod](): string {
    try {
      const text = JSON.stringify(this.value, (_key, value: unknown) =>
        value instanceof LiveValue ? value[fc.toStringMethod]() : value,
      )
      return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text
    } catch (error) {
      return `<not printable: ${String(error)}>`
    }
  }
}

/** The body: JSON of a value, raw text, or nothing; with its content type (none when undefined). */
export type BodyInput =
  | { kind: 'json'; document: JsonDocument; contentType: string | undefined }
  | { kind: 'raw'; text: string; contentType: string | undefined }
  | { kind: 'none'; contentType: string | undefined }

/** One generated request to an operation, before its live ids are resolved. */
export interface FuzzInput {
  session: SessionKind
  cookie: CookieForm
  path: Record<string, PathSegment>
  query: QueryPair[]
  /** Text appended to the query string as it is: separators and encodings no pair makes. */
  queryTail: string
  body: BodyInput
  headers: Record<string, string>
}

/** The parts of a request an input may make hostile. */
const PARTS = ['session', 'path', 'query', 'body', 'headers'] as const
type Part = (typeof PARTS)[number]

/** Which parts are hostile: none in a quarter of the inputs, one in half, several in the rest. */
const hostileParts: fc.Arbitrary<readonly Part[]> = fc.oneof(
  { arbitrary: fc.constant([]), weight: 1 },
  { arbitrary: fc.constantFrom(...PARTS).map((part) => [part]), weight: 2 },
  { arbitrary: fc.subarray([...PARTS], { minLength: 2 }), weight: 1 },
)

const sessionKinds = fc.constantFrom<SessionKind>('user', 'user', 'basicUser', 'admin', 'admin')

/** A session of each kind, in a cookie of a name the service accepts. */
const meaningfulSession = fc.record({
  session: sessionKinds,
  cookie: fc.constantFrom<CookieForm>('plain', 'plain', 'otherName'),
})

/** No session (no cookie, a credential that opened none, a closed one...), or a session's cookie mangled. */
const hostileSession = fc.oneof(
  {
    arbitrary: fc.record({
      session: fc.constant<SessionKind>('none'),
      cookie: fc.constantFrom<CookieForm>(...NO_SESSION_COOKIES),
    }),
    weight: 2,
  },
  fc.record({ session: sessionKinds, cookie: fc.constantFrom<CookieForm>(...SESSION_COOKIES) }),
)

function pathSegments(
  operation: FuzzOperation,
  hostile: boolean,
): fc.Arbitrary<Record<string, PathSegment>> {
  const segments: Record<string, fc.Arbitrary<PathSegment>> = {}
  for (const name of operation.pathParameters) {
    const meaningful = (domainValue(name) ??
      fc.string({ minLength: 1, maxLength: 12 })) as fc.Arbitrary<string | LiveValue>
    segments[name] = hostile
      ? fc.oneof(
          { arbitrary: meaningful.map((value) => ({ value, encode: true })), weight: 1 },
          {
            arbitrary: fc
              .constantFrom(...HOSTILE_SEGMENTS)
              .map((value) => ({ value, encode: false })),
            weight: 3,
          },
          fc.string({ unit: 'binary', maxLength: 20 }).map((value) => ({ value, encode: true })),
        )
      : meaningful.map((value) => ({ value, encode: true }))
  }
  return fc.record(segments)
}

const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_QUERY_VALUES),
  fc.string({ unit: 'binary', maxLength: 12 }),
  hugeString,
)

/** A query value as a client writes it: the schema's and the domain's values as text, or live ids. */
function queryValue(parameter: QueryParameter, hostile: boolean): fc.Arbitrary<string | LiveValue> {
  const meaningful = schemaValue(parameter.schema, parameter.name).map((value) =>
    typeof value === 'string' || value instanceof LiveValue ? value : JSON.stringify(value),
  )
  return hostile ? fc.oneof(meaningful, hostileQueryValue) : meaningful
}

/** The declared parameters, each present or not; hostile, with wrong values, twice, and names not declared. */
function queryPairs(operation: FuzzOperation, hostile: boolean): fc.Arbitrary<QueryPair[]> {
  const declared = operation.query.map((parameter) =>
    fc
      .tuple(
        // A required parameter is mostly present, an optional one as often absent: both ways are tried.
        fc.nat({ max: 9 }).map((draw) => draw < (parameter.required ? 8 : 5)),
        fc.array(queryValue(parameter, hostile), { minLength: 1, maxLength: hostile ? 2 : 1 }),
        hostile ? fc.boolean() : fc.constant(true),
      )
      .map(([present, values, encode]) =>
        present ? values.map((value) => ({ name: parameter.name, value, encode })) : [],
      ),
  )
  const undeclared = fc.array(
    fc.record({
      name: fc.constantFrom(...HOSTILE_QUERY_NAMES),
      value: hostileQueryValue,
      encode: fc.boolean(),
    }),
    { maxLength: hostile ? 2 : 0 },
  )
  return fc
    .tuple(fc.tuple(...declared), undeclared)
    .map(([pairs, extras]) => [...pairs.flat(), ...extras])
}

function bodyInput(operation: FuzzOperation, hostile: boolean): fc.Arbitrary<BodyInput> {
  const json = (value: fc.Arbitrary<unknown>, contentType: fc.Arbitrary<string | undefined>) =>
    fc.record({
      kind: fc.constant('json' as const),
      document: value.map((json) => new JsonDocument(json)),
      contentType,
    })
  const jsonType = fc.constantFrom(...JSON_TYPES)
  if (!hostile)
    return operation.body === undefined
      ? fc.record({
          kind: fc.constant('none' as const),
          contentType: fc.option(jsonType, { nil: undefined }),
        })
      : json(schemaValue(operation.body), jsonType)
  const anyType = fc.oneof(jsonType, fc.constantFrom(...ODD_TYPES))
  const raw = fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ unit: 'binary', maxLength: 40 })),
    contentType: anyType,
  })
  const none = fc.record({ kind: fc.constant('none' as const), contentType: anyType })
  if (operation.body === undefined) return fc.oneof(json(hostileJson, anyType), raw)
  return fc.oneof(
    { arbitrary: json(mutatedValue(operation.body), jsonType), weight: 4 },
    { arbitrary: json(schemaValue(operation.body), fc.constantFrom(...ODD_TYPES)), weight: 1 },
    { arbitrary: json(hostileJson, anyType), weight: 1 },
    { arbitrary: raw, weight: 1 },
    { arbitrary: none, weight: 1 },
  )
}

/** Credentials that authenticate, or none; hostile, wrong ones and headers a client would not send. */
function headers(hostile: boolean): fc.Arbitrary<Record<string, string>> {
  if (!hostile)
    return fc.record({ authorization: fc.constantFrom(...GOOD_CREDENTIALS) }, { requiredKeys: [] })
  return fc.record(
    {
      authorization: fc.constantFrom(...BAD_CREDENTIALS, ...GOOD_CREDENTIALS),
      accept: fc.constantFrom('text/html', '*/*', 'application/xml', ''),
      'accept-language': fc.constantFrom('fr', '*', 'x'.repeat(300)),
      'x-forwarded-for': fc.constantFrom('10.0.0.1', 'not an address'),
      origin: fc.constantFrom('http://evil.example', 'null'),
    },
    { requiredKeys: [] },
  )
}

/** Every request to `operation`, meaningful but where it is hostile. */
export function fuzzInput(operation: FuzzOperation): fc.Arbitrary<FuzzInput> {
  return hostileParts.chain((parts) => {
    const hostile = (part: Part) => parts.includes(part)
    return fc
      .tuple(
        hostile('session') ? hostileSession : meaningfulSession,
        pathSegments(operation, hostile('path')),
        queryPairs(operation, hostile('query')),
        hostile('query')
          ? fc.oneof(fc.constant(''), fc.constantFrom(...QUERY_TAILS))
          : fc.constant(''),
        bodyInput(operation, hostile('body')),
        headers(hostile('headers')),
      )
      .map(([{ session, cookie }, path, query, queryTail, body, headers]) => ({
        session,
        cookie,
        path,
        query,
        queryTail,
        body,
        headers,
      }))
  })
}
