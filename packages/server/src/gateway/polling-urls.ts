/**
 * The polling URLs of a subscription (design section 6: by default on the plain-HTTP listener, which a client
 * that cannot give its channel TLS options reaches with the development certificate; over HTTPS for an HTTPS
 * client once the certificate is one clients trust: docs/security.md, finding 5).
 */
import type { FastifyRequest } from 'fastify'
import { API_V1_PATH } from './base-urls.js'

/** The path of a subscription's chunk channel. */
export function channelPath(subscriptionId: string): string {
  return `${API_V1_PATH}/notifications/${subscriptionId}`
}

/** The public and private polling URLs of a subscription, as the answer to POST /subscriptions gives them. */
export function pollingUrls(
  request: FastifyRequest,
  subscriptionId: string,
): { public: string; private: string } {
  const { urls } = request.server.platform
  const origin =
    urls.pollingBaseUrl ??
    (urls.httpPort !== undefined && !(urls.httpsPolling && request.protocol === 'https')
      ? `http://${request.hostname}:${urls.httpPort}`
      : `${request.protocol}://${request.host}`)
  const url = `${origin}${channelPath(subscriptionId)}`
  return { public: url, private: url }
}
