/**
 * The Criterion of a directory search (wire facts 8.4), checked part by part: a bad part is refused with
 * 400 BAD_PARAMETER naming its path in the request (`filter.operand[1].field`), and nothing starts.
 */
import {
  LOGICAL_OPERATIONS,
  type LogicalOperation,
  SEARCH_FIELDS,
  SEARCH_OPERATIONS,
  type SearchField,
  type SearchOperation,
} from '@openness/wire'
import { PlatformError } from '../platform-error.js'
import { searchKey } from './search-key.js'

/** A leaf: one attribute compared with one text, already normalised (search-key.ts). */
export interface CriterionLeaf {
  kind: 'leaf'
  field: SearchField
  operation: SearchOperation
  /** The operand as the index compares it. */
  key: string
}

/** A node: its operands combined with AND or OR. */
export interface CriterionNode {
  kind: 'node'
  operation: LogicalOperation
  operands: Criterion[]
}

export type Criterion = CriterionLeaf | CriterionNode

/** The most leaves one filter may hold: far above what an application composes, bounded for the index. */
export const MAX_CRITERION_LEAVES = 32

/** Reads the request's `filter`; 400 BAD_PARAMETER naming the path of the first bad part. */
export function parseCriterion(value: unknown, path = 'filter'): Criterion {
  const counter = { leaves: 0 }
  return parse(value, path, counter)
}

function parse(value: unknown, path: string, counter: { leaves: number }): Criterion {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad(path, 'is not a Criterion object')
  const { field, operation, operand } = value as Record<string, unknown>
  if (includes(LOGICAL_OPERATIONS, operation)) {
    if (field !== undefined && field !== null)
      throw bad(`${path}.field`, `a ${operation} node has no field`)
    if (!Array.isArray(operand) || operand.length === 0)
      throw bad(`${path}.operand`, `an ${operation} node needs a non-empty list of Criterion`)
    return {
      kind: 'node',
      operation,
      operands: operand.map((part, index) => parse(part, `${path}.operand[${index}]`, counter)),
    }
  }
  if (!includes(SEARCH_OPERATIONS, operation))
    throw bad(
      `${path}.operation`,
      `must be one of ${[...SEARCH_OPERATIONS, ...LOGICAL_OPERATIONS].join(', ')}`,
    )
  if (!includes(SEARCH_FIELDS, field))
    throw bad(`${path}.field`, `must be one of ${SEARCH_FIELDS.join(', ')}`)
  if (typeof operand !== 'string') throw bad(`${path}.operand`, 'must be a string')
  const key = searchKey(field, operand)
  if (key === '') throw bad(`${path}.operand`, 'is empty: a search must say what it looks for')
  counter.leaves++
  if (counter.leaves > MAX_CRITERION_LEAVES)
    throw bad(path, `more than ${MAX_CRITERION_LEAVES} comparisons in one filter`)
  return { kind: 'leaf', field, operation, key }
}

function includes<T extends string>(values: readonly T[], value: unknown): value is T {
  return (values as readonly unknown[]).includes(value)
}

function bad(path: string, message: string): PlatformError {
  return new PlatformError('BAD_PARAMETER', `body ${path}: ${message}`)
}
