// A small client of the Openness REST API over Node's own modules: a session (logged in over HTTPS, the
// service's certificate as the only trusted authority, kept alive on a timer) and its event channel (the
// plain-HTTP polling URL of a subscription, read as the vendor's SDKs read it: one JSON event per line).
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'

/** How many times a request that changes something is sent before its failure is told, and the pause between. */
const RETRIES = 3
const RETRY_PAUSE_MS = 500

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A failure the example explains in words: its message is printed as is. */
export class ExampleError extends Error {}

/** An HTTPS agent that trusts the certificate in `caFile` (the service's development certificate) and no other. */
export function trustingAgent(caFile) {
  let ca
  try {
    ca = readFileSync(caFile)
  } catch (error) {
    throw new ExampleError(
      `No certificate at ${caFile} (${error.code ?? error.message}). The service writes its development ` +
        'certificate there at its first start (npm start); set DATA_DIR to the data directory it uses, or ' +
        'CA_FILE to the certificate its HTTPS listener presents.',
    )
  }
  return new https.Agent({ ca, keepAlive: true })
}

/** Explains a request that never got an answer. */
function unreachable(url, error, caFile) {
  const { origin } = new URL(url)
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET'].includes(error.code))
    return new ExampleError(
      `No service answers at ${origin} (${error.code}). Start it in another terminal with \`npm start\` ` +
        '(from the repository root), or point OPENNESS_URL (or HTTPS_PORT) at where it listens.',
    )
  if (/certificate|self[- ]signed|altname/i.test(`${error.code} ${error.message}`))
    return new ExampleError(
      `The certificate of ${origin} is not trusted by ${caFile} (${error.code ?? error.message}): set DATA_DIR to ` +
        "the service's data directory, or CA_FILE to the certificate its HTTPS listener presents.",
    )
  return new ExampleError(`${origin}: ${error.message}`)
}

/**
 * One request; resolves with `{status, headers, body}` (`body` parsed when JSON). `agent` carries the trusted
 * certificate for https URLs.
 */
export function send(url, { method = 'GET', headers = {}, body, agent, caFile } = {}) {
  const target = new URL(url)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method,
        ...(target.protocol === 'https:' && { agent }),
        headers: {
          accept: 'application/json',
          ...(payload !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => {
          text += chunk
        })
        response.on('error', reject)
        response.on('end', () => {
          let parsed = text
          if (/json/.test(response.headers['content-type'] ?? '') && text !== '')
            parsed = JSON.parse(text)
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed })
        })
      },
    )
    request.on('error', (error) => reject(unreachable(url, error, caFile)))
    request.end(payload)
  })
}

/** Fails unless the answer's status is one of `expected`, naming the request and the service's reason. */
function expectStatus(what, answer, ...expected) {
  if (expected.includes(answer.status)) return answer
  const reason =
    typeof answer.body === 'object' && answer.body !== null
      ? (answer.body.helpMessage ?? answer.body.message ?? JSON.stringify(answer.body))
      : answer.body
  throw new ExampleError(`${what}: the service answered ${answer.status} ${reason}`)
}

/** A user's session: authenticated, opened, kept alive until closed. */
export class Session {
  #cookie
  #keepalive
  #channels = []

  constructor(options, sessionsUrl, cookie, info) {
    this.login = options.login
    this.options = options
    this.sessionsUrl = sessionsUrl
    this.#cookie = cookie
    this.info = info
  }

  /**
   * Logs in as the vendor's SDKs do (root, authenticate with Basic credentials, open a session) and starts the
   * keepalive timer at half the session's timeToLive. `onKeepalive` hears each keepalive's outcome.
   */
  static async open(options) {
    const { origin, agent, caFile, login, password, onKeepalive } = options
    const root = expectStatus(
      'GET /api/rest',
      await send(`${origin}/api/rest`, { agent, caFile }),
      200,
    )
    const version = root.body.versions?.find((candidate) => candidate.id === '1.0')
    if (!version) throw new ExampleError(`${origin}/api/rest offers no API version 1.0`)
    const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`
    const authenticated = expectStatus(
      `authenticate ${login}`,
      await send(version.internalUrl, { agent, caFile, headers: { authorization } }),
      200,
    )
    const setCookie = authenticated.headers['set-cookie'] ?? []
    const cookie = setCookie.map((header) => header.split(';')[0]).join('; ')
    const sessionsUrl = authenticated.body.internalUrl
    const opened = expectStatus(
      `open a session for ${login}`,
      await send(sessionsUrl, {
        method: 'POST',
        agent,
        caFile,
        headers: { cookie },
        body: { applicationName: 'click-to-call example' },
      }),
      200,
    )
    const session = new Session(options, sessionsUrl, cookie, opened.body)
    const period = Math.max(1, opened.body.timeToLive / 2) * 1000
    session.keepaliveSeconds = period / 1000
    session.#keepalive = setInterval(() => {
      session.keepalive().then(
        () => onKeepalive?.(session, undefined),
        (error) => onKeepalive?.(session, error),
      )
    }, period)
    session.#keepalive.unref()
    return session
  }

  /** `POST <sessions URL>/keepalive`: the session lives another timeToLive. */
  async keepalive() {
    expectStatus(
      `keepalive of ${this.login}'s session`,
      await send(`${this.sessionsUrl}/keepalive`, {
        method: 'POST',
        agent: this.options.agent,
        caFile: this.options.caFile,
        headers: { cookie: this.#cookie },
      }),
      204,
    )
  }

  /**
   * A request to the API under the session's base URL (`privateBaseUrl`), failing unless `expected`. A request
   * that changes something carries an Idempotency-Key of its own, so that it can be sent again safely when no
   * answer came (the connection cut, a node of a cluster gone) or the service answered 409 (the first try still
   * running): it runs once, and the retry gets its answer (docs/idempotency.md).
   */
  async request(method, path, body, ...expected) {
    const key = method === 'GET' || method === 'HEAD' ? undefined : randomUUID()
    const what = `${this.login}: ${method} ${path}`
    for (let attempt = 1; ; attempt += 1) {
      let answer
      try {
        answer = await send(`${this.info.privateBaseUrl}${path}`, {
          method,
          body,
          agent: this.options.agent,
          caFile: this.options.caFile,
          headers: { cookie: this.#cookie, ...(key && { 'idempotency-key': key }) },
        })
      } catch (error) {
        if (key === undefined || attempt === RETRIES) throw error
        await pause(RETRY_PAUSE_MS)
        continue
      }
      if (answer.status === 409 && key !== undefined && attempt < RETRIES) {
        await pause(1000 * Number(answer.headers['retry-after'] ?? 1))
        continue
      }
      return expectStatus(what, answer, ...(expected.length ? expected : [200]))
    }
  }

  /** Subscribes to the packages named and opens the subscription's channel (resolves once it started). */
  async subscribe(packages, onEvent) {
    const answer = await this.request(
      'POST',
      '/subscriptions',
      { filter: { selectors: [{ names: packages }] }, version: '1.0', timeout: 0 },
      200,
    )
    if (answer.body.status !== 'ACCEPTED')
      throw new ExampleError(
        `${this.login}: subscription ${answer.body.status}: ${answer.body.message}`,
      )
    const channel = await EventChannel.open(answer.body.privatePollingUrl, this.options, onEvent)
    this.#channels.push(channel)
    return channel
  }

  /** Stops the keepalive, closes the channels and the session (`DELETE <sessions URL>`). */
  async close() {
    clearInterval(this.#keepalive)
    for (const channel of this.#channels.splice(0)) channel.close()
    expectStatus(
      `close ${this.login}'s session`,
      await send(this.sessionsUrl, {
        method: 'DELETE',
        agent: this.options.agent,
        caFile: this.options.caFile,
        headers: { cookie: this.#cookie },
      }),
      204,
    )
  }
}

/**
 * The chunk channel of a subscription: a POST on its polling URL whose answer never ends, one JSON event per
 * line. Events are kept in arrival order; `next` takes them one by one.
 */
export class EventChannel {
  #request
  #events = []
  #waiters = []
  #ended

  /** Opens the channel; resolves once its first line, `OnChannelInformation` "Chunk started", arrived. */
  static open(pollingUrl, options, onEvent) {
    const channel = new EventChannel()
    channel.pollingUrl = pollingUrl
    return new Promise((resolve, reject) => {
      const target = new URL(pollingUrl)
      const client = target.protocol === 'https:' ? https : http
      channel.#request = client.request(
        target,
        {
          method: 'POST',
          headers: { accept: '*/*' },
          ...(target.protocol === 'https:' && { agent: options.agent }),
        },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new ExampleError(`${pollingUrl}: the channel answered ${response.statusCode}`))
            response.resume()
            return
          }
          let partial = ''
          response.setEncoding('utf8')
          response.on('data', (chunk) => {
            const lines = (partial + chunk).split('\n')
            partial = lines.pop() ?? ''
            for (const line of lines) {
              if (line === '') continue
              const event = JSON.parse(line)
              if (event.eventName === 'OnChannelInformation' && event.text === 'Chunk started') {
                resolve(channel)
                continue
              }
              onEvent?.(event)
              channel.#push(event)
            }
          })
          const ended = (error) => {
            reject(error)
            channel.#end(error)
          }
          response.on('end', () => ended(new ExampleError(`${pollingUrl}: the channel ended`)))
          response.on('error', ended)
        },
      )
      channel.#request.on('error', (error) => {
        const failure = unreachable(pollingUrl, error, options.caFile)
        reject(failure)
        channel.#end(failure)
      })
      channel.#request.end()
    })
  }

  #push(event) {
    this.#events.push(event)
    for (const waiter of this.#waiters.splice(0)) waiter()
  }

  #end(error) {
    this.#ended ??= error
    for (const waiter of this.#waiters.splice(0)) waiter()
  }

  /**
   * The next event for which `matches` holds, the ones before it skipped; fails after `timeoutMs` naming `what`.
   */
  async next(what, matches, timeoutMs) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.#events.findIndex(matches)
      if (index >= 0) return this.#events.splice(0, index + 1)[index]
      this.#events.length = 0
      if (this.#ended) throw this.#ended
      const left = deadline - Date.now()
      if (left <= 0) throw new ExampleError(`no ${what} within ${timeoutMs / 1000} s`)
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left)
        this.#waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Ends the channel from this side. */
  close() {
    this.#ended ??= new ExampleError(`${this.pollingUrl}: the channel was closed`)
    this.#request?.destroy()
  }
}
