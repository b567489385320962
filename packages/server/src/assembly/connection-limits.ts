/**
 * What each listener allows a connection (issue 15, finding 8; docs/security.md): the slow-header, slow-body and
 * idle connections an attacker opens are closed, and a listener holds a bounded number at once. A chunk channel
 * is a response: once its request was received, none of these times applies to it.
 */
export interface ConnectionLimits {
  /** A request's headers must have arrived this long after it began (a connection that sends nothing too): 408. */
  headersTimeoutMs: number
  /** A whole request, body included, must have arrived this long after it began: 408. */
  requestTimeoutMs: number
  /** A kept-alive connection idle between two requests is closed after this. */
  keepAliveTimeoutMs: number
  /** Connections one listener holds at once; a connection beyond is closed as soon as it is accepted. */
  maxConnections: number
  /** How often the times above are checked (Node checks every connection at that interval). */
  checkIntervalMs: number
}

/**
 * The defaults: far above what a client of the service needs, low enough to shed a slow-client attack. The cap
 * leaves room for the `fanout` benchmark's 10,000 channels on one listener and bounds a listener's sockets to
 * about 200 MB (docs/security.md).
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 20_000,
  checkIntervalMs: 1_000,
}
