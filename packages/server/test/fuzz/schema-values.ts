/**
 * Values from the JSON Schemas of the OpenAPI document: values that satisfy a schema (so that the input gets
 * past validation to the handler), those values mutated one place at a time (a required field dropped, a field
 * of the wrong type, an unknown field, a huge or deeply nested one), and JSON that has nothing to do with the
 * schema. Only the keywords the document uses are read (fuzz-operations.ts inlines every `$ref`).
 */
import fc from 'fast-check'
import { domainValue } from './domain-values.js'
import type { JsonSchema } from './fuzz-operations.js'
import { LiveValue } from './live-values.js'

type Json = unknown

const prop = (schema: JsonSchema, key: string) => schema[key] as JsonSchema | undefined

/** A value that satisfies `schema`; `name` is the field or parameter that carries it, if any. */
export function schemaValue(schema: JsonSchema, name?: string): fc.Arbitrary<Json> {
  const hint = name === undefined ? undefined : domainValue(name)
  // Objects are built from their own fields' names; a name's meaning is for the leaves.
  if (hint !== undefined && schema['type'] !== 'object')
    return fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: bySchema(schema), weight: 1 })
  return bySchema(schema)
}

function bySchema(schema: JsonSchema): fc.Arbitrary<Json> {
  const choices = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined
  if (choices !== undefined) return fc.oneof(...choices.map((choice) => schemaValue(choice)))
  const values = schema['enum'] as Json[] | undefined
  if (values !== undefined) return fc.constantFrom(...values)
  if ('const' in schema) return fc.constant(schema['const'])
  switch (schema['type']) {
    case 'object':
      return objectValue(schema)
    case 'array':
      return fc.array(schemaValue(prop(schema, 'items') ?? {}), {
        minLength: (schema['minItems'] as number | undefined) ?? 0,
        maxLength: Math.max((schema['minItems'] as number | undefined) ?? 0, 3),
      })
    case 'string':
      return stringValue(schema)
    case 'integer':
      return fc.integer({
        min: (schema['minimum'] as number | undefined) ?? -5,
        max: (schema['maximum'] as number | undefined) ?? 1_000,
      })
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function objectValue(schema: JsonSchema): fc.Arbitrary<Json> {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>
  const required = (schema['required'] ?? []) as string[]
  const model: Record<string, fc.Arbitrary<Json>> = {}
  for (const [key, field] of Object.entries(properties)) model[key] = schemaValue(field, key)
  return fc.record(model, { requiredKeys: required.filter((key) => key in model) })
}

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const pattern = schema['pattern'] as string | undefined
  if (pattern !== undefined) return fc.stringMatching(new RegExp(pattern))
  const minLength = (schema['minLength'] as number | undefined) ?? 0
  const maxLength = Math.max(minLength, Math.min((schema['maxLength'] as number) ?? 16, 16))
  return fc.string({ minLength, maxLength })
}

/** A string of `length` characters and more, to meet limits of length (fields, parameters, bodies). */
export const hugeString = fc
  .tuple(
    fc.constantFrom(100, 101, 257, 2_049, 20_000, 70_000),
    fc.constantFrom('a', 'é', '%', '\u{1F600}'),
  )
  .map(([length, unit]) => unit.repeat(length))

/**
 * Arrays or objects nested up to 1,000 deep, what a recursive walk of a body may not survive; deeper ones are raw
 * bodies (hostile-inputs.ts), JSON.stringify itself not surviving them.
 */
export const deepNesting = fc
  .tuple(fc.constantFrom(10, 100, 1_000), fc.boolean())
  .map(([depth, arrays]) => {
    let value: Json = 'x'
    for (let level = 0; level < depth; level++) value = arrays ? [value] : { a: value }
    return value
  })

/** JSON that names nothing of any schema: every root type, odd numbers, prototype keys, odd text. */
export const hostileJson: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    2 ** 53 + 1,
    -0,
    0.5,
    '',
    ' ',
    '\u0000',
    '\uD800',
  ),
  // Parsed, not written as literals: a literal's `__proto__` sets the prototype, JSON's is an own key.
  fc.constantFrom(
    ...['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '[]', '{}'].map(
      (text) => JSON.parse(text) as Json,
    ),
  ),
  fc.jsonValue(),
  fc.string({ unit: 'binary' }),
  hugeString,
  deepNesting,
)

/** How a valid value is broken, in one place. */
const MUTATIONS = ['dropField', 'wrongType', 'extraField', 'huge', 'deep', 'null'] as const

/** A value of `schema` broken in one place (or left whole, when the place does not admit the mutation). */
export function mutatedValue(schema: JsonSchema): fc.Arbitrary<Json> {
  return fc
    .tuple(
      schemaValue(schema),
      fc.constantFrom(...MUTATIONS),
      fc.nat(),
      fc.oneof(
        hostileJson,
        fc.constantFrom('__proto__', 'constructor', 'toString', 'unknownField'),
      ),
    )
    .map(([value, mutation, where, replacement]) => mutate(value, mutation, where, replacement))
}

function mutate(
  value: Json,
  mutation: (typeof MUTATIONS)[number],
  where: number,
  replacement: Json,
): Json {
  const copy = cloned(value)
  const objects = containers(copy)
  const target = objects[where % Math.max(1, objects.length)]
  if (target === undefined) return replacementFor(mutation, replacement)
  const keys = Object.keys(target)
  const key = keys[where % Math.max(1, keys.length)]
  const record = target as Record<string, Json>
  switch (mutation) {
    case 'dropField':
      if (key !== undefined) delete record[key]
      return copy
    case 'extraField':
      Object.defineProperty(record, typeof replacement === 'string' ? replacement : 'extra', {
        value: replacement,
        enumerable: true,
        writable: true,
        configurable: true,
      })
      return copy
    default:
      if (key !== undefined) record[key] = replacementFor(mutation, replacement)
      return copy
  }
}

/** The value a field gets by a mutation. */
function replacementFor(mutation: (typeof MUTATIONS)[number], replacement: Json): Json {
  switch (mutation) {
    case 'huge':
      return 'h'.repeat(30_000)
    case 'deep':
      return JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`)
    case 'null':
      return null
    default:
      return typeof replacement === 'string' ? 7 : replacement
  }
}

/** Every object and array in `value`, outermost first (live ids are leaves). */
function containers(value: Json): object[] {
  if (value === null || typeof value !== 'object' || value instanceof LiveValue) return []
  return [value, ...Object.values(value).flatMap(containers)]
}

/** A deep copy that keeps live ids as they are (structuredClone would make them plain objects). */
function cloned(value: Json): Json {
  if (value === null || typeof value !== 'object' || value instanceof LiveValue) return value
  if (Array.isArray(value)) return value.map(cloned)
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloned(item)]))
}
