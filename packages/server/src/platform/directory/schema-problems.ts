/**
 * Checks a value against a TypeBox schema and words each problem for a person who writes the value by
 * hand (the directory file, a control plane request): the path of the faulty field, every unknown field
 * with a suggestion when one is close, numbers that should have been quoted.
 */
import type { TSchema } from 'typebox'
import { Settings } from 'typebox/system'
import { Value } from 'typebox/value'
import type { DirectoryPath, DirectoryProblem } from './directory-problem.js'

/** TypeBox stops at 8 errors by default; a hand-edited file deserves to see them all at once. */
const MAX_SCHEMA_ERRORS = 200

/**
 * Every schema problem of `value` against `schema`, paths relative to `value`. `patternMessages` words
 * a failed `pattern` by the pattern's source.
 */
export function findSchemaProblems(
  schema: TSchema,
  value: unknown,
  patternMessages: Readonly<Record<string, string>> = {},
): DirectoryProblem[] {
  const previousMax = Settings.Get().maxErrors
  Settings.Set({ maxErrors: MAX_SCHEMA_ERRORS })
  let errors: ReturnType<typeof Value.Errors>
  try {
    errors = Value.Errors(schema, value)
  } finally {
    Settings.Set({ maxErrors: previousMax })
  }
  const problems: DirectoryProblem[] = []
  for (const error of errors) {
    const path = instancePath(value, error.instancePath)
    switch (error.keyword) {
      case 'boolean':
        // `additionalProperties: false` reports each unknown key twice; the other report names them all.
        break
      case 'additionalProperties': {
        const known = Object.keys(propertiesAt(schema, error.schemaPath))
        for (const key of error.params.additionalProperties) {
          problems.push({ path: [...path, key], message: unknownFieldMessage(key, known) })
        }
        break
      }
      case 'required':
        for (const key of (error.params as { requiredProperties: string[] }).requiredProperties) {
          problems.push({ path: [...path, key], message: 'is required' })
        }
        break
      case 'type':
        problems.push({
          path,
          message: typeMessage((error.params as { type: string }).type, valueAt(value, path)),
        })
        break
      case 'enum':
        problems.push({
          path,
          message: `must be one of ${error.params.allowedValues.map(String).join(', ')}`,
        })
        break
      case 'uniqueItems': {
        const list = valueAt(value, path)
        for (const index of (error.params as { duplicateItems: number[] }).duplicateItems) {
          const item = Array.isArray(list) ? list[index] : undefined
          problems.push({ path: [...path, index], message: `${String(item)} is listed twice` })
        }
        break
      }
      case 'pattern': {
        const pattern = error.params.pattern
        const source = typeof pattern === 'string' ? pattern : pattern.source
        problems.push({ path, message: patternMessages[source] ?? `must match ${source}` })
        break
      }
      case 'minimum':
        problems.push({ path, message: `must be at least ${error.params.limit}` })
        break
      case 'maximum':
        problems.push({ path, message: `must be at most ${error.params.limit}` })
        break
      case 'minLength':
        problems.push({
          path,
          message:
            error.params.limit === 1
              ? 'must not be empty'
              : `must be at least ${error.params.limit} characters long`,
        })
        break
      case 'minItems':
        problems.push({
          path,
          message: `must list at least ${error.params.limit} item${error.params.limit === 1 ? '' : 's'}`,
        })
        break
      default:
        problems.push({ path, message: error.message })
    }
  }
  if (errors.length >= MAX_SCHEMA_ERRORS) {
    problems.push({ path: [], message: `more problems follow the first ${MAX_SCHEMA_ERRORS}` })
  }
  return problems
}

function typeMessage(expected: string, actual: unknown): string {
  switch (expected) {
    case 'string':
      return typeof actual === 'number' || typeof actual === 'boolean'
        ? `must be a string; write it in quotes: "${String(actual)}"`
        : 'must be a string'
    case 'integer':
      return 'must be a whole number'
    case 'boolean':
      return 'must be true or false'
    case 'object':
      return 'must be a mapping of fields (key: value)'
    case 'array':
      return 'must be a list'
    default:
      return `must be of type ${expected}`
  }
}

function unknownFieldMessage(key: string, known: string[]): string {
  const typed = key.toLowerCase()
  const closest = known
    .map((name) => {
      const candidate = name.toLowerCase()
      const abbreviated = typed.length >= 3 && candidate.startsWith(typed)
      return { name, distance: abbreviated ? 0 : editDistance(typed, candidate) }
    })
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0]
  return closest === undefined
    ? `is not a known field (known fields: ${known.join(', ')})`
    : `is not a known field; did you mean ${closest.name}?`
}

/** The Levenshtein distance between two words (a suggestion for a misspelt one). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, substitution))
    }
    row = next
  }
  return row[b.length] ?? 0
}

/** The declared properties of the object schema at a JSON pointer (`#/properties/users/items`). */
function propertiesAt(root: TSchema, schemaPath: string): Record<string, TSchema> {
  let schema: unknown = root
  for (const segment of pointerSegments(schemaPath.replace(/^#/, ''))) {
    schema = isRecord(schema) ? schema[segment] : undefined
  }
  if (!isRecord(schema)) return {}
  const { properties } = schema
  return isRecord(properties) ? (properties as Record<string, TSchema>) : {}
}

/** Turns a JSON pointer into a path, with numbers where the value is a list. */
function instancePath(root: unknown, pointer: string): DirectoryPath {
  const path: DirectoryPath = []
  let node = root
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) {
      const index = Number(segment)
      path.push(index)
      node = node[index]
    } else {
      path.push(segment)
      node = isRecord(node) ? node[segment] : undefined
    }
  }
  return path
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function valueAt(root: unknown, path: DirectoryPath): unknown {
  let node = root
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment]
    else if (isRecord(node) && typeof segment === 'string') node = node[segment]
    else return undefined
  }
  return node
}

/** True for a plain object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
