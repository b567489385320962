/**
 * The engine owner's reader of the requests other nodes submit (docs/cluster-engine.md, "Commands from other
 * nodes"): a connection of its own blocked in `XREADGROUP` on `engine:commands`. At the start of a term it first
 * claims (`XAUTOCLAIM`) every entry a previous owner read and never acknowledged. The entries of one read are
 * looked up among the answers remembered (one `MGET`), then handed to the engine in order, in the same turn, so
 * that they share a batch; each is answered, once stored, in one `MULTI`: the answer remembered with its TTL,
 * published on its node's reply channel, the entry acknowledged (`XACK`) and deleted (`XDEL`).
 */
import { setTimeout as delay } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import type { Clock } from '../../platform/events.js'
import type { EngineCommandConsumer } from '../../platform/telephony/engine-command-queue.js'
import {
  type EngineOutcome,
  type EngineRequestHandler,
  runEngineRequest,
} from '../../platform/telephony/engine-request.js'
import {
  type CommandEntry,
  ENGINE_COMMANDS_KEY,
  ENGINE_GROUP,
  engineAnswerKey,
  parseEntry,
  type Reply,
  replyChannel,
} from './engine-command-stream.js'

/** How the owner reads. */
export interface RedisEngineCommandConsumerOptions {
  /** The consumer's name in the group: the node's id. */
  nodeId: string
  clock: Clock
  answerRetentionMs: number
  /** Longest time one XREADGROUP blocks before it is sent again (a silently lost connection is found). */
  blockMs: number
  connectionName: string
  onError: (error: unknown) => void
}

/** The most entries one read or claim takes: at most one batch of the engine. */
const READ_COUNT = 256
/** The pause after a failed read before the next. */
const RETRY_MS = 1_000

type StreamEntries = [id: string, fields: string[]][]
type XreadgroupReply = [key: string, entries: StreamEntries][] | null

export class RedisEngineCommandConsumer implements EngineCommandConsumer {
  readonly #underWay = new Set<Promise<void>>()
  #state: 'running' | 'stopping' | 'abandoned' = 'running'
  #loop: Promise<void> = Promise.resolve()

  private constructor(
    private readonly client: Redis,
    private readonly reader: Redis,
    private readonly handler: EngineRequestHandler,
    private readonly options: RedisEngineCommandConsumerOptions,
  ) {}

  /** Joins the group (creating it and the stream at the first term), takes over, then reads on. */
  static async start(
    client: Redis,
    handler: EngineRequestHandler,
    options: RedisEngineCommandConsumerOptions,
  ): Promise<RedisEngineCommandConsumer> {
    await ensureGroup(client)
    const reader = client.duplicate({ connectionName: options.connectionName, lazyConnect: true })
    await reader.connect()
    const consumer = new RedisEngineCommandConsumer(client, reader, handler, options)
    try {
      await consumer.#handle(await consumer.#claimPending())
    } catch (error) {
      reader.disconnect()
      throw error
    }
    consumer.#loop = consumer.#run()
    return consumer
  }

  async stop(): Promise<void> {
    if (this.#state === 'running') this.#state = 'stopping'
    this.reader.disconnect()
    await this.#loop
    while (this.#underWay.size > 0) await Promise.all(this.#underWay)
  }

  async abandon(): Promise<void> {
    this.#state = 'abandoned'
    this.reader.disconnect()
    await this.#loop
  }

  /** Every entry pending in the group, whoever read it, oldest first: this node owns the engine now. */
  async #claimPending(): Promise<StreamEntries> {
    const claimed: StreamEntries = []
    let cursor = '0-0'
    do {
      const [next, entries] = (await this.client.xautoclaim(
        ENGINE_COMMANDS_KEY,
        ENGINE_GROUP,
        this.options.nodeId,
        0,
        cursor,
        'COUNT',
        READ_COUNT,
      )) as [string, StreamEntries, string[]]
      claimed.push(...entries)
      cursor = next
    } while (cursor !== '0-0')
    return claimed
  }

  async #run(): Promise<void> {
    while (this.#state === 'running') {
      try {
        const reply = (await this.reader.xreadgroup(
          'GROUP',
          ENGINE_GROUP,
          this.options.nodeId,
          'COUNT',
          READ_COUNT,
          'BLOCK',
          this.options.blockMs,
          'STREAMS',
          ENGINE_COMMANDS_KEY,
          '>',
        )) as XreadgroupReply
        await this.#handle(reply?.[0]?.[1] ?? [])
      } catch (error) {
        if (this.#state !== 'running') return
        this.options.onError(error)
        await delay(RETRY_MS)
      }
    }
  }

  /** Looks the entries up among the answers, then takes them in order, all in one turn. */
  async #handle(raw: StreamEntries): Promise<void> {
    if (raw.length === 0) return
    const entries: CommandEntry[] = []
    const malformed: string[] = []
    for (const [entryId, fields] of raw) {
      const entry = parseEntry(entryId, fields)
      if (entry === undefined) malformed.push(entryId)
      else entries.push(entry)
    }
    if (malformed.length > 0) {
      this.options.onError(new Error(`Dropped engine requests that are not requests: ${malformed}`))
      await this.#acknowledge(this.client.multi(), malformed).exec()
    }
    if (entries.length === 0) return
    const remembered = await this.client.mget(
      entries.map((entry) => engineAnswerKey(entry.requestId)),
    )
    // Abandoned meanwhile: the entries stay pending, for the next owner.
    if (this.#state === 'abandoned') return
    entries.forEach((entry, index) => {
      this.#take(entry, remembered[index] ?? null)
    })
  }

  /** Runs the request (or takes its remembered answer) and answers it once it is settled. */
  #take(entry: CommandEntry, remembered: string | null): void {
    let outcome: Promise<EngineOutcome | 'expired' | undefined>
    if (remembered !== null) outcome = Promise.resolve(JSON.parse(remembered) as EngineOutcome)
    else if (this.options.clock.now() >= entry.deadline) outcome = Promise.resolve('expired')
    else outcome = runEngineRequest(this.handler, entry.request, entry.requestId)
    const finishing = outcome
      .then((settled) => this.#finish(entry, settled, remembered === null))
      .catch(this.options.onError)
      .finally(() => this.#underWay.delete(finishing))
    this.#underWay.add(finishing)
  }

  /**
   * Answers and acknowledges the entry in one step; an entry whose submitter gave up is only acknowledged. An
   * abandoned term answers nothing, and a request the fence refused is left pending: the next owner runs them.
   */
  async #finish(
    entry: CommandEntry,
    outcome: EngineOutcome | 'expired' | undefined,
    isNew: boolean,
  ): Promise<void> {
    if (this.#state === 'abandoned' || outcome === undefined) return
    const multi = this.client.multi()
    if (outcome !== 'expired') {
      if (isNew)
        multi.set(
          engineAnswerKey(entry.requestId),
          JSON.stringify(outcome),
          'PX',
          this.options.answerRetentionMs,
        )
      const reply: Reply = { requestId: entry.requestId, outcome }
      multi.publish(replyChannel(this.client, entry.nodeId), JSON.stringify(reply))
    }
    await this.#acknowledge(multi, [entry.entryId]).exec()
  }

  #acknowledge(multi: ReturnType<Redis['multi']>, entryIds: readonly string[]) {
    return multi
      .xack(ENGINE_COMMANDS_KEY, ENGINE_GROUP, ...entryIds)
      .xdel(ENGINE_COMMANDS_KEY, ...entryIds)
  }
}

/** Creates the group, and the stream with it, reading from the stream's first entry; once per cluster. */
async function ensureGroup(client: Redis): Promise<void> {
  try {
    await client.xgroup('CREATE', ENGINE_COMMANDS_KEY, ENGINE_GROUP, '0', 'MKSTREAM')
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error
  }
}
