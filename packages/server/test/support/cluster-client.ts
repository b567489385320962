/**
 * An API client for the cluster mode's tests: it logs in once and sends each request to whichever node it is
 * told, with the session cookie, as a client behind a load balancer does.
 */
import type { ClusterNode } from './cluster-nodes.js'

const API = '/api/rest'

/** A response's status and its body, parsed when it is JSON. */
export interface Answer {
  status: number
  body: unknown
  headers: Headers
}

export class ClusterClient {
  private constructor(readonly cookie: string) {}

  /** Authenticates `login` (its demo password, demo-<login>) on `node` and opens a session there. */
  static async login(node: ClusterNode, login: string): Promise<ClusterClient> {
    const credentials = Buffer.from(`${login}:demo-${login}`).toString('base64')
    const response = await fetch(`${node.origin}${API}/authenticate?version=1.0`, {
      headers: { authorization: `Basic ${credentials}` },
    })
    if (response.status !== 200)
      throw new Error(`login of ${login} on ${node.name}: ${response.status}`)
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    const client = new ClusterClient(cookie)
    const opened = await client.send(node, 'POST', '/1.0/sessions', { applicationName: 'cluster' })
    if (opened.status !== 200)
      throw new Error(
        `session of ${login} on ${node.name}: ${opened.status} ${JSON.stringify(opened.body)}`,
      )
    return client
  }

  /**
   * Sends the request to the first of `nodes` that answers, as a client behind a load balancer is served:
   * a node that is gone (refused, reset) or answers 503 is skipped for the next, round and round, for at most
   * `withinMs`. With an `idempotencyKey`, every attempt carries it (docs/idempotency.md), and a 409 (the first
   * attempt still held by a node that may have died) is tried again too. Returns the answer and the node that
   * gave it.
   */
  async sendToAny(
    nodes: () => ClusterNode[],
    method: string,
    path: string,
    body?: unknown,
    withinMs = 20_000,
    idempotencyKey?: string,
  ): Promise<
    Answer & { node: string; retries: number; recoveredInMs: number; failures: string[] }
  > {
    const deadline = Date.now() + withinMs
    const failures: string[] = []
    let firstFailure: number | undefined
    for (let turn = 0; ; turn++) {
      const living = nodes()
      const node = living[turn % living.length]
      if (node === undefined) throw new Error('no node left')
      const headers: Record<string, string> =
        idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }
      const answer = await this.send(node, method, path, body, headers).catch(
        (error: Error) => error,
      )
      const busy =
        idempotencyKey !== undefined && !(answer instanceof Error) && answer.status === 409
      if ((!isRetryable(answer) && !busy) || Date.now() > deadline) {
        if (answer instanceof Error) throw answer
        const recoveredInMs = firstFailure === undefined ? 0 : Date.now() - firstFailure
        return { ...answer, node: node.name, retries: failures.length, recoveredInMs, failures }
      }
      firstFailure ??= Date.now()
      failures.push(
        answer instanceof Error
          ? `${node.name}: ${answer.message}`
          : `${node.name}: ${answer.status}`,
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** Sends one request to `node`, the path under /api/rest, with `headers` besides the session cookie. */
  async send(
    node: ClusterNode,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const response = await fetch(`${node.origin}${API}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    let parsed: unknown = text
    if (response.headers.get('content-type')?.includes('json') && text !== '')
      parsed = JSON.parse(text)
    return { status: response.status, body: parsed, headers: response.headers }
  }
}

/** Whether a failed request may be sent again to another node: its node is gone, or it answered 503. */
export function isRetryable(answer: Answer | Error): boolean {
  return answer instanceof Error || answer.status === 503
}
