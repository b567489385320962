/**
 * The OpenAPI 3.1 description generated from the route schemas (style guide 2), served at
 * /openapi.json, with a reference UI at /docs.
 */
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** Where the description and its UI are served. */
export const OPENAPI_PATH = '/openapi.json'
export const DOCS_PATH = '/docs'

export const openApi = fp(
  async (app: FastifyInstance, options: { version: string }) => {
    // The session cookie under each accepted name: any one of them authenticates a request.
    const { names } = app.platform.cookies
    const cookieSchemes = Object.fromEntries(
      names.map((name) => [name, { type: 'apiKey' as const, in: 'cookie', name }]),
    )
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Communication Platform REST Openness Service',
          version: options.version,
          description:
            'Sessions, users, event subscriptions and call control of a business telephone platform. ' +
            'Every error body is a RestErrorInfo.',
        },
        components: {
          securitySchemes: {
            ...cookieSchemes,
            basic: { type: 'http', scheme: 'basic' },
          },
        },
        security: names.map((name) => ({ [name]: [] })),
      },
      hideUntagged: true,
      exposeHeadRoutes: true,
    })
    await app.register(swaggerUi, { routePrefix: DOCS_PATH })
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger())
  },
  { name: 'openapi' },
)
