/**
 * The operations the fuzzer sends to: every method and path of the OpenAPI document, read from the document the
 * service builds in this process (src/tools/openapi-document.ts, what `npm run openapi` writes to
 * docs/openapi.json), so that a route added or changed is fuzzed without anyone listing it here. The HEAD twin
 * of every GET, which Fastify serves and the document leaves out (docs/openapi.md), is fuzzed too; the named
 * schemas the document references (`#/components/schemas/<Name>`) are inlined.
 */
import { openApiDocument } from '../../src/tools/openapi-document.js'

/** A JSON Schema as the OpenAPI document carries it (TypeBox's output), its references inlined. */
export type JsonSchema = Readonly<Record<string, unknown>>

/** A query parameter of an operation. */
export interface QueryParameter {
  name: string
  required: boolean
  schema: JsonSchema
}

/** One operation of the API, as the fuzzer needs it. */
export interface FuzzOperation {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'
  /** The path template, e.g. `/api/rest/1.0/users/{loginName}`. */
  path: string
  /** The names of the template's parameters, in path order. */
  pathParameters: string[]
  query: QueryParameter[]
  /** The schema of the JSON body, when the operation takes one. */
  body?: JsonSchema
  /** `METHOD path`, the name a failure is reported under. */
  label: string
}

interface OpenApiParameter {
  in: string
  name: string
  required?: boolean
  schema?: JsonSchema
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
}

const METHODS = ['get', 'head', 'post', 'put', 'delete', 'patch'] as const

/** Every operation of the service's OpenAPI document, in the document's order. */
export async function fuzzOperations(): Promise<FuzzOperation[]> {
  const document = JSON.parse(await openApiDocument()) as {
    paths: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>
    components?: { schemas?: Record<string, unknown> }
  }
  const paths = inlined(document.paths, document.components?.schemas ?? {}) as typeof document.paths
  const operations: FuzzOperation[] = []
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method]
      if (operation !== undefined) operations.push(fuzzOperation(method, path, operation))
      if (method === 'get' && operation !== undefined && item.head === undefined)
        operations.push(fuzzOperation('head', path, operation))
    }
  }
  return operations
}

const REF_PREFIX = '#/components/schemas/'

/** `node` with every `{ $ref: '#/components/schemas/<Name>' }` replaced by the schema it names. */
function inlined(node: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => inlined(item, schemas))
  if (typeof node !== 'object' || node === null) return node
  const { $ref } = node as { $ref?: unknown }
  if (typeof $ref === 'string' && $ref.startsWith(REF_PREFIX)) {
    const name = $ref.slice(REF_PREFIX.length)
    if (!(name in schemas)) throw new Error(`${$ref}: no such schema in the document`)
    return inlined(schemas[name], schemas)
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, inlined(value, schemas)]),
  )
}

function fuzzOperation(
  method: (typeof METHODS)[number],
  path: string,
  operation: OpenApiOperation,
): FuzzOperation {
  const parameters = operation.parameters ?? []
  const body = operation.requestBody?.content?.['application/json']?.schema
  const upper = method.toUpperCase() as FuzzOperation['method']
  return {
    method: upper,
    path,
    pathParameters: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
    query: parameters
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => ({
        name: parameter.name,
        required: parameter.required === true,
        schema: parameter.schema ?? {},
      })),
    ...(body !== undefined && { body }),
    label: `${upper} ${path}`,
  }
}
