/**
 * The node's health for load balancers and orchestrators (docs/operations.md), outside the API: `GET
 * /health/live` (or `/healthz`) answers 200 while the process answers at all; `GET /health/ready` (or `/readyz`)
 * answers 200 when the node can
 * serve (its dependencies answer, it is not draining before a stop), 503 otherwise, with the state of each
 * check. Neither needs a session, neither is in the OpenAPI document (they are not the API), and the simulated
 * faults of the control plane do not touch them (operations/node-health.ts says why).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'

const HealthState = Type.Object({
  status: Type.Union([Type.Literal('UP'), Type.Literal('DOWN'), Type.Literal('DRAINING')]),
  checks: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.Literal('UP'), Type.Literal('DOWN')])),
  ),
})

export const HEALTH_LIVE_PATH = '/health/live'
export const HEALTH_READY_PATH = '/health/ready'
/** The same two under the names orchestrators often expect (issue 15, "Operations"). */
export const HEALTHZ_PATH = '/healthz'
export const READYZ_PATH = '/readyz'

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const schema = { hide: true, response: { 200: HealthState, 503: HealthState } }

  for (const path of [HEALTH_LIVE_PATH, HEALTHZ_PATH])
    app.get(path, { config: { session: 'none' }, schema }, async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { status: 'UP' as const }
    })

  for (const path of [HEALTH_READY_PATH, READYZ_PATH])
    app.get(path, { config: { session: 'none' }, schema }, async (_request, reply) => {
      const readiness = await app.platform.health.readiness()
      reply.header('cache-control', 'no-store')
      return reply.code(readiness.status === 'UP' ? 200 : 503).send(readiness)
    })
}
