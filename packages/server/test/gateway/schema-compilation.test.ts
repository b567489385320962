/**
 * Route schemas compile on first use (gateway/lazy-schema-compilers.ts): the same answers as Fastify's own
 * compilers, errors included; every route's schemas of both apps still compile, which this file checks
 * eagerly since a lazy app would only find a broken schema on the route's first request.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type SchemaCompilation,
  schemaCompilationOptions,
} from '../../src/gateway/lazy-schema-compilers.js'
import { startControlFixture } from '../control/control-fixture.js'
import { startTestService } from '../support/test-service.js'

const opened: { close(): Promise<unknown> }[] = []
afterEach(async () => {
  for (const closable of opened.splice(0)) await closable.close()
})

/** A small app with a validated body, a coerced query and a response schema that drops a field. */
function sampleApp(compilation: SchemaCompilation): FastifyInstance {
  const app = Fastify({
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
    ...schemaCompilationOptions(compilation),
  })
  opened.push(app)
  app.post(
    '/items',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1 } },
        },
        querystring: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'integer' } } },
        },
        response: {
          201: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              tags: { type: 'array', items: { type: 'integer' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body as { name: string }
      const query = request.query as { tags?: number[] }
      return reply.code(201).send({ name: body.name, tags: query.tags ?? [], secret: 'not shown' })
    },
  )
  return app
}

const requests = [
  { name: 'valid, query coerced to integers', url: '/items?tags=1&tags=2', body: { name: 'a' } },
  { name: 'one query value coerced to an array', url: '/items?tags=7', body: { name: 'b' } },
  { name: 'missing required field', url: '/items', body: {} },
  { name: 'field too short', url: '/items', body: { name: '' } },
  { name: 'query of the wrong type', url: '/items?tags=x', body: { name: 'c' } },
]

describe('lazy route schemas', () => {
  it.each(requests)('answer like Fastify compiling at ready: $name', async ({ url, body }) => {
    const answers = []
    for (const compilation of ['lazy', 'eager'] as const) {
      const response = await sampleApp(compilation).inject({ method: 'POST', url, payload: body })
      answers.push({ status: response.statusCode, body: response.body })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]?.body).not.toContain('not shown')
  })

  it('leave a broken schema to its first request, which the eager check below refuses at start', async () => {
    const broken = (compilation: SchemaCompilation) => {
      const app = Fastify(schemaCompilationOptions(compilation))
      opened.push(app)
      app.post('/x', { schema: { body: { type: 'no-such-type' } } }, async () => 'ok')
      return app
    }
    await expect(broken('eager').ready()).rejects.toThrow(/no-such-type|type/)
    const lazy = broken('lazy')
    await lazy.ready()
    expect((await lazy.inject({ method: 'POST', url: '/x', payload: {} })).statusCode).toBe(500)
  })

  it('refuse a headers schema naming a header in upper case, when the route is added', async () => {
    const app = Fastify(schemaCompilationOptions('lazy'))
    opened.push(app)
    app.get(
      '/h',
      { schema: { headers: { type: 'object', required: ['X-Token'] } } },
      async () => 'ok',
    )
    await expect(app.ready()).rejects.toThrow("GET /h: name the header 'X-Token' in lower case")
  })
})

describe('every route schema of the service', () => {
  it('compiles: the API', async () => {
    const service = await startTestService({}, { schemaCompilation: 'eager' })
    opened.push(service)
    await expect(service.app.ready()).resolves.toBeDefined()
  })

  it('compiles: the control plane', async () => {
    const fixture = await startControlFixture({ schemaCompilation: 'eager' })
    opened.push(fixture)
    await expect(fixture.app.ready()).resolves.toBeDefined()
  })
})
