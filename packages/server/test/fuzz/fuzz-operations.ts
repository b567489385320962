/**
 * The operations the fuzzer sends to: every method and path of the OpenAPI document, read from the document the
 * service builds in this process (src/tools/openapi-document.ts, what `npm run openapi` writes to
 * docs/openapi.json), so that a route added or changed is fuzzed without anyone listing it here.
 */
import { openApiDocument } from '../../src/tools/openapi-document.js'

/** A JSON Schema as the OpenAPI document carries it (TypeBox's output, inlined). */
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
  }
  const operations: FuzzOperation[] = []
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method]
      if (operation !== undefined) operations.push(fuzzOperation(method, path, operation))
    }
  }
  return operations
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
