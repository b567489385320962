/** The webhook sender's state machine, driven by a scripted transport and a virtual clock. */
import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import { MemoryEventQueue } from '../storage/memory/memory-event-queue.js'
import { DeliveryCounts } from './delivery-counts.js'
import {
  type WebhookFailure,
  type WebhookPost,
  WebhookSender,
  type WebhookSenderOptions,
  type WebhookSenderState,
  webhookRetryDelay,
} from './webhook-sender.js'
import { signWebhook, verifyWebhookSignature, WEBHOOK_HEADERS } from './webhook-signature.js'

const SECRET = 'a-secret-of-the-operator'
const URL = 'http://127.0.0.1:9/hook'

/** A transport whose answers the test gives, one POST at a time. */
class ScriptedTransport {
  readonly posts: WebhookPost[] = []
  private answers: ((outcome: number | Error) => void)[] = []

  readonly send = (post: WebhookPost): Promise<number> => {
    this.posts.push(post)
    return new Promise<number>((resolve, reject) => {
      const answer = (outcome: number | Error) =>
        outcome instanceof Error ? reject(outcome) : resolve(outcome)
      this.answers.push(answer)
      post.signal.addEventListener('abort', () => {
        this.answers = this.answers.filter((waiting) => waiting !== answer)
        answer(new Error('aborted'))
      })
    })
  }

  /** Answers the oldest POST waiting, then lets the sender react. */
  async answer(outcome: number | Error): Promise<void> {
    const next = this.answers.shift()
    if (next === undefined) throw new Error('no POST waits for an answer')
    next(outcome)
    await new Promise((resolve) => setImmediate(resolve))
  }

  get waiting(): number {
    return this.answers.length
  }

  bodies(): string[] {
    return this.posts.map((post) => Buffer.from(post.body).toString())
  }
}

function setup(capacity = 10, extra: Partial<WebhookSenderOptions> = {}) {
  const clock = new VirtualClock()
  const queue = new MemoryEventQueue({ capacity })
  const transport = new ScriptedTransport()
  const states: WebhookSenderState[] = []
  const failures: WebhookFailure[] = []
  let activity = 0
  const sender = new WebhookSender({
    subscriptionId: 'sub1',
    url: URL,
    queue,
    clock,
    transport: transport.send,
    policy: {
      secret: SECRET,
      requestTimeoutMs: 5000,
      maxAttempts: 3,
      firstRetryDelayMs: 1000,
      maxRetryDelayMs: 30_000,
    },
    onActivity: () => {
      activity += 1
    },
    onFailure: (failure) => failures.push(failure),
    onTransition: (to) => states.push(to),
    ...extra,
  })
  const publish = (...names: string[]) => {
    for (const name of names) {
      queue.push(JSON.stringify({ eventName: name }))
      sender.wake()
    }
  }
  return { clock, queue, transport, states, failures, sender, publish, activity: () => activity }
}

const event = (name: string) => JSON.stringify({ eventName: name })
const econnrefused = () =>
  Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })

describe('WebhookSender', () => {
  it('POSTs one event per request, one at a time, in order, and goes idle', async () => {
    const { transport, states, sender, publish, activity } = setup()
    expect(sender.state).toBe('IDLE')
    expect(sender.isQuiet).toBe(true)
    publish('E1', 'E2')
    expect(transport.waiting).toBe(1)
    expect(sender.isQuiet).toBe(false)
    await transport.answer(200)
    expect(transport.waiting).toBe(1)
    await transport.answer(204)
    expect(transport.bodies()).toEqual([event('E1'), event('E2')])
    expect(states).toEqual(['POSTING', 'POSTING', 'IDLE'])
    expect(sender.isQuiet).toBe(true)
    // Events starting to wait after a quiet time, and each success, are activity.
    expect(activity()).toBe(3)
  })

  it('sends JSON with a signature over the timestamp and the exact body', async () => {
    const { transport, clock, publish } = setup()
    publish('E1')
    const [post] = transport.posts
    if (post === undefined) throw new Error('no POST')
    expect(post.url).toBe(URL)
    expect(post.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(post.headers[WEBHOOK_HEADERS.subscription]).toBe('sub1')
    expect(post.headers[WEBHOOK_HEADERS.sequence]).toBe('1')
    const timestamp = post.headers[WEBHOOK_HEADERS.timestamp] ?? ''
    expect(Number(timestamp)).toBe(Math.floor(clock.now() / 1000))
    const signature = post.headers[WEBHOOK_HEADERS.signature] ?? ''
    expect(signature).toBe(signWebhook(SECRET, Number(timestamp), post.body))
    const now = Math.floor(clock.now() / 1000)
    expect(verifyWebhookSignature(SECRET, { signature, timestamp, body: post.body }, now)).toBe(
      true,
    )
    expect(
      verifyWebhookSignature(SECRET, { signature, timestamp, body: post.body }, now + 301),
    ).toBe(false)
    expect(
      verifyWebhookSignature('another-secret', { signature, timestamp, body: post.body }, now),
    ).toBe(false)
  })

  it('retries a failed POST after a growing delay, with the same sequence, then goes on in order', async () => {
    const { transport, clock, states, publish } = setup()
    publish('E1', 'E2')
    await transport.answer(500)
    expect(states).toEqual(['POSTING', 'BACKING_OFF'])
    await clock.advance(999)
    expect(transport.posts).toHaveLength(1)
    await clock.advance(1)
    expect(transport.posts).toHaveLength(2)
    await transport.answer(new Error('ECONNREFUSED'))
    await clock.advance(2000)
    expect(transport.posts).toHaveLength(3)
    await transport.answer(200)
    await transport.answer(200)
    expect(transport.bodies()).toEqual([event('E1'), event('E1'), event('E1'), event('E2')])
    expect(transport.posts.map((post) => post.headers[WEBHOOK_HEADERS.sequence])).toEqual([
      '1',
      '1',
      '1',
      '2',
    ])
    expect(states).toEqual([
      'POSTING',
      'BACKING_OFF',
      'POSTING',
      'BACKING_OFF',
      'POSTING',
      'POSTING',
      'IDLE',
    ])
  })

  it('reports each failed attempt, and whether it will be retried', async () => {
    const { transport, clock, publish, failures } = setup()
    publish('E1')
    await transport.answer(503)
    await clock.advance(1000)
    await transport.answer(Object.assign(new TypeError('fetch failed'), { cause: econnrefused() }))
    await clock.advance(2000)
    await clock.advance(5000)
    expect(failures).toEqual([
      { subscriptionId: 'sub1', url: URL, reason: 'HTTP 503', attempt: 1, willRetry: true },
      { subscriptionId: 'sub1', url: URL, reason: 'ECONNREFUSED', attempt: 2, willRetry: true },
      { subscriptionId: 'sub1', url: URL, reason: 'timeout', attempt: 3, willRetry: false },
    ])
  })

  it('treats redirects and refusals like failures (nothing is followed)', async () => {
    const { transport, clock, publish } = setup()
    publish('E1')
    await transport.answer(302)
    await clock.advance(1000)
    await transport.answer(404)
    await clock.advance(2000)
    await transport.answer(200)
    expect(transport.posts).toHaveLength(3)
  })

  it('aborts a POST that takes longer than the request timeout, and retries it', async () => {
    const { transport, clock, publish } = setup()
    publish('E1')
    await clock.advance(5000)
    expect(transport.waiting).toBe(0)
    await clock.advance(1000)
    expect(transport.posts).toHaveLength(2)
  })

  it('gives an event up after the last attempt and says so before the next one', async () => {
    const counts = new DeliveryCounts()
    const { transport, clock, publish, sender } = setup(10, { counts })
    publish('E1', 'E2')
    await transport.answer(503)
    await clock.advance(1000)
    await transport.answer(503)
    await clock.advance(2000)
    await transport.answer(503)
    await transport.answer(200)
    await transport.answer(200)
    expect(transport.bodies()).toEqual([
      event('E1'),
      event('E1'),
      event('E1'),
      JSON.stringify({
        eventName: 'OnChannelInformation',
        text: '1 event lost: the queue was full or the webhook did not take them; resynchronize',
      }),
      event('E2'),
    ])
    expect(sender.state).toBe('IDLE')
    // The notice is no event: E2 alone was delivered, E1 lost (docs/operations.md, "Metrics").
    expect(counts).toEqual({ ...new DeliveryCounts(), webhookDelivered: 1, webhookLost: 1 })
  })

  it('starts with the loss notice when the queue overflowed while the receiver was down', async () => {
    const counts = new DeliveryCounts()
    const { transport, clock, publish } = setup(2, { counts })
    publish('E1', 'E2', 'E3', 'E4', 'E5')
    // E1 is in flight; E2 and E3 were dropped from the queue of 2 (E4, E5 wait).
    await transport.answer(500)
    await clock.advance(1000)
    await transport.answer(200)
    await transport.answer(200)
    await transport.answer(200)
    await transport.answer(200)
    expect(transport.bodies()).toEqual([
      event('E1'),
      event('E1'),
      JSON.stringify({
        eventName: 'OnChannelInformation',
        text: '2 events lost: the queue was full; resynchronize',
      }),
      event('E4'),
      event('E5'),
    ])
    expect(counts).toEqual({ ...new DeliveryCounts(), webhookDelivered: 3, webhookLost: 2 })
  })

  it('tells each delivery over, taken or given up, and numbers deliveries by numberOf when given', async () => {
    const delivered: number[] = []
    const kinds: string[] = []
    const { transport, clock, publish } = setup(10, {
      onDelivered: (events) => delivered.push(events),
      numberOf: (kind) => {
        kinds.push(kind)
        return 100 + kinds.length
      },
    })
    publish('E1', 'E2')
    await transport.answer(503)
    await clock.advance(1000)
    await transport.answer(503)
    expect(delivered).toEqual([])
    await clock.advance(2000)
    await transport.answer(503)
    await transport.answer(200)
    await transport.answer(200)
    // E1 given up (1), the notice taken (0), E2 taken (1); each attempt of E1 carried its one number.
    expect(delivered).toEqual([1, 0, 1])
    expect(kinds).toEqual(['event', 'notice', 'event'])
    expect(transport.posts.map((post) => post.headers[WEBHOOK_HEADERS.sequence])).toEqual([
      '101',
      '101',
      '101',
      '102',
      '103',
    ])
  })

  it('stops: the POST in flight is aborted, no retry fires, nothing more is sent', async () => {
    const { transport, clock, states, sender, publish } = setup()
    publish('E1')
    await transport.answer(500)
    sender.stop()
    await clock.advance(60_000)
    publish('E2')
    expect(transport.posts).toHaveLength(1)
    expect(states).toEqual(['POSTING', 'BACKING_OFF', 'STOPPED'])
    const second = setup()
    second.publish('E1')
    second.sender.stop()
    expect(second.transport.posts[0]?.signal.aborted).toBe(true)
    expect(second.sender.state).toBe('STOPPED')
  })

  it('waits 1, 2, 4 … seconds between attempts, at most the ceiling', () => {
    const policy = { firstRetryDelayMs: 1000, maxRetryDelayMs: 30_000 }
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => webhookRetryDelay(policy, attempt))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ])
  })
})
