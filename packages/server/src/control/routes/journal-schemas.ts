/** The journal routes' schemas (docs/journal.md), for the control plane's OpenAPI document. */
import { Type } from '@fastify/type-provider-typebox'
import { JOURNAL_KINDS } from '../../platform/journal/journal-entry.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../platform/journal/journal-filter.js'
import { MAX_PATTERNS, PATTERN_FIELDS } from '../../platform/journal/journal-verify.js'

const text = (description: string) => Type.Optional(Type.String({ description }))

export const JournalEntry = Type.Object(
  {
    id: Type.Integer({ description: "the entry's number in the journal: 1, 2, 3... as recorded" }),
    at: Type.String({ format: 'date-time', description: "when, on the service's clock" }),
    kind: Type.Union(
      [
        Type.Literal('request'),
        Type.Literal('event'),
        Type.Literal('control'),
        Type.Literal('near-miss'),
      ],
      { description: JOURNAL_KINDS.join(', ') },
    ),
    method: text('request, control, near-miss: the HTTP method'),
    path: text('request, control, near-miss: the path, without the query'),
    query: text('the query, the value of any parameter named like a secret replaced by ***'),
    operation: text("request, control: the route's operationId (answerCall)"),
    status: Type.Optional(Type.Integer({ description: 'request, control, near-miss: the status' })),
    durationMs: Type.Optional(
      Type.Number({ description: "from the request's arrival to the answer's last byte" }),
    ),
    error: Type.Optional(
      Type.Object(
        { type: Type.String(), message: Type.String() },
        { description: "the RestErrorInfo's type and helpMessage, when the answer was an error" },
      ),
    ),
    user: text(
      "request: the session's login (or the Basic credentials' of an authentication); event: the " +
        "subscription's; control: the user the path names",
    ),
    session: text("request: the session's id"),
    call: text('request: the call reference the path names; event: the one the event carries'),
    subscription: text('request: the subscription the path names; event: the subscription'),
    event: text("event: the event's name (OnCallModified)"),
    about: text("event: the login the event is about, when not the subscription's"),
    sequence: Type.Optional(Type.Integer({ description: 'event: its number in the subscription' })),
    summary: text('control: what the route does'),
    suggestions: Type.Optional(
      Type.Array(
        Type.Object({
          method: Type.String(),
          path: Type.String(),
          operation: Type.Optional(Type.String()),
        }),
        { description: 'near-miss: up to three routes it may have meant, the closest first' },
      ),
    ),
  },
  { title: 'JournalEntry' },
)

const list = (description: string) => Type.Optional(Type.String({ description }))

/** The filters of a read and of the stream. */
export const JournalFilters = {
  kind: list('request, event, control, near-miss: a comma list, or the parameter repeated'),
  user: list('a login: the user of a request or event, the user a control action names'),
  call: list('a call reference'),
  subscription: list('a subscription id'),
  session: list('a session id'),
  operation: list('an operationId (answerCall)'),
  event: list('an event name (OnCallModified)'),
  method: list('an HTTP method'),
  path: list('a path, without the query'),
  error: list("the error's type (NOT_FOUND)"),
  status: list('a status (404) or a class of them (4xx)'),
  since: list("entries at or after this time of the service's clock (ISO date-time)"),
  until: list('entries at or before this time (ISO date-time)'),
  after: list('entries after this id (the stream: held ones first, then live)'),
  before: list('entries before this id'),
}

export const JournalQuery = Type.Object({
  ...JournalFilters,
  limit: list(`at most this many entries, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  order: list('newest (default): the latest entries, newest first; oldest: the earliest first'),
})

export const JournalStreamQuery = Type.Object(JournalFilters)

export const JournalPage = Type.Object(
  {
    entries: Type.Array(JournalEntry),
    next: Type.Optional(
      Type.Object(
        {
          before: Type.Optional(Type.Integer()),
          after: Type.Optional(Type.Integer()),
        },
        { description: 'when more entries matched: the filter that reads the next page' },
      ),
    ),
  },
  { title: 'JournalPage' },
)

const Pattern = Type.Object(
  Object.fromEntries(
    PATTERN_FIELDS.map((field) => [
      field,
      Type.Optional(
        field === 'status' ? Type.Union([Type.Integer(), Type.String()]) : Type.String(),
      ),
    ]),
  ),
  {
    description: "a partial entry: every field given must be the entry's",
    additionalProperties: false,
  },
)

export const JournalVerification = Type.Object(
  {
    patterns: Type.Array(Pattern, { minItems: 1, maxItems: MAX_PATTERNS }),
    within: Type.Optional(
      Type.Object(JournalFilters, {
        description: 'the entries looked at: filters as GET /journal takes',
      }),
    ),
  },
  { title: 'JournalVerification', additionalProperties: false },
)

export const JournalVerdict = Type.Object(
  {
    matched: Type.Boolean({ description: 'whether every pattern matched an entry, in order' }),
    entries: Type.Array(JournalEntry, {
      description:
        'the entries the patterns matched (those before the failed one when not matched)',
    }),
    failedAt: Type.Optional(
      Type.Integer({ description: 'the first pattern that matched no entry' }),
    ),
    pattern: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    candidates: Type.Optional(
      Type.Array(Type.Object({ entry: JournalEntry, differences: Type.Array(Type.String()) }), {
        description: 'up to three entries closest to the failed pattern, each with how it differs',
      }),
    ),
  },
  { title: 'JournalVerdict' },
)
