/**
 * The @fastify/swagger options that shape an OpenAPI document for client generators (issue 16, found 3; docs/
 * openapi.md), shared by the API's document and the control plane's. They act on the document only, when it is
 * built: the route schemas, and so validation and serialization, are untouched.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import type { RouteOptions } from 'fastify'
import { nameTitledSchemas, type OpenApiSchemas } from './openapi-schemas.js'
import { operationIdOf } from './operation-ids.js'

/** A security requirement of an operation: any one of its entries suffices; `[]`, none is needed. */
export type Security = readonly Record<string, readonly string[]>[]

/**
 * The servers of a document whose paths are absolute (`/api/rest/...`, `/control/v1/...`, as in every URL the
 * service returns): the origin the document was fetched from.
 */
export const SAME_ORIGIN_SERVERS = [
  { url: '/', description: 'The origin that serves this document (the paths are absolute)' },
]

/**
 * Every operation gets an operationId (its schema's, else one derived from its method and path below
 * `basePath`) and its security (its schema's, else `securityOf` its route; none declared when that is
 * undefined); the titled schemas become named components; the shared schemas added with an `$id`
 * (RestErrorInfo: error-responses.ts) are named after it, not `def-0`, `def-1`...; the HEAD twins that Fastify
 * gives GET routes stay out of the document (they are still served), a route declared for HEAD itself showing
 * with `config.swagger.exposeHeadRoute`; `headersOf` names the request headers a route takes that its schema
 * does not (the Idempotency-Key of the API's unsafe methods).
 */
export function generatorFriendly(
  basePath: string,
  securityOf: (route: RouteOptions) => Security | undefined,
  headersOf: (route: RouteOptions) => Record<string, unknown> | undefined = () => undefined,
): Pick<
  FastifyDynamicSwaggerOptions,
  'exposeHeadRoutes' | 'refResolver' | 'transform' | 'transformObject'
> {
  return {
    exposeHeadRoutes: false,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`,
    },
    transform: ({ schema, url, route }) => {
      if (schema === undefined || schema.hide === true) return { schema, url }
      const security = schema.security ?? securityOf(route)
      // Headers the gateway reads itself (plugins/idempotency.ts), documented though no schema checks them.
      const headers = schema.headers ?? headersOf(route)
      return {
        schema: {
          ...schema,
          operationId: operationIdOf(String(route.method), url, basePath, schema.operationId),
          ...(security !== undefined && { security }),
          ...(headers !== undefined && { headers }),
        },
        url,
      }
    },
    transformObject: (document) =>
      shareErrorResponses(
        nameTitledSchemas(
          ('openapiObject' in document ? document.openapiObject : {}) as OpenApiSchemas,
        ),
      ),
  }
}

/** The response every error status of every operation describes: a RestErrorInfo. */
const ERROR_RESPONSE_NAME = 'RestError'
const ERROR_RESPONSE = {
  description: 'The error, as a RestErrorInfo (docs/errors.md)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/RestErrorInfo' } } },
}
/**
 * What @fastify/swagger writes for each error status of a route (error-responses.ts): the RestErrorInfo, under
 * the route's media type (`text/vcard` for a vCard, from its `produces`, although its errors are JSON too: the
 * error handler answers them).
 */
function isGeneratedErrorResponse(response: unknown): boolean {
  const { description, content, ...rest } = response as { description?: unknown; content?: unknown }
  const media = Object.values(content ?? {}) as unknown[]
  return (
    description === 'Default Response' &&
    Object.keys(rest).length === 0 &&
    media.length === 1 &&
    JSON.stringify(media[0]) === JSON.stringify(ERROR_RESPONSE.content['application/json'])
  )
}

/**
 * Replaces each error response that is a bare RestErrorInfo by a reference to one shared response,
 * `#/components/responses/RestError`: a generator then declares it once instead of at every status of every
 * operation (about 500 of them).
 */
function shareErrorResponses<D extends OpenApiSchemas>(document: D): D {
  let shared = false
  for (const item of Object.values(document.paths ?? {}))
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, unknown> }).responses ?? {}
      for (const [status, response] of Object.entries(responses))
        if (Number(status) >= 400 && isGeneratedErrorResponse(response)) {
          responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSE_NAME}` }
          shared = true
        }
    }
  if (shared) {
    const components = document.components as { responses?: Record<string, unknown> }
    components.responses = { ...components.responses, [ERROR_RESPONSE_NAME]: ERROR_RESPONSE }
  }
  return document
}
