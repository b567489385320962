/**
 * Where the control plane listens unless told otherwise: CONTROL_HOST and CONTROL_PORT's defaults for the
 * service, and CONTROL_URL's for the command-line tool that talks to it.
 */

/** Loopback: the control plane drives the whole platform, and is not for the network by default. */
export const DEFAULT_CONTROL_HOST = '127.0.0.1'
export const DEFAULT_CONTROL_PORT = 8090
export const DEFAULT_CONTROL_URL = `http://${DEFAULT_CONTROL_HOST}:${DEFAULT_CONTROL_PORT}`
