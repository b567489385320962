/**
 * The subscriptions' event logs on Redis (docs/cluster-events.md, "One stream per subscription"): one stream per
 * subscription, whose entry ids are the subscription's own sequence
 * numbers, trimmed exactly to the capacity, with the last number given and the acknowledged position beside it
 * (subscription-event-log-scripts.ts). Every node reads and appends to the same logs, so a channel resumes on any
 * node from the last number it delivered. A fan-out appends to all its subscriptions in one round trip.
 */
import type { Redis } from 'ioredis'
import type { LoggedEvent } from '../../platform/subscriptions/event-queue.js'
import type {
  ClaimedLog,
  EventAppend,
  EventLogPage,
  EventLogWakeListener,
  EventLogWatcher,
  SubscriptionEventLog,
} from '../../platform/subscriptions/subscription-event-log.js'
import { DEFAULT_QUEUE_CAPACITY, DEFAULT_REPLAYABLE_EVENTS } from '../memory/memory-event-queue.js'
import {
  RedisEventLogWatcher,
  type RedisEventLogWatcherOptions,
  wakeChannel,
} from './redis-event-log-watcher.js'
import {
  ACKNOWLEDGE,
  APPEND,
  allLogKeys,
  appendedLogKeys,
  CLAIM,
  checkedLogKeys,
  claimedLogKeys,
  claimKeys,
  READ,
  RELEASE,
  sequenceOf,
} from './subscription-event-log-scripts.js'

/** How many subscriptions one script call of a fan-out appends to: bounds how long Redis runs one script. */
const SUBSCRIPTIONS_PER_SCRIPT = 256

/** How the logs are bounded, and how their watchers connect. */
export interface RedisSubscriptionEventLogOptions {
  /** Events held per subscription; DEFAULT_QUEUE_CAPACITY when not given. */
  capacity?: number
  /**
   * Acknowledged events kept for a channel that resumes from an earlier number (counted in the capacity);
   * DEFAULT_REPLAYABLE_EVENTS when not given.
   */
  replayable?: number
  /** The watchers' blocking reads (each on a connection of its own, duplicated from the client). */
  watcher?: RedisEventLogWatcherOptions
}

/** An acknowledgement waiting for the end of the turn, and its caller. */
interface PendingAcknowledgement {
  subscriptionId: string
  throughSequence: number
  reader: string | undefined
  resolve: () => void
  reject: (error: unknown) => void
}

export class RedisSubscriptionEventLog implements SubscriptionEventLog {
  private readonly capacity: number
  private readonly replayable: number
  /** The acknowledgements asked during this turn, sent together at its end. */
  private acknowledgements: PendingAcknowledgement[] = []
  /** The watchers opened on this log's connection: their arming checks ride on the acknowledgements. */
  private readonly watchers = new Set<RedisEventLogWatcher>()

  constructor(
    private readonly client: Redis,
    private readonly options: RedisSubscriptionEventLogOptions = {},
  ) {
    this.capacity = options.capacity ?? DEFAULT_QUEUE_CAPACITY
    this.replayable = options.replayable ?? DEFAULT_REPLAYABLE_EVENTS
  }

  /**
   * The connection the logs' commands go on: the engine's change feed sends its entries on it too
   * (cluster-engine-adapters.ts), so that the appends sent behind an entry run after it.
   */
  get connection(): Redis {
    return this.client
  }

  async append(subscriptionId: string, event: string, ttlMs: number): Promise<number> {
    const [sequence] = await this.appendMany([subscriptionId], event, ttlMs)
    if (sequence === undefined) throw new Error(`no sequence number for ${subscriptionId}`)
    return sequence
  }

  async appendMany(
    subscriptionIds: readonly string[],
    event: string,
    ttlMs: number,
    origin?: number,
  ): Promise<number[]> {
    const [sequences] = await this.appendBatch([{ subscriptionIds, event, origin }], ttlMs)
    return sequences ?? []
  }

  /**
   * One pipeline of script calls, each appending at most SUBSCRIPTIONS_PER_SCRIPT events-to-a-subscription:
   * a turn's events leave in one write, in order, and Redis runs no script for long.
   */
  async appendBatch(appends: readonly EventAppend[], ttlMs: number): Promise<number[][]> {
    const ttl = Math.ceil(ttlMs)
    const calls: { keys: string[]; args: (string | number)[] }[] = []
    const head = [this.capacity, ttl, ...this.wakeArguments()]
    let call = { keys: [] as string[], args: [...head] }
    let size = 0
    for (const { subscriptionIds, event, origin } of appends) {
      for (let start = 0; start < subscriptionIds.length; ) {
        if (size === SUBSCRIPTIONS_PER_SCRIPT) {
          calls.push(call)
          call = { keys: [], args: [...head] }
          size = 0
        }
        const part = subscriptionIds.slice(start, start + SUBSCRIPTIONS_PER_SCRIPT - size)
        call.keys.push(...part.flatMap(appendedLogKeys))
        call.args.push(event, origin ?? '', part.length)
        size += part.length
        start += part.length
      }
    }
    if (size > 0) calls.push(call)
    const replies = calls.length === 0 ? [] : await APPEND.runMany(this.client, calls)
    const sequences = replies.flatMap((reply) => (reply as number[]).map(Number))
    let next = 0
    return appends.map(({ subscriptionIds }) => {
      next += subscriptionIds.length
      return sequences.slice(next - subscriptionIds.length, next)
    })
  }

  async read(
    subscriptionId: string,
    afterSequence: number | 'acknowledged',
    max: number,
  ): Promise<EventLogPage> {
    this.sendAcknowledgements()
    const reply = await READ.run(this.client, claimedLogKeys(subscriptionId), [
      afterSequence === 'acknowledged' ? '' : afterSequence,
      max,
    ])
    const [after, last, entries, reader] = reply as [string, string, [string, string[]][], string]
    const events = entries.map(loggedEvent)
    const firstHeld = events[0]?.sequence ?? Number(last) + 1
    return {
      events,
      lost: Math.max(0, firstHeld - Number(after) - 1),
      after: Number(after),
      lastSequence: Number(last),
      ...(reader !== '' && { reader }),
    }
  }

  /**
   * Sent at the end of the turn (or before the next command on the logs), with every acknowledgement of the
   * turn in one script call (the channels a wake-up woke write and acknowledge in the same turn): one command
   * where there was one per channel.
   */
  acknowledge(subscriptionId: string, throughSequence: number, reader?: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.acknowledgements.push({ subscriptionId, throughSequence, reader, resolve, reject })
      if (this.acknowledgements.length === 1) setImmediate(() => this.sendAcknowledgements())
    })
  }

  /**
   * The acknowledgements asked so far, in one script call; each caller told when it is answered. Every other
   * command on the logs sends them first, so that they run in the order they were asked in (a claim after an
   * acknowledgement finds the position it moved to, as when each was sent at once). The same call checks the
   * logs the watchers armed since their last check (the channels that acknowledge arm in the same turn): one
   * command where there were two.
   */
  private sendAcknowledgements(): void {
    const turn = this.acknowledgements
    if (turn.length === 0) return
    this.acknowledgements = []
    const keys: string[] = []
    const args: (string | number)[] = [this.replayable, turn.length]
    for (const { subscriptionId, throughSequence, reader } of turn) {
      keys.push(...claimedLogKeys(subscriptionId))
      args.push(throughSequence, reader ?? '')
    }
    const checks: { watcher: RedisEventLogWatcher; ids: string[] }[] = []
    for (const watcher of this.watchers) {
      if (watcher.isClosed) {
        this.watchers.delete(watcher)
        continue
      }
      const ids = watcher.takeUnchecked()
      if (ids.length === 0) continue
      checks.push({ watcher, ids })
      for (const id of ids) keys.push(...checkedLogKeys(id))
    }
    ACKNOWLEDGE.run(this.client, keys, args).then(
      (reply) => {
        for (const { resolve } of turn) resolve()
        let next = turn.length
        const values = (reply as (number | string)[]).map(String)
        for (const { watcher, ids } of checks) {
          watcher.checked(ids, values.slice(next, next + 2 * ids.length))
          next += 2 * ids.length
        }
      },
      (error: unknown) => {
        for (const { reject } of turn) reject(error)
        // The checks did not run: each watcher checks its logs itself.
        for (const { watcher, ids } of checks) watcher.checkAgain(ids)
      },
    )
  }

  async claim(subscriptionId: string, reader: string, ttlMs: number): Promise<ClaimedLog> {
    this.sendAcknowledgements()
    const reply = await CLAIM.run(this.client, claimKeys(subscriptionId), [
      reader,
      Math.ceil(ttlMs),
      ...this.wakeArguments(),
    ])
    const [previous, from, acknowledged, oldest] = reply as [string, string, string, string]
    if (previous === '' || previous === reader) return {}
    const last = Number(acknowledged)
    const first = Math.max(Number(from) + 1, oldest === '' ? last + 1 : sequenceOf(oldest))
    return first > last ? {} : { unconfirmed: { first, last } }
  }

  async release(subscriptionId: string, reader: string): Promise<void> {
    this.sendAcknowledgements()
    await RELEASE.run(this.client, claimKeys(subscriptionId), [reader])
  }

  async renew(subscriptionId: string, ttlMs: number): Promise<void> {
    this.sendAcknowledgements()
    const pipeline = this.client.pipeline()
    for (const key of allLogKeys(subscriptionId)) pipeline.pexpire(key, Math.ceil(ttlMs))
    await pipeline.exec()
  }

  async drop(subscriptionId: string): Promise<void> {
    this.sendAcknowledgements()
    await this.client.del(...allLogKeys(subscriptionId))
  }

  async openWatcher(onEvents: EventLogWakeListener, nodeId: string): Promise<EventLogWatcher> {
    const watcher = await RedisEventLogWatcher.open(
      this.client,
      nodeId,
      onEvents,
      this.options.watcher,
    )
    this.watchers.add(watcher)
    return watcher
  }

  /** What the scripts need to tell a reader's node: its wake channel's prefix, where ids start in stream keys. */
  private wakeArguments(): [string, number] {
    const keyPrefix = this.client.options.keyPrefix ?? ''
    return [wakeChannel(keyPrefix, ''), `${keyPrefix}queue:`.length]
  }
}

/** A stream entry `[0-{sequence}, ['e', event]]` as a logged event. */
function loggedEvent([id, fields]: [string, string[]]): LoggedEvent {
  return { sequence: sequenceOf(id), event: fields[1] ?? '' }
}
