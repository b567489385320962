/**
 * Delivery on the shared event log across nodes (docs/cluster-events.md, "Delivery on the event log"), one suite
 * run on the memory log (one log shared by the nodes) and on Redis (each node its own client): events produced on
 * one node reach a channel open on another; what waits is delivered in order where the channel opens; a channel
 * moved to another node gets every event once, in order; the loss notice; dialect variants; one append per event
 * for all its subscriptions; webhooks sent by the node that holds them, handed over without a repeat; detach.
 */
import { afterEach, expect, it } from 'vitest'
import type {
  EventAppend,
  SubscriptionEventLog,
} from '../../src/platform/subscriptions/subscription-event-log.js'
import type { SubscriptionRecord } from '../../src/platform/subscriptions/subscription-record.js'
import {
  aliceEvent,
  type DeliveryNode,
  nextEvents,
  startDeliveryNode,
  subscriptionRecord,
} from '../support/delivery-nodes.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { WebhookReceiver } from '../support/webhook-receiver.js'

/** A log per node, all over the same events. */
export interface SharedLogs {
  /** Another node's log (memory: the same one). */
  log(): Promise<SubscriptionEventLog>
}

/** Opens the logs of a cluster holding at most `capacity` events a subscription. */
/** Logs shared by the nodes, holding `capacity` events a subscription, `replayable` of them acknowledged. */
export type OpenSharedLogs = (capacity?: number, replayable?: number) => Promise<SharedLogs>

/** A log that counts the appends it is asked for: each batch, and each event of a batch. */
export class CountingLog {
  appendCalls: { subscriptionIds: readonly string[]; event: string }[] = []
  batches = 0

  static wrap(log: SubscriptionEventLog, counting: CountingLog): SubscriptionEventLog {
    return new Proxy(log, {
      get(target, property, receiver) {
        if (property === 'appendBatch')
          return (appends: readonly EventAppend[], ttlMs: number) => {
            counting.batches += 1
            for (const { subscriptionIds, event } of appends)
              counting.appendCalls.push({ subscriptionIds: [...subscriptionIds], event })
            return target.appendBatch(appends, ttlMs)
          }
        const value = Reflect.get(target, property, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  }
}

const ALICE_CALLS = [{ eventNames: ['OnCallCreated', 'OnTelephonyState'], loginNames: ['alice'] }]

export function loggedDeliveryScenarios(openLogs: OpenSharedLogs): void {
  const started: DeliveryNode[] = []
  const receivers: WebhookReceiver[] = []

  afterEach(async () => {
    const nodes = started.splice(0)
    for (const node of nodes) await node.close()
    expect(nodes.flatMap((node) => node.errors)).toEqual([])
    for (const receiver of receivers.splice(0)) await receiver.close()
  })

  /** Three nodes, A, B and C, that know `subscriptions`. */
  async function cluster(
    subscriptions: SubscriptionRecord[],
    capacity?: number,
    replayable?: number,
  ) {
    const logs = await openLogs(capacity, replayable)
    const records = new Map(subscriptions.map((s) => [s.subscriptionId, s]))
    const clock = new VirtualClock()
    const nodes: DeliveryNode[] = []
    const counting: CountingLog[] = []
    for (const name of ['A', 'B', 'C']) {
      const count = new CountingLog()
      const node = await startDeliveryNode({
        name,
        log: CountingLog.wrap(await logs.log(), count),
        clock,
        records,
      })
      for (const subscription of subscriptions) node.outlets.attach(subscription)
      nodes.push(node)
      counting.push(count)
      started.push(node)
    }
    const [a, b, c] = nodes as [DeliveryNode, DeliveryNode, DeliveryNode]
    return { a, b, c, counting, log: await logs.log() }
  }

  const numbers = (events: Record<string, unknown>[]) => events.map((event) => event['n'])
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, index) => from + index)

  it('delivers an event produced on node A to the channel open on node B', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b, c } = await cluster([subscription])
    const client = await b.open(subscription.subscriptionId)
    expect(client.status).toBe(200)
    expect(await client.next()).toEqual({
      eventName: 'OnChannelInformation',
      text: 'Chunk started',
    })
    a.router.publish(aliceEvent(1))
    expect(await nextEvents(client, 1)).toEqual([aliceEvent(1)])
    expect(b.outlets.openChannels).toBe(1)
    expect(a.outlets.openChannels + c.outlets.openChannels).toBe(0)
    expect(b.activity).toContain(subscription.subscriptionId)
    client.close()
  })

  it('delivers in order, where the channel opens (node C), the events produced while none was open', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b, c } = await cluster([subscription])
    for (const n of range(1, 20)) a.router.publish(aliceEvent(n))
    await a.outlets.settled()
    for (const n of range(21, 25)) b.router.publish(aliceEvent(n))
    await b.outlets.settled()
    const client = await c.open(subscription.subscriptionId)
    expect(numbers(await nextEvents(client, 25))).toEqual(range(1, 25))
    client.close()
  })

  it('moves a channel from node B to node C while events flow: every event once, in order', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b, c } = await cluster([subscription])
    const total = 500
    const onB = await b.open(subscription.subscriptionId)
    const publishing = (async () => {
      for (const n of range(1, total)) {
        a.router.publish(aliceEvent(n))
        if (n % 10 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const fromB = await nextEvents(onB, 100)
    // Node B drains: its channel ends once what it wrote is acknowledged; the client reopens on node C.
    b.outlets.endChannels()
    await onB.ended
    const restOfB: Record<string, unknown>[] = []
    for (;;) {
      const line = await onB.next(50).catch(() => undefined)
      if (line === undefined) break
      restOfB.push(line)
    }
    expect(b.outlets.openChannels).toBe(0)
    // B's last line says it stops, after every event it wrote.
    expect(restOfB.pop()).toEqual({
      eventName: 'OnChannelInformation',
      text: 'Server stopping: open the channel again',
    })
    const onC = await c.open(subscription.subscriptionId)
    await publishing
    const delivered = [...fromB, ...restOfB]
    const fromC = await nextEvents(onC, total - delivered.length)
    expect(numbers([...delivered, ...fromC])).toEqual(range(1, total))
    onC.close()
  })

  it('tells the channel how many events the full log dropped, exactly, before the events kept', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b } = await cluster([subscription], 5)
    for (const n of range(1, 12)) a.router.publish(aliceEvent(n))
    await a.outlets.settled()
    const client = await b.open(subscription.subscriptionId)
    expect(await nextEvents(client, 6)).toEqual([
      {
        eventName: 'OnChannelInformation',
        text: '7 events lost: the queue was full; resynchronize',
        firstSequence: 1,
        lastSequence: 7,
      },
      ...range(8, 12).map((n) => aliceEvent(n)),
    ])
    client.close()
  })

  it('logs each dialect’s variant, serialized once, and one append per text for all its subscriptions', async () => {
    const plain = [subscriptionRecord(ALICE_CALLS), subscriptionRecord(ALICE_CALLS)]
    const java = [
      subscriptionRecord(ALICE_CALLS, { dialect: 'java' }),
      subscriptionRecord(ALICE_CALLS, { dialect: 'java' }),
    ]
    const { a, b, counting } = await cluster([...plain, ...java])
    const states = [{ deviceId: '1001', state: 'IN_SERVICE' }]
    const snapshot = {
      eventName: 'OnTelephonyState',
      loginName: 'alice',
      state: { deviceStates: { deviceStates: states } },
    }
    a.router.publish(snapshot)
    await a.outlets.settled()
    const calls = counting[0]?.appendCalls ?? []
    expect(calls.map((call) => [...call.subscriptionIds].sort())).toEqual([
      plain.map((s) => s.subscriptionId).sort(),
      java.map((s) => s.subscriptionId).sort(),
    ])
    const [plainSub, javaSub] = [plain[0], java[1]] as [SubscriptionRecord, SubscriptionRecord]
    const plainClient = await b.open(plainSub.subscriptionId)
    const javaClient = await b.open(javaSub.subscriptionId)
    expect(await nextEvents(plainClient, 1)).toEqual([snapshot])
    expect(await nextEvents(javaClient, 1)).toEqual([
      { ...snapshot, state: { deviceStates: states } },
    ])
    plainClient.close()
    javaClient.close()
  })

  it('appends a turn’s publications to 300 subscriptions with one append call, each event once in it', async () => {
    const subscriptions = range(1, 300).map(() => subscriptionRecord(ALICE_CALLS))
    const { a, b, counting } = await cluster(subscriptions)
    a.router.publish(aliceEvent(1))
    a.router.publish(aliceEvent(2))
    await a.outlets.settled()
    expect(counting[0]?.batches).toBe(1)
    const calls = counting[0]?.appendCalls ?? []
    expect(calls).toHaveLength(2)
    expect(calls.map((call) => call.subscriptionIds.length)).toEqual([300, 300])
    expect(calls.map((call) => JSON.parse(call.event).n)).toEqual([1, 2])
    const last = subscriptions.at(-1) as SubscriptionRecord
    const client = await b.open(last.subscriptionId)
    expect(numbers(await nextEvents(client, 2))).toEqual([1, 2])
    client.close()
  })

  it('sends webhooks from the node that holds them, and after a hand-over the rest from the next, none twice', async () => {
    const receiver = await WebhookReceiver.start()
    receivers.push(receiver)
    const subscription = subscriptionRecord(ALICE_CALLS, { webHookUrl: receiver.url })
    const { a, b, c } = await cluster([subscription])
    expect(b.outlets.openChannels).toBe(0)
    a.outlets.takeWebhooks()
    for (const n of range(1, 5)) c.router.publish(aliceEvent(n))
    await receiver.received(5)
    // Quiet on any node once A's sender was answered and acknowledged the last.
    await until(() => b.outlets.isQuiet(subscription))
    // The receiver stops taking them: A keeps them, then leaves the webhooks to B.
    receiver.status = 503
    for (const n of range(6, 10)) c.router.publish(aliceEvent(n))
    await receiver.received(6)
    expect(await b.outlets.isQuiet(subscription)).toBe(false)
    a.outlets.leaveWebhooks()
    receiver.status = 200
    b.outlets.takeWebhooks()
    const taken = (await waitForTaken(receiver, 10)).map((request) => request.json)
    expect(numbers(taken)).toEqual(range(1, 10))
    await until(() => c.outlets.isQuiet(subscription))
    // Every attempt of an event carries twice its number in the log, on either node: the one A tried and B
    // delivered too, so a receiver that took it already drops the repeat.
    expect(
      receiver.requests.map((request) => [
        request.json['n'],
        Number(request.headers['x-openness-sequence']),
      ]),
    ).toEqual(
      receiver.requests.map((request) => [request.json['n'], 2 * Number(request.json['n'])]),
    )
    expect(receiver.requests.length).toBeGreaterThan(10)
    expect(a.activity).toContain(subscription.subscriptionId)
  })

  it('ends the channel of a subscription detached, and routes nothing more to it', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b, c, counting } = await cluster([subscription])
    const client = await b.open(subscription.subscriptionId)
    a.router.publish(aliceEvent(1))
    expect(numbers(await nextEvents(client, 1))).toEqual([1])
    for (const node of [a, b, c]) node.outlets.detach(subscription.subscriptionId)
    await client.ended
    expect(b.outlets.openChannels).toBe(0)
    a.router.publish(aliceEvent(2))
    await a.outlets.settled()
    expect(counting[0]?.appendCalls).toHaveLength(1)
    // A late attach of the removed subscription (a change heard out of order) routes nothing.
    a.outlets.attach(subscription)
    a.router.publish(aliceEvent(3))
    await a.outlets.settled()
    expect(counting[0]?.appendCalls).toHaveLength(1)
    await a.outlets.discard(subscription.subscriptionId)
  })

  it('resumes on node C from the Last-Event-ID its client sends, naming what the log no longer holds', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b, c } = await cluster([subscription], 1000, 2)
    const onB = await b.open(subscription.subscriptionId)
    for (const n of range(1, 5)) a.router.publish(aliceEvent(n))
    expect(numbers(await nextEvents(onB, 5))).toEqual(range(1, 5))
    onB.close()
    await onB.ended
    // The client received 2 only; the log keeps the last 2 acknowledged (4 and 5): 3 is named lost.
    const onC = await c.open(subscription.subscriptionId, 2)
    const [notice, ...events] = await nextEvents(onC, 3)
    expect(notice).toEqual({
      eventName: 'OnChannelInformation',
      text: '1 event lost: no longer held for a channel that resumes; resynchronize',
      firstSequence: 3,
      lastSequence: 3,
    })
    expect(numbers(events)).toEqual([4, 5])
    a.router.publish(aliceEvent(6))
    expect(numbers(await nextEvents(onC, 1))).toEqual([6])
    onC.close()
  })

  it('ends the channel on node B when the client opens it again on node C (the last open wins)', async () => {
    const subscription = subscriptionRecord(ALICE_CALLS)
    const { a, b, c, log } = await cluster([subscription])
    const onB = await b.open(subscription.subscriptionId)
    a.router.publish(aliceEvent(1))
    expect(numbers(await nextEvents(onB, 1))).toEqual([1])
    const onC = await c.open(subscription.subscriptionId)
    // Once C's claim is recorded, B is woken (by the claim's message, or when it arms if it was not armed
    // then), reads, finds the log claimed, and ends; its next event goes to C.
    await until(
      async () =>
        (await log.read(subscription.subscriptionId, 0, 1)).reader?.startsWith('C/') ?? false,
    )
    a.router.publish(aliceEvent(2))
    // B had not let its claim go: what it delivered may not have reached the client, which C says first.
    const [notice, ...events] = await nextEvents(onC, 2)
    expect(notice).toMatchObject({ firstSequence: 1, lastSequence: 1 })
    expect(numbers(events)).toEqual([2])
    await onB.ended
    expect(b.outlets.openChannels).toBe(0)
    expect(c.outlets.openChannels).toBe(1)
    onC.close()
  })
}

/** The requests the receiver took (2xx) once `count` were taken. */
async function waitForTaken(receiver: WebhookReceiver, count: number) {
  const deadline = Date.now() + 5_000
  for (;;) {
    const taken = receiver.requests.filter((_, index) => receiver.answered[index] === 200)
    if (taken.length >= count) return taken
    if (Date.now() > deadline)
      throw new Error(`${taken.length} webhook requests taken, not ${count}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Resolves once `condition` holds, checked every 10 ms for at most 5 s of real time. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 5 s')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
