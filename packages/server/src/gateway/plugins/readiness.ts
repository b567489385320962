/**
 * While the platform is not ready (a fault the control plane injected: docs/control-plane.md, "Faults"), every
 * request of the API answers 503 NOT_READY (specification, "Errors": code 1000, canRetry true) with
 * `Retry-After`, before its session is looked at. The root `GET /api/rest` still describes the server, and
 * the OpenAPI document and its UI are outside the API. With no fault, the check is one field read.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { API_PATH } from '../base-urls.js'
import { RestError } from '../rest-error.js'

const API_PREFIX = `${API_PATH}/`

const MESSAGES = {
  NOT_READY: 'The service is not ready',
  SWITCH_OVER:
    'The service is not ready: the platform is switching over (every session was closed)',
} as const

/** True for the requests a fault refuses: under /api/rest, except the root. */
function concernsApi(request: FastifyRequest): boolean {
  const { url } = request
  if (!url.startsWith(API_PREFIX)) return false
  const end = url.indexOf('?')
  const path = end === -1 ? url : url.slice(0, end)
  return path !== API_PREFIX
}

export const readinessCheck = fp(
  async (app: FastifyInstance) => {
    const { readiness } = app.platform
    app.addHook('onRequest', (request, _reply, done) => {
      const fault = readiness.fault
      if (fault === undefined || !concernsApi(request)) return done()
      const seconds = readiness.secondsLeft(fault)
      done(
        new RestError('NOT_READY', `${MESSAGES[fault.cause]}; retry in ${seconds} s`, undefined, {
          'retry-after': String(seconds),
        }),
      )
    })
  },
  { name: 'readiness', dependencies: ['error-handler'] },
)
