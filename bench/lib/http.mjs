// One HTTP/1.1 exchange on 127.0.0.1 with node:http: for the runner (bench/lib/service.mjs) and the Node
// loaders (bench/load/), each with the keep-alive agent it chooses.
import { request } from 'node:http'

/**
 * Sends `method path` to the port, with `body` as JSON when given and `cookie` when given; resolves with
 * the status, the headers, the body (parsed when the answer is JSON, undefined when empty) and its text.
 * With `timeoutMs`, an answer that takes longer fails.
 */
export function exchange({ port, method, path, agent, cookie, body, headers = {}, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        ...(timeoutMs !== undefined && { timeout: timeoutMs }),
        headers: {
          ...headers,
          ...(cookie && { cookie }),
          ...(payload !== undefined && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => {
          let parsed
          if (text !== '')
            parsed = String(res.headers['content-type']).includes('json') ? JSON.parse(text) : text
          resolve({ status: res.statusCode, headers: res.headers, body: parsed, text })
        })
      },
    )
    if (timeoutMs !== undefined)
      req.on('timeout', () =>
        req.destroy(new Error(`${method} ${path}: no answer in ${timeoutMs} ms`)),
      )
    req.on('error', reject)
    req.end(payload)
  })
}
