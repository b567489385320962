// The container's health check (Dockerfile, HEALTHCHECK): exit 0 when the service answers GET /health/ready
// with 200 within 3 s, 1 otherwise (docs/operations.md, "Liveness and readiness"). Node only: slim images have no
// curl. It asks the plain-HTTP listener on loopback; with HTTP_PORT=0, the HTTPS one, trusting the service's
// certificate (TLS_CERT_FILE, or the development one in DATA_DIR/tls/).
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { join } from 'node:path'

const env = process.env
const plain = (env.HTTP_PORT || '8080') !== '0'
const options = plain
  ? { port: Number(env.HTTP_PORT || 8080) }
  : {
      port: Number(env.HTTPS_PORT || 8443),
      servername: 'localhost',
      ca: readFileSync(env.TLS_CERT_FILE || join(env.DATA_DIR || './data', 'tls', 'dev-cert.pem')),
    }
const request = (plain ? http : https).get(
  { host: '127.0.0.1', path: '/health/ready', timeout: 3000, ...options },
  (response) => {
    response.resume()
    process.exit(response.statusCode === 200 ? 0 : 1)
  },
)
request.on('timeout', () => request.destroy(new Error('no answer within 3 s')))
request.on('error', (error) => {
  process.stderr.write(`health check: ${error.message}\n`)
  process.exit(1)
})
