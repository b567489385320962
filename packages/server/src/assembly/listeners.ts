/**
 * The HTTP and HTTPS listeners: two Node servers that hand every request to the same Fastify router, so
 * one application serves both (design section 6); and the one plain-HTTP listener of the control plane.
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { answerClientError } from '../gateway/early-errors.js'
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './connection-limits.js'

/** Where to listen; a port of `undefined` turns that listener off, 0 picks a free port. */
export interface ListenOptions {
  host: string
  httpPort?: number
  httpsPort?: number
  /** Each listener's limits; DEFAULT_CONNECTION_LIMITS when absent. */
  limits?: ConnectionLimits
  /**
   * The HTTPS listener's certificate and key; `strictTransport` adds HSTS to its answers (a certificate the
   * operator configured: never the generated development one, which browsers would then pin for the host).
   */
  tls?: { cert: string; key: string; strictTransport?: boolean }
}

/**
 * The HTTPS listener's protocols and suites: Mozilla's "intermediate" profile (TLS 1.2 with AEAD suites and
 * forward secrecy only, and TLS 1.3, whose suites are all AEAD), which every client SDK of the census speaks.
 */
export const TLS_PROFILE = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
    'DHE-RSA-AES128-GCM-SHA256',
    'DHE-RSA-AES256-GCM-SHA384',
    'DHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: false,
} as const

/** HSTS as Mozilla's intermediate profile sends it: two years. */
const STRICT_TRANSPORT = 'max-age=63072000'

/** The bound listeners. */
export interface Listeners {
  httpPort?: number
  httpsPort?: number
  close(): Promise<void>
}

/** The Node server options of `limits` (the connection cap is a property of the server, set by `limited`). */
function serverOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  }
}

/**
 * The API listeners' options: Node's own answer to an HTTP/1.1 request without `Host` (a 400 with an empty chunked
 * body, written before the request reaches Fastify) is turned off; gateway/plugins/request-hygiene.ts answers it.
 */
function apiServerOptions(limits: ConnectionLimits) {
  return { ...serverOptions(limits), requireHostHeader: false }
}

/** `server` with its connection cap and the service's answer to what its parser refuses. */
function limited<T extends Server>(server: T, limits: ConnectionLimits): T {
  server.maxConnections = limits.maxConnections
  server.on('clientError', answerClientError)
  return server
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/** One bound plain-HTTP listener. */
export interface HttpListener {
  port: number
  close(): Promise<void>
}

/** Binds one plain-HTTP listener for an application (the control plane's); port 0 picks a free one. */
export async function startHttpListener(
  app: FastifyInstance,
  host: string,
  port: number,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): Promise<HttpListener> {
  await app.ready()
  const server = limited(
    createHttpServer(serverOptions(limits), (request, response) => app.routing(request, response)),
    limits,
  )
  const bound = await listen(server, port, host)
  return { port: bound, close: () => close(server) }
}

/** Binds the listeners for a ready application. */
export async function startListeners(
  app: FastifyInstance,
  options: ListenOptions,
): Promise<Listeners> {
  await app.ready()
  const handler = (
    request: Parameters<FastifyInstance['routing']>[0],
    response: Parameters<FastifyInstance['routing']>[1],
  ) => app.routing(request, response)
  const limits = options.limits ?? DEFAULT_CONNECTION_LIMITS
  const servers: Server[] = []
  const result: Listeners = {
    close: async () => {
      await Promise.all(servers.map(close))
    },
  }
  try {
    if (options.httpPort !== undefined) {
      const server = limited(createHttpServer(apiServerOptions(limits), handler), limits)
      servers.push(server)
      result.httpPort = await listen(server, options.httpPort, options.host)
    }
    if (options.httpsPort !== undefined) {
      if (options.tls === undefined)
        throw new Error('The HTTPS listener needs a certificate and key')
      const strict = options.tls.strictTransport === true
      const server = limited(
        createHttpsServer(
          {
            cert: options.tls.cert,
            key: options.tls.key,
            ...TLS_PROFILE,
            ...apiServerOptions(limits),
          },
          strict
            ? (request, response) => {
                response.setHeader('strict-transport-security', STRICT_TRANSPORT)
                handler(request, response)
              }
            : handler,
        ),
        limits,
      )
      servers.push(server)
      result.httpsPort = await listen(server, options.httpsPort, options.host)
    }
  } catch (error) {
    await result.close()
    throw error
  }
  return result
}
