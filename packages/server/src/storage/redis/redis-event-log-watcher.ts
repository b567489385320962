/**
 * A node's one blocking reader of subscriptions' event logs (docs/cluster.md, "Cross-node wake-ups"): a
 * connection of its own (duplicated from the node's client) blocked in `XREAD` over the streams of the
 * subscriptions watched, each from the position its reader got to, plus a control stream of the watcher. A
 * change to the watched set while the read is blocked adds an entry to the control stream, which ends the read;
 * the next read carries the new set. Redis pushes the wake-up: nothing polls.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import type { EventLogWatcher } from '../../platform/ports.js'
import { sequenceOf } from './subscription-event-log-scripts.js'

/** How the blocking reader runs. */
export interface RedisEventLogWatcherOptions {
  /**
   * Longest time one XREAD blocks, in milliseconds, before it is sent again (a connection silently lost is
   * found by then); 30 s by default. Wake-ups never wait for it.
   */
  blockMs?: number
  /** The name of the watcher's connection (CLIENT LIST); `openness-event-watch` by default. */
  connectionName?: string
  /** Told of a failed read or interrupt; the watcher goes on after a pause. */
  onError?: (error: unknown) => void
}

/** The control stream's entries are only interrupts: it keeps a few, and lives a while after the last. */
const CONTROL_MAXLEN = 16
const CONTROL_TTL_MS = 60_000
/** The pause after a failed read before the next. */
const RETRY_MS = 1_000

/** A subscription's stream in an XREAD reply: its full key (prefix included), and its first entry. */
type XreadReply = [key: string, entries: [id: string, fields: string[]][]][] | null

export class RedisEventLogWatcher implements EventLogWatcher {
  /** Armed subscriptions, by id: the position each is watched from. */
  private readonly armed = new Map<string, number>()
  private readonly controlKey = `queue-watch:${randomBytes(8).toString('hex')}`
  private controlPosition = '0-0'
  /** A read is blocked in Redis, and the armed set changed since it was sent. */
  private reading = false
  private changed = false
  private interruptScheduled = false
  private closed = false
  private loop: Promise<void> = Promise.resolve()

  private constructor(
    private readonly client: Redis,
    private readonly reader: Redis,
    private readonly onEvents: (subscriptionIds: string[]) => void,
    private readonly options: RedisEventLogWatcherOptions,
  ) {}

  /** Connects the watcher's own connection and starts its blocking read. */
  static async open(
    client: Redis,
    onEvents: (subscriptionIds: string[]) => void,
    options: RedisEventLogWatcherOptions = {},
  ): Promise<RedisEventLogWatcher> {
    const reader = client.duplicate({
      connectionName: options.connectionName ?? 'openness-event-watch',
      lazyConnect: true,
    })
    await reader.connect()
    const watcher = new RedisEventLogWatcher(client, reader, onEvents, options)
    watcher.loop = watcher.run()
    return watcher
  }

  watch(subscriptionId: string, afterSequence: number): void {
    if (this.closed) return
    this.armed.set(subscriptionId, afterSequence)
    this.changed = true
    this.scheduleInterrupt()
  }

  unwatch(subscriptionId: string): void {
    // No interrupt: an entry of a subscription no longer armed is ignored when the read returns.
    this.armed.delete(subscriptionId)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.armed.clear()
    this.reader.disconnect()
    await this.loop
    await this.client.del(this.controlKey)
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      try {
        this.wake(await this.read())
      } catch (error) {
        if (this.closed) return
        this.options.onError?.(error)
        await delay(RETRY_MS)
      }
    }
  }

  /** One blocking read over the armed subscriptions' streams and the control stream. */
  private read(): Promise<XreadReply> {
    const subscriptionIds = [...this.armed.keys()]
    const keys = [...subscriptionIds.map((id) => `queue:${id}`), this.controlKey]
    const positions = [
      ...subscriptionIds.map((id) => `0-${this.armed.get(id)}`),
      this.controlPosition,
    ]
    this.changed = false
    this.reading = true
    const blockMs = this.options.blockMs ?? 30_000
    return this.reader
      .xread('COUNT', 1, 'BLOCK', blockMs, 'STREAMS', ...keys, ...positions)
      .finally(() => {
        this.reading = false
      }) as Promise<XreadReply>
  }

  /** Disarms and names, in one call, the subscriptions whose first new entry lies past their armed position. */
  private wake(reply: XreadReply): void {
    const woken: string[] = []
    const queuePrefix = `${this.reader.options.keyPrefix ?? ''}queue:`
    for (const [key, entries] of reply ?? []) {
      const entryId = entries.at(-1)?.[0]
      if (entryId === undefined) continue
      if (key.endsWith(this.controlKey)) {
        this.controlPosition = entryId
        continue
      }
      const subscriptionId = key.slice(queuePrefix.length)
      const after = this.armed.get(subscriptionId)
      if (after === undefined || sequenceOf(entryId) <= after) continue
      this.armed.delete(subscriptionId)
      woken.push(subscriptionId)
    }
    if (woken.length === 0) return
    try {
      this.onEvents(woken)
    } catch (error) {
      this.options.onError?.(error)
    }
  }

  /** Ends the blocked read once per turn of the event loop when the armed set changed under it. */
  private scheduleInterrupt(): void {
    if (this.interruptScheduled || !this.reading) return
    this.interruptScheduled = true
    queueMicrotask(() => {
      this.interruptScheduled = false
      if (this.reading && this.changed && !this.closed) void this.interrupt()
    })
  }

  private async interrupt(): Promise<void> {
    try {
      await this.client
        .pipeline()
        .xadd(this.controlKey, 'MAXLEN', CONTROL_MAXLEN, '*', 'changed', '1')
        .pexpire(this.controlKey, CONTROL_TTL_MS)
        .exec()
    } catch (error) {
      this.options.onError?.(error)
    }
  }
}
