/**
 * Named component schemas for the OpenAPI documents (issue 16, found 3). The route schemas inline the wire
 * package's TypeBox records (style guide 2), each carrying its name as its `title` (`SessionInfo`, `Call`...);
 * @fastify/swagger copies them into every operation that uses them. This pass, run on the finished document
 * (its `transformObject`), moves each titled schema to `#/components/schemas/<title>` and leaves a `$ref` in
 * its place, so that a client generator names its types after the wire records. The route schemas themselves
 * are untouched: validation and serialization compile exactly as before.
 *
 * A title given to schemas that differ (two records under one name) names none of them: they stay inline, as
 * before, rather than one silently standing for the other; the OpenAPI test fails on any titled schema left
 * inline, so that such a clash is fixed in the wire package.
 */

type Schema = Record<string, unknown>

/** The part of an OpenAPI document this pass reads and writes. */
export interface OpenApiSchemas {
  components?: { schemas?: Record<string, unknown> }
  paths?: Record<string, Record<string, unknown>>
}

/** Keywords whose value is a map of `name → schema` (the names are data, not keywords). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']
/** Keywords whose value is one schema. */
const SCHEMA_VALUES = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
/** What OpenAPI allows as a key of `components.schemas`. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/
const REF_PREFIX = '#/components/schemas/'

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The schemas of a document: components first, then each operation's parameters, body and answers. */
function* schemaSlots(document: OpenApiSchemas): Generator<[Schema, string]> {
  const components = document.components?.schemas ?? {}
  for (const name of Object.keys(components)) yield [components, name]
  for (const item of Object.values(document.paths ?? {}))
    for (const operation of Object.values(item)) {
      if (!isSchema(operation)) continue
      for (const parameter of asList(operation['parameters'])) yield [parameter, 'schema']
      yield* contentSlots(operation['requestBody'])
      for (const response of Object.values(asMap(operation['responses']))) {
        yield* contentSlots(response)
        for (const header of Object.values(asMap(asMap(response)['headers'])))
          if (isSchema(header)) yield [header, 'schema']
      }
    }
}

function* contentSlots(holder: unknown): Generator<[Schema, string]> {
  for (const media of Object.values(asMap(asMap(holder)['content'])))
    if (isSchema(media)) yield [media, 'schema']
}

const asMap = (value: unknown): Schema => (isSchema(value) ? value : {})
const asList = (value: unknown): Schema[] => (Array.isArray(value) ? value.filter(isSchema) : [])

/** Calls `visit` on a schema and every schema nested in it, children first. */
function eachSubschema(schema: unknown, visit: (schema: Schema) => void): void {
  if (!isSchema(schema)) return
  for (const key of SCHEMA_MAPS)
    for (const child of Object.values(asMap(schema[key]))) eachSubschema(child, visit)
  for (const key of SCHEMA_VALUES) eachSubschema(schema[key], visit)
  for (const key of SCHEMA_LISTS)
    for (const child of asList(schema[key])) eachSubschema(child, visit)
  visit(schema)
}

/** JSON with object keys sorted: equal schemas give equal strings whatever their keys' order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isSchema(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, inner[key]]),
        )
      : inner,
  )
}

/** The titles that name one schema only, and may name a component. */
function nameableTitles(document: OpenApiSchemas): Set<string> {
  const shapes = new Map<string, Set<string>>()
  const note = (title: string, schema: unknown) => {
    const seen = shapes.get(title) ?? new Set<string>()
    seen.add(canonical(schema))
    shapes.set(title, seen)
  }
  // A component already named (a shared schema added with its $id) holds its name.
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    note(name, schema)
  for (const [holder, key] of schemaSlots(document))
    eachSubschema(holder[key], (schema) => {
      if (typeof schema['title'] === 'string') note(schema['title'], schema)
    })
  return new Set(
    [...shapes]
      .filter(([title, seen]) => seen.size === 1 && COMPONENT_NAME.test(title))
      .map(([title]) => title),
  )
}

/**
 * Moves every titled schema of `document` to `components.schemas` under its title, a `$ref` in its place;
 * changes the document in place and returns it.
 */
export function nameTitledSchemas<D extends OpenApiSchemas>(
  document: D,
): D & { components: { schemas: Record<string, unknown> } } {
  const nameable = nameableTitles(document)
  const components: Record<string, unknown> = { ...document.components?.schemas }
  const named = (schema: unknown, keepRoot = false): unknown => {
    if (!isSchema(schema)) return schema
    const copy: Schema = { ...schema }
    for (const key of SCHEMA_MAPS)
      if (isSchema(copy[key]))
        copy[key] = Object.fromEntries(
          Object.entries(copy[key] as Schema).map(([name, child]) => [name, named(child)]),
        )
    for (const key of SCHEMA_VALUES) if (key in copy) copy[key] = named(copy[key])
    for (const key of SCHEMA_LISTS)
      if (Array.isArray(copy[key]))
        copy[key] = (copy[key] as unknown[]).map((child) => named(child))
    const title = copy['title']
    if (keepRoot || typeof title !== 'string' || !nameable.has(title)) return copy
    components[title] ??= copy
    return { $ref: `${REF_PREFIX}${title}` }
  }
  for (const [holder, key] of schemaSlots(document)) {
    if (holder === document.components?.schemas) continue
    holder[key] = named(holder[key])
  }
  // The components already there keep their place; the schemas nested in them are named as well.
  for (const name of Object.keys(document.components?.schemas ?? {}))
    components[name] = named(components[name], true)
  const schemas = sortedByName(components)
  document.components = { ...document.components, schemas }
  return document as D & { components: { schemas: Record<string, unknown> } }
}

function sortedByName(schemas: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  )
}
