/**
 * What the control plane's scenario routes need of the running service besides what it already has (its call
 * engine and its clock): the public API in the process, credentials for users, the event router, and how to
 * wait until the platform is quiet. The assembly builds them from the started platform
 * (assembly/scenario-services.ts).
 */
import type { FastifyInstance } from 'fastify'
import type { Inject, ScenarioDependencies } from './scenario-dependencies.js'

/** The parts of the runner's dependencies that the control plane does not hold itself. */
export type ScenarioServices = Omit<ScenarioDependencies, 'control' | 'telephony' | 'clock'>

/** Requests to a Fastify application in the process, with `headers` on each. */
export function injector(
  app: Pick<FastifyInstance, 'inject'>,
  headers: Record<string, string> = {},
): Inject {
  return async ({ method, url, headers: own, body }) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...headers,
        ...own,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    })
    let parsed: unknown
    try {
      parsed = response.body === '' ? undefined : JSON.parse(response.body)
    } catch {
      parsed = undefined
    }
    return { status: response.statusCode, headers: response.headers, body: parsed }
  }
}
