// The ceiling of the authenticated read (bench/benchmarks/auth-read.mjs): a bare Fastify route on
// 127.0.0.1 that finds the session cookie's login in a Map and answers the same User JSON the service
// answered, with no session logic (no timer, no authorization, no schema serializer). A child with IPC:
// sends { type: 'ready', port } once listening; the User comes in BARE_USER (JSON text), the cookie's
// value in BARE_TOKEN.
import Fastify from 'fastify'
import { onCommands } from '../lib/ipc.mjs'

const user = JSON.parse(process.env.BARE_USER ?? '{}')
const sessions = new Map([[process.env.BARE_TOKEN, user.loginName]])
const users = new Map([[user.loginName, user]])

function sessionCookie(header) {
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const separator = part.indexOf('=')
    if (separator !== -1 && part.slice(0, separator).trim() === 'SvcUserId')
      return part.slice(separator + 1).trim()
  }
  return undefined
}

const app = Fastify({ logger: false })
app.get('/api/rest/1.0/users/:loginName', async (request, reply) => {
  const loginName = sessions.get(sessionCookie(request.headers.cookie))
  if (loginName === undefined || loginName !== request.params.loginName)
    return reply.code(403).send({ type: 'NOT_ALLOWED' })
  return users.get(loginName)
})
await app.listen({ host: '127.0.0.1', port: 0 })

onCommands({ exit: () => app.close() })
process.send({ type: 'ready', port: app.server.address().port })
