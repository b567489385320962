/**
 * The OpenAPI 3.1 description generated from the route schemas (style guide 2), served at
 * /openapi.json, with a reference UI at /docs. Shaped for client generators (docs/openapi.md,
 * gateway/openapi-shaping.ts): the wire records as named component schemas, an operationId on every
 * operation, the security each operation really needs, no HEAD twins of GET routes.
 */
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { API_PATH } from '../base-urls.js'
import { generatorFriendly, SAME_ORIGIN_SERVERS, type Security } from '../openapi-shaping.js'
import { IDEMPOTENCY_KEY_HEADERS, takesKeys } from './idempotency.js'
import { sessionRequirementOf } from './session-resolver.js'

/** Where the description and its UI are served. */
export const OPENAPI_PATH = '/openapi.json'
export const DOCS_PATH = '/docs'

/** The security scheme of the authentication routes, which take HTTP Basic credentials. */
export const HTTP_BASIC_SCHEME = 'httpBasic'
/** What an operation that needs HTTP Basic credentials declares as its `security`. */
export const HTTP_BASIC_SECURITY = [{ [HTTP_BASIC_SCHEME]: [] }]

export const openApi = fp(
  async (app: FastifyInstance, options: { version: string }) => {
    // The session cookie under each accepted name: any one of them authenticates a request.
    const { names } = app.platform.cookies
    const cookieSchemes = Object.fromEntries(
      names.map((name) => [name, { type: 'apiKey' as const, in: 'cookie', name }]),
    )
    const sessionCookie: Security = names.map((name) => ({ [name]: [] }))
    // What a route needs, read as the session resolver reads it: a public route (root, locator, the chunk
    // channel, which its subscriptionId authorizes) none; the authentication routes declare HTTP Basic.
    const securityOf = (route: RouteOptions): Security =>
      sessionRequirementOf(route) === 'none' ? [] : sessionCookie
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Communication Platform REST Openness Service',
          version: options.version,
          description:
            'Sessions, users, event subscriptions and call control of a business telephone platform. ' +
            'Every error body is a RestErrorInfo. A client authenticates on /api/rest/authenticate with ' +
            'HTTP Basic credentials, which sets the session cookie the other operations need; the root, ' +
            'the locator and the chunk channel (a subscription’s polling URL, which its subscriptionId ' +
            'authorizes) need none.',
        },
        servers: SAME_ORIGIN_SERVERS,
        components: {
          securitySchemes: {
            ...cookieSchemes,
            [HTTP_BASIC_SCHEME]: { type: 'http', scheme: 'basic' },
          },
        },
      },
      hideUntagged: true,
      ...generatorFriendly(API_PATH, securityOf, (route) =>
        takesKeys(route) ? IDEMPOTENCY_KEY_HEADERS : undefined,
      ),
    })
    await app.register(swaggerUi, { routePrefix: DOCS_PATH })
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger())
  },
  { name: 'openapi' },
)
