/**
 * Services the specification names but this server does not provide yet answer as the specification
 * says of a service that is not installed: 503 SERVER_PROBLEM (specification, "Errors", rule 2), never a
 * bare 404, so that a client can tell "not here" from "not on this server". A service leaves this list
 * in the change that implements it.
 */
import type { FastifyPluginAsync } from 'fastify'
import { RestError } from '../rest-error.js'

/** Resource prefixes (under /api/rest/1.0) of the services not installed, with their names. */
export const NOT_INSTALLED_SERVICES: Readonly<Record<string, string>> = {
  presence: 'Presence',
  instantMessaging: 'Instant messaging',
  conference: 'Conference',
}

export const notInstalledRoutes: FastifyPluginAsync = async (app) => {
  for (const [prefix, name] of Object.entries(NOT_INSTALLED_SERVICES)) {
    const handler = async () => {
      throw new RestError('SERVER_PROBLEM', `The ${name} service is not installed on this server`)
    }
    app.all(`/${prefix}`, { config: { session: 'none' }, schema: { hide: true } }, handler)
    app.all(`/${prefix}/*`, { config: { session: 'none' }, schema: { hide: true } }, handler)
  }
}
