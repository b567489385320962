/**
 * A node's one watcher of subscriptions' event logs (docs/cluster-events.md, "The reader"). The append script
 * tells the node of each log's reader (the claim `queue-reader:{id}` names it: `{nodeId}/...`) on that node's wake
 * channel, `{prefix}event-log-wake:{nodeId}`, once per script call: the subscriptions appended to and their last
 * numbers. The watcher listens on a connection of its own, subscribed once: arming and disarming send nothing, and
 * a wake-up costs Redis one PUBLISH however many channels the node holds. The message carries the events appended
 * (each text once) with their numbers and the logs' readers: a reader armed right before the first of them, and
 * named by the claim, is handed them as its page (`onEvents`' pages), without reading the log. A claim taken from
 * a reader of this node is told too, so that the replaced channel reads, finds it lost the log, and ends.
 *
 * Arming checks the log once, at the end of the turn, for every log armed in it (their sequence keys and claims):
 * in the script of the turn's acknowledgements when there are any (a channel acknowledges what it wrote and arms
 * in the same turn), else in one MGET. Events appended before a claim named this node, or whose message raced with
 * the read that armed it, and a claim taken by another reader while this one was not armed (its message then found
 * nothing armed), wake it at once. Every `checkMs`,
 * and after the connection came back, the armed logs are checked the same way: a message pub/sub lost, or a claim
 * that lapsed, delays a wake-up by that much at most.
 */
import type { Redis } from 'ioredis'
import type { LoggedEvent } from '../../platform/subscriptions/event-queue.js'
import type {
  EventLogPage,
  EventLogWakeListener,
  EventLogWatcher,
} from '../../platform/subscriptions/subscription-event-log.js'
import { checkedLogKeys } from './subscription-event-log-scripts.js'

/** How the watcher runs. */
export interface RedisEventLogWatcherOptions {
  /** How often the armed logs are checked, in milliseconds, for wake-ups pub/sub lost; 30 s by default. */
  checkMs?: number
  /** The name of the watcher's connection (CLIENT LIST); `openness-event-watch` by default. */
  connectionName?: string
  /** Told of a failed check or subscription; the watcher goes on. */
  onError?: (error: unknown) => void
}

/** The channel on which the logs claimed by readers of `nodeId` tell of their appends (the key prefix in it). */
export function wakeChannel(keyPrefix: string, nodeId: string): string {
  return `${keyPrefix}event-log-wake:${nodeId}`
}

/** In a wake message, a number that wakes whatever the position armed: the log was claimed by another reader. */
export const CLAIMED = 'claimed'

/** What a wake message told of an armed subscription: its events, the reader named, whether they follow on. */
interface Found {
  events: LoggedEvent[]
  reader: string
  follows: boolean
}

const NEWLINE = 10

export class RedisEventLogWatcher implements EventLogWatcher {
  /** Armed subscriptions, by id: the position each is watched from, and the reader that armed it if named. */
  private readonly armed = new Map<string, { after: number; reader: string | undefined }>()
  /** Armed since the last check was sent: checked together at the end of the turn. */
  private unchecked = new Set<string>()
  private checkScheduled = false
  private closed = false
  private readonly timer: NodeJS.Timeout

  private constructor(
    private readonly client: Redis,
    private readonly listener: Redis,
    private readonly onEvents: EventLogWakeListener,
    private readonly options: RedisEventLogWatcherOptions,
  ) {
    this.timer = setInterval(() => this.checkAll(), options.checkMs ?? 30_000)
    this.timer.unref()
  }

  /** Subscribes the watcher's own connection to the node's wake channel. */
  static async open(
    client: Redis,
    nodeId: string,
    onEvents: EventLogWakeListener,
    options: RedisEventLogWatcherOptions = {},
  ): Promise<RedisEventLogWatcher> {
    const listener = client.duplicate({
      connectionName: options.connectionName ?? 'openness-event-watch',
      lazyConnect: true,
    })
    await listener.connect()
    const watcher = new RedisEventLogWatcher(client, listener, onEvents, options)
    listener.on('messageBuffer', (_channel: Buffer, message: Buffer) => watcher.told(message))
    // Messages sent while the connection was down are lost (ioredis subscribes again): check what is armed.
    let connected = false
    listener.on('ready', () => {
      if (connected) watcher.checkAll()
      connected = true
    })
    listener.on('error', (error: unknown) => options.onError?.(error))
    await listener.subscribe(wakeChannel(client.options.keyPrefix ?? '', nodeId))
    connected = true
    return watcher
  }

  watch(subscriptionId: string, afterSequence: number, readerId?: string): void {
    if (this.closed) return
    this.armed.set(subscriptionId, { after: afterSequence, reader: readerId })
    this.unchecked.add(subscriptionId)
    if (this.checkScheduled) return
    this.checkScheduled = true
    // At the end of the turn, after the turn's acknowledgements were sent: those took the checks with them.
    setImmediate(() => {
      this.checkScheduled = false
      void this.check(this.takeUnchecked())
    })
  }

  /**
   * The subscriptions armed and not checked yet, taken: a command the node sends anyway from now on (the turn's
   * acknowledgements, redis-subscription-event-log.ts) checks their logs, and hands what it found to `checked`.
   */
  takeUnchecked(): string[] {
    if (this.closed || this.unchecked.size === 0) return []
    const ids = [...this.unchecked]
    this.unchecked = new Set()
    return ids
  }

  /**
   * What a check of `ids` read, after they were armed: for each, in turn, the values of its `checkedLogKeys` (its
   * log's last sequence number given, and the reader that claimed it; null or empty for none). Wakes those that
   * hold an event after their position, or that another reader claimed.
   */
  checked(ids: readonly string[], values: readonly (string | null)[]): void {
    const woken: string[] = []
    ids.forEach((subscriptionId, index) => {
      const armed = this.armed.get(subscriptionId)
      if (armed === undefined) return
      const appended = Number(values[2 * index] ?? 0) > armed.after
      // A lapsed claim (no reader) wakes nothing: the reader would read, find no other reader, and arm again.
      const reader = values[2 * index + 1] || undefined
      const claimed = armed.reader !== undefined && reader !== undefined && reader !== armed.reader
      if (!appended && !claimed) return
      this.armed.delete(subscriptionId)
      woken.push(subscriptionId)
    })
    this.name(woken)
  }

  /** Whether `close` was called. */
  get isClosed(): boolean {
    return this.closed
  }

  /** Checks `ids` itself: their check was taken by `takeUnchecked`, and the command that carried it failed. */
  checkAgain(ids: string[]): void {
    void this.check(ids)
  }

  unwatch(subscriptionId: string): void {
    this.armed.delete(subscriptionId)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    clearInterval(this.timer)
    this.armed.clear()
    this.listener.disconnect()
  }

  /**
   * A wake message: the appends of one script call (`APPEND`: a line of `id number reader text` quadruples, a
   * line of the texts' lengths in bytes, the texts), or a claim taken (`id claimed`).
   */
  private told(message: Buffer): void {
    const firstBreak = message.indexOf(NEWLINE)
    if (firstBreak === -1) {
      this.toldPairs(message.toString())
      return
    }
    const secondBreak = message.indexOf(NEWLINE, firstBreak + 1)
    const words = message.toString('utf8', 0, firstBreak).split(' ')
    const ends: number[] = []
    let end = secondBreak + 1
    for (const length of message.toString('latin1', firstBreak + 1, secondBreak).split(' ')) {
      end += Number(length)
      ends.push(end)
    }
    const found = new Map<string, Found>()
    for (let index = 0; index + 3 < words.length; index += 4) {
      const subscriptionId = words[index] as string
      const armed = this.armed.get(subscriptionId)
      const sequence = Number(words[index + 1])
      if (armed === undefined || sequence <= armed.after) continue
      const reader = words[index + 2] as string
      const text = Number(words[index + 3])
      const start = text === 0 ? secondBreak + 1 : (ends[text - 1] as number)
      const event = { sequence, event: message.toString('utf8', start, ends[text]) }
      const before = found.get(subscriptionId)
      if (before === undefined)
        found.set(subscriptionId, {
          events: [event],
          reader,
          follows: sequence === armed.after + 1 && reader === armed.reader,
        })
      else {
        before.follows &&=
          reader === before.reader && sequence === (before.events.at(-1)?.sequence ?? 0) + 1
        before.events.push(event)
      }
    }
    const woken: string[] = []
    const pages = new Map<string, EventLogPage>()
    for (const [subscriptionId, { events, reader, follows }] of found) {
      const armed = this.armed.get(subscriptionId)
      if (armed === undefined) continue
      this.armed.delete(subscriptionId)
      woken.push(subscriptionId)
      if (follows)
        pages.set(subscriptionId, {
          events,
          lost: 0,
          after: armed.after,
          lastSequence: events.at(-1)?.sequence ?? armed.after,
          reader,
        })
    }
    this.name(woken, pages)
  }

  /** `id number` pairs, space-separated: `claimed` for a number wakes whatever the position. */
  private toldPairs(message: string): void {
    const woken: string[] = []
    const parts = message.split(' ')
    for (let index = 0; index + 1 < parts.length; index += 2) {
      const subscriptionId = parts[index] as string
      const sequence = parts[index + 1]
      const armed = this.armed.get(subscriptionId)
      if (armed === undefined) continue
      if (sequence !== CLAIMED && Number(sequence) <= armed.after) continue
      this.armed.delete(subscriptionId)
      woken.push(subscriptionId)
    }
    this.name(woken)
  }

  private checkAll(): void {
    if (!this.closed && this.armed.size > 0) void this.check([...this.armed.keys()])
  }

  /**
   * Names the armed subscriptions among `ids` whose logs hold an event after their position, or whose log
   * another reader than the one that armed it claimed.
   */
  private async check(ids: string[]): Promise<void> {
    if (ids.length === 0 || this.closed) return
    let values: (string | null)[]
    try {
      values = await this.client.mget(ids.flatMap(checkedLogKeys))
    } catch (error) {
      this.options.onError?.(error)
      return
    }
    this.checked(ids, values)
  }

  private name(woken: string[], pages?: ReadonlyMap<string, EventLogPage>): void {
    if (woken.length === 0 || this.closed) return
    try {
      this.onEvents(woken, pages)
    } catch (error) {
      this.options.onError?.(error)
    }
  }
}
