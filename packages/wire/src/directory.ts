/**
 * Directory search (service `Directory`, `<base>/directory`; wire facts 8.4; the specification only names
 * it): the search request with its Criterion, and the polled SearchResult whose batches of contacts are
 * PartyInfo with the contact's vCard path.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'
import { PartyInfo } from './telephony/party.js'

/** The attributes a Criterion may test (the SDKs' spellings on the wire). */
export const SEARCH_FIELDS = ['lastName', 'firstName', 'id.phoneNumber', 'id.loginName'] as const
export type SearchField = (typeof SEARCH_FIELDS)[number]

/** How a leaf Criterion compares (note the spellings: not BEGINS_WITH, CONTAINS, ENDS_WITH). */
export const SEARCH_OPERATIONS = ['EQUAL_IGNORE_CASE', 'BEGIN_WITH', 'CONTAIN', 'END_WITH'] as const
export type SearchOperation = (typeof SEARCH_OPERATIONS)[number]

/** How a node Criterion combines its operands. */
export const LOGICAL_OPERATIONS = ['AND', 'OR'] as const
export type LogicalOperation = (typeof LOGICAL_OPERATIONS)[number]

/** The largest `limit`, and the one used when the request gives none (the SDKs document 1 to 100). */
export const MAX_SEARCH_LIMIT = 100

/**
 * POST `<directory>/search`. `filter` is a Criterion: a leaf `{field, operation, operand: string}` or a
 * node `{operation: AND|OR, operand: [Criterion…]}`; the service checks it part by part and names the
 * path of a bad part (docs/directory-search.md), so the schema leaves its inside open.
 */
export const SearchRequest = Type.Object(
  {
    filter: Type.Unknown({
      description:
        'Criterion: {field: lastName|firstName|id.phoneNumber|id.loginName, operation: ' +
        'EQUAL_IGNORE_CASE|BEGIN_WITH|CONTAIN|END_WITH, operand: string} or ' +
        '{operation: AND|OR, operand: [Criterion, …]}',
    }),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        description: 'the most contacts the search returns (100 when absent)',
      }),
    ),
  },
  { title: 'SearchRequest' },
)
export type SearchRequest = Static<typeof SearchRequest>

/** A contact found: a PartyInfo with the path of its vCard. */
export const DirectoryContact = Type.Object(
  {
    ...PartyInfo.properties,
    vcardPath: Type.Optional(
      Type.String({
        description: 'relative to the vCard base URL of GET /api/rest/locator/services?names=VCARD',
      }),
    ),
  },
  { title: 'DirectoryContact' },
)
export type DirectoryContact = Static<typeof DirectoryContact>

/** `resultCode`: OK (this answer carries a batch), NOK (running, nothing new), FINISH, TIMEOUT. */
export const SEARCH_RESULT_CODES = ['OK', 'NOK', 'FINISH', 'TIMEOUT'] as const
export type SearchResultCode = (typeof SEARCH_RESULT_CODES)[number]

export const SearchResult = Type.Object(
  {
    resultCode: enumeration(SEARCH_RESULT_CODES, { title: 'SearchResultCode' }),
    resultElements: Type.Optional(
      Type.Array(
        Type.Object({ contacts: Type.Array(DirectoryContact) }, { title: 'SearchResultElement' }),
      ),
    ),
  },
  { title: 'SearchResult' },
)
export type SearchResult = Static<typeof SearchResult>

/**
 * GET `<directory>`: what a search may ask, this server's own answer at the service's URL (the
 * specification's change history names a "list of available attributes" without showing it).
 */
export const SearchCapabilities = Type.Object(
  {
    attributes: Type.Array(enumeration(SEARCH_FIELDS)),
    operations: Type.Array(enumeration([...SEARCH_OPERATIONS, ...LOGICAL_OPERATIONS])),
    maxLimit: Type.Integer(),
  },
  { title: 'SearchCapabilities' },
)
export type SearchCapabilities = Static<typeof SearchCapabilities>
