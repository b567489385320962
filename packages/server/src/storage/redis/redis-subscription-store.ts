/**
 * Subscriptions in Redis (the cluster mode; docs/cluster.md, "Subscriptions"): any node serves any
 * subscription, a filter is replaced from one revision by one node only, a subscription is removed once
 * cluster-wide, and every change is published on the channel `{prefix}subscription-changes` by the script that
 * made it. Keys: `subscription:{id}` (a hash), `subscriptions-of:{sessionId}` (a set of ids), `subscriptions`
 * (every id, scored by expiry; `inf` for one that follows its session). A subscription's keys have the TTL of
 * its expiry plus a margin for a late sweep, renewed with its activity; one that follows its session has none.
 */
import type { Redis } from 'ioredis'
import {
  expiryOf,
  type FilterReplacement,
  type SubscriptionChange,
  type SubscriptionChangeFollower,
  type SubscriptionDraft,
  type SubscriptionFilterRecord,
  type SubscriptionRecord,
} from '../../platform/subscriptions/subscription-record.js'
import type { SubscriptionRemoveCause } from '../../platform/subscriptions/subscription-state.js'
import type { SubscriptionStore } from '../../platform/subscriptions/subscription-store.js'
import {
  COUNT_OF_SESSION,
  CREATE,
  DUE,
  OF_SESSION,
  REMOVE,
  REPLACE_FILTER,
  TOUCH,
} from './redis-subscription-scripts.js'

/** How long a subscription's keys outlive its expiry: the sweep may run late (a failover of its node). */
export const DEFAULT_SWEEP_MARGIN_MS = 10 * 60_000

const INDEX = 'subscriptions'
const subscriptionKey = (subscriptionId: string) => `subscription:${subscriptionId}`
const sessionKey = (sessionId: string) => `subscriptions-of:${sessionId}`
/** Records read per round trip when loading all of them. */
const LOAD_PAGE = 500

export class RedisSubscriptionStore implements SubscriptionStore {
  /** The client's key prefix: for the keys scripts name themselves, and the channel (never prefixed). */
  private readonly prefix: string
  private readonly channel: string

  constructor(
    private readonly client: Redis,
    private readonly sweepMarginMs = DEFAULT_SWEEP_MARGIN_MS,
  ) {
    this.prefix = client.options.keyPrefix ?? ''
    this.channel = `${this.prefix}subscription-changes`
  }

  async create(draft: SubscriptionDraft, now: number): Promise<SubscriptionRecord | undefined> {
    const { filter, ...rest } = draft
    const timeoutMs = draft.timeoutMinutes * 60_000
    const created = await CREATE.run(
      this.client,
      [subscriptionKey(draft.subscriptionId), INDEX, sessionKey(draft.sessionId)],
      [
        this.prefix,
        draft.subscriptionId,
        JSON.stringify({ ...rest, createdAt: now }),
        JSON.stringify(filter),
        draft.sessionId,
        timeoutMs,
        now,
        timeoutMs === 0 ? '' : timeoutMs + this.sweepMarginMs,
        this.channel,
        this.message(draft.subscriptionId, 'created'),
      ],
    )
    if (created !== 1) return undefined
    const expiresAt = expiryOf(draft.timeoutMinutes, now)
    return {
      ...structuredClone(draft),
      createdAt: now,
      lastActivityAt: now,
      ...(expiresAt !== undefined && { expiresAt }),
      revision: 1,
      state: 'ACCEPTED',
    }
  }

  async find(subscriptionId: string): Promise<SubscriptionRecord | undefined> {
    const fields = await this.client.hgetall(subscriptionKey(subscriptionId))
    return fields['record'] === undefined ? undefined : recordOf(fields)
  }

  async ofSession(sessionId: string): Promise<SubscriptionRecord[]> {
    const found = (await OF_SESSION.run(this.client, [sessionKey(sessionId)], [this.prefix])) as
      | string[][]
      | null
    return (found ?? []).map(recordOfList).sort((a, b) => a.createdAt - b.createdAt)
  }

  async countOfSession(sessionId: string): Promise<number> {
    return Number(await COUNT_OF_SESSION.run(this.client, [sessionKey(sessionId)], [this.prefix]))
  }

  async replaceFilter(
    subscriptionId: string,
    revision: number,
    filter: SubscriptionFilterRecord,
    now: number,
  ): Promise<FilterReplacement> {
    const [state, fields] = (await REPLACE_FILTER.run(
      this.client,
      [subscriptionKey(subscriptionId), INDEX],
      [
        this.prefix,
        subscriptionId,
        revision,
        JSON.stringify(filter),
        now,
        this.sweepMarginMs,
        this.channel,
        this.message(subscriptionId, 'filter'),
      ],
    )) as [FilterReplacement['state'], string[]?]
    if (state === 'NOT_FOUND' || fields === undefined) return { state: 'NOT_FOUND' }
    return { state, subscription: recordOfList(fields) }
  }

  async touch(subscriptionId: string, now: number): Promise<boolean> {
    const touched = await TOUCH.run(
      this.client,
      [subscriptionKey(subscriptionId), INDEX],
      [this.prefix, subscriptionId, now, this.sweepMarginMs],
    )
    return touched === 1
  }

  async remove(
    subscriptionId: string,
    cause: SubscriptionRemoveCause,
  ): Promise<SubscriptionRecord | undefined> {
    const fields = (await REMOVE.run(
      this.client,
      [subscriptionKey(subscriptionId), INDEX],
      [this.prefix, subscriptionId, this.channel, this.message(subscriptionId, 'removed')],
    )) as string[] | null
    if (fields === null) return undefined
    return { ...recordOfList(fields), state: 'REMOVED', removeCause: cause }
  }

  async due(now: number, limit: number): Promise<SubscriptionRecord[]> {
    const due = (await DUE.run(this.client, [INDEX], [this.prefix, now, limit])) as
      | string[][]
      | null
    return (due ?? []).map(recordOfList)
  }

  async all(): Promise<SubscriptionRecord[]> {
    const ids = await this.client.zrange(INDEX, '0', '-1')
    const records: SubscriptionRecord[] = []
    for (let start = 0; start < ids.length; start += LOAD_PAGE) {
      const pipeline = this.client.pipeline()
      for (const id of ids.slice(start, start + LOAD_PAGE)) pipeline.hgetall(subscriptionKey(id))
      for (const [error, fields] of (await pipeline.exec()) ?? []) {
        if (error !== null) throw error
        const found = fields as Record<string, string>
        if (found['record'] !== undefined) records.push(recordOf(found))
      }
    }
    return records
  }

  async changes(
    onChange: (change: SubscriptionChange) => void,
  ): Promise<SubscriptionChangeFollower> {
    const subscriber = this.client.duplicate({
      connectionName: 'openness-subscription-changes',
      lazyConnect: true,
    })
    await subscriber.connect()
    const listener = (_channel: string, message: string) =>
      onChange(JSON.parse(message) as SubscriptionChange)
    subscriber.on('message', listener)
    await subscriber.subscribe(this.channel)
    return {
      // Nothing is told once close() is called, not even what the connection already received.
      close: async () => {
        subscriber.off('message', listener)
        await subscriber.quit()
      },
    }
  }

  private message(subscriptionId: string, kind: SubscriptionChange['kind']): string {
    return JSON.stringify({ subscriptionId, kind } satisfies SubscriptionChange)
  }
}

/** A subscription's hash as a script returns it: field, value, field, value... */
function recordOfList(list: readonly string[]): SubscriptionRecord {
  const fields: Record<string, string> = {}
  for (let i = 0; i + 1 < list.length; i += 2) fields[list[i] as string] = list[i + 1] as string
  return recordOf(fields)
}

/** The record a subscription's hash holds. */
function recordOf(fields: Record<string, string>): SubscriptionRecord {
  const fixed = JSON.parse(fields['record'] ?? '{}') as FixedFields
  const expiresAt = fields['expiresAt']
  return {
    ...fixed,
    filter: JSON.parse(fields['filter'] ?? '{}') as SubscriptionFilterRecord,
    lastActivityAt: Number(fields['lastActivityAt']),
    ...(expiresAt !== undefined && { expiresAt: Number(expiresAt) }),
    revision: Number(fields['revision']),
    state: 'ACCEPTED',
  }
}

/** What never changes, stored once as the hash's `record`. */
type FixedFields = Omit<SubscriptionDraft, 'filter'> & { createdAt: number }
