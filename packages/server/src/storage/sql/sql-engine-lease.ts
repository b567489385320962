/**
 * The election of the call engine's owner on PostgreSQL (docs/cluster-engine.md, "Engine lease and fencing"). A
 * node owns the engine while it holds a session-level advisory lock, on a connection of its own rather than
 * one of Kysely's pool, because the lock lives and dies with the connection: PostgreSQL drops it as soon as
 * the owner's connection ends, whatever killed the node. Nodes that do not own the engine try the lock again
 * every retry interval. A node that takes it increments the epoch in the lease's `engine_lease` row, and the
 * call store fences its saves with that epoch (engine-fence.ts). The owner is told at once when its
 * connection ends, and checks it every check interval so that a connection that stopped answering (a
 * network partition) ends its term too.
 */
import { createHash } from 'node:crypto'
import type pg from 'pg'
import type { Clock, Timer } from '../../platform/events.js'
import type { EngineLease, EngineOwnership } from '../../platform/telephony/engine-lease.js'
import { EngineTerm } from '../engine-term.js'
import type { DatabaseTarget } from './database.js'
import { ENGINE_LEASE_NAME } from './engine-fence.js'

/** How often a node that does not own the engine tries to take it, by default. */
export const DEFAULT_RETRY_INTERVAL_MS = 500
/** How often the owner checks that its connection answers and its epoch is the lease's, by default. */
export const DEFAULT_CHECK_INTERVAL_MS = 1_000
/** How long the owner's check may wait for an answer before its term ends, by default. */
export const DEFAULT_CHECK_TIMEOUT_MS = 3_000

/** Where the lease is and how often it is tried and checked. */
export interface SqlEngineLeaseOptions {
  /** The service's PostgreSQL database; the lease's row is in `schema` (the connection's current one if none). */
  target: Extract<DatabaseTarget, { kind: 'postgres' }>
  /** This node's name, written in the lease's row when it takes it. */
  nodeId: string
  clock: Clock
  retryIntervalMs?: number
  checkIntervalMs?: number
  checkTimeoutMs?: number
  /** The lease's row and lock; ENGINE_LEASE_NAME when absent. */
  lease?: string
  /** Told of each try that failed for another reason than the lock being taken; the tries go on. */
  onRetryError?: (error: unknown) => void
}

/** The lease's connection, and whether it is still the one the lease uses. */
interface LeaseConnection {
  client: pg.Client
  isAlive: boolean
}

const TRY_LOCK = 'select pg_try_advisory_lock($1::bigint) as locked'
const UNLOCK = 'select pg_advisory_unlock($1::bigint)'
const TAKE_LEASE = `insert into engine_lease (name, epoch, owner_node, acquired_at) values ($1, 1, $2, $3)
  on conflict (name) do update set epoch = engine_lease.epoch + 1, owner_node = excluded.owner_node,
  acquired_at = excluded.acquired_at
  returning epoch`
const READ_EPOCH = 'select epoch from engine_lease where name = $1'

export class SqlEngineLease implements EngineLease {
  readonly #target: SqlEngineLeaseOptions['target']
  readonly #nodeId: string
  readonly #clock: Clock
  readonly #retryIntervalMs: number
  readonly #checkIntervalMs: number
  readonly #checkTimeoutMs: number
  readonly #lease: string
  readonly #onRetryError: (error: unknown) => void
  #connection: LeaseConnection | undefined
  /** The advisory lock's key, known once the schema is (lockKey). */
  #key: string | undefined
  #term: EngineTerm | undefined
  #check: Timer | undefined
  #isAcquiring = false
  #isClosed = false
  /** Ends the pause between two tries at once (close). */
  #wake: (() => void) | undefined

  constructor(options: SqlEngineLeaseOptions) {
    this.#target = options.target
    this.#nodeId = options.nodeId
    this.#clock = options.clock
    this.#retryIntervalMs = options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS
    this.#checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS
    this.#checkTimeoutMs = options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS
    this.#lease = options.lease ?? ENGINE_LEASE_NAME
    this.#onRetryError = options.onRetryError ?? (() => {})
  }

  /** Tries the lock at once, then every retry interval, until this node takes it (or the lease closes). */
  async acquire(): Promise<EngineOwnership> {
    if (this.#isClosed) throw closedError()
    if (this.#isAcquiring || this.#term?.isHeld)
      throw new Error('This node owns the call engine or is trying to already')
    this.#isAcquiring = true
    try {
      for (;;) {
        let term: EngineTerm | undefined
        try {
          term = await this.#tryOnce()
        } catch (error) {
          if (!this.#isClosed) this.#onRetryError(error)
        }
        if (this.#isClosed) {
          await term?.release()
          throw closedError()
        }
        if (term !== undefined) return term
        await this.#pause()
      }
    } finally {
      this.#isAcquiring = false
    }
  }

  /** Ends the term if one holds (`released`) and closes the connection, which frees the lock if held. */
  async close(): Promise<void> {
    this.#isClosed = true
    this.#wake?.()
    this.#stopCheck()
    this.#term?.end({ reason: 'released' })
    const connection = this.#connection
    this.#connection = undefined
    if (connection === undefined) return
    connection.isAlive = false
    await connection.client.end().catch(() => {})
  }

  /** One try: the lock, then the lease's next epoch; undefined when another node holds the lock. */
  async #tryOnce(): Promise<EngineTerm | undefined> {
    const connection = this.#connection ?? (await this.#open())
    const key = this.#key as string
    try {
      const { rows } = await connection.client.query<{ locked: boolean }>(TRY_LOCK, [key])
      if (rows[0]?.locked !== true) return undefined
      const taken = await connection.client.query<{ epoch: string }>(TAKE_LEASE, [
        this.#lease,
        this.#nodeId,
        this.#clock.now(),
      ])
      const epoch = Number(taken.rows[0]?.epoch)
      // The connection may have ended while the epoch was taken: its lock is gone with it.
      if (!connection.isAlive) throw new Error('The engine lease connection ended as it was taken')
      const term = new EngineTerm(epoch, (held) => this.#giveUp(connection, held))
      this.#term = term
      this.#armCheck(connection, term)
      return term
    } catch (error) {
      // A fresh connection at the next try; ending this one frees the lock if it was taken.
      this.#drop(connection, error)
      throw error
    }
  }

  /** Connects, on the target's schema, and learns the lock's key. */
  async #open(): Promise<LeaseConnection> {
    const { default: pg } = await import('pg')
    const client = new pg.Client({
      connectionString: this.#target.connectionString,
      application_name: `openness engine lease (${this.#nodeId})`,
      keepAlive: true,
    })
    const connection: LeaseConnection = { client, isAlive: true }
    // Without a listener an error on the idle connection would crash the process; it ends the term instead.
    client.on('error', (error) => this.#drop(connection, error))
    client.on('end', () => this.#drop(connection, new Error('The engine lease connection ended')))
    try {
      await client.connect()
      const { schema } = this.#target
      if (schema !== undefined)
        await client.query(`set search_path to ${pg.escapeIdentifier(schema)}`)
      if (this.#key === undefined) {
        const { rows } = await client.query<{ name: string | null }>(
          'select current_schema() as name',
        )
        this.#key = lockKey(rows[0]?.name ?? '', this.#lease)
      }
    } catch (error) {
      connection.isAlive = false
      await client.end().catch(() => {})
      throw error
    }
    if (this.#isClosed) {
      connection.isAlive = false
      await client.end().catch(() => {})
      throw closedError()
    }
    this.#connection = connection
    return connection
  }

  /** Gives the term up: it ends (`released`), then the lock is freed for the next node to take. */
  async #giveUp(connection: LeaseConnection, term: EngineTerm): Promise<void> {
    this.#stopCheck()
    term.end({ reason: 'released' })
    if (!connection.isAlive) return
    try {
      await connection.client.query(UNLOCK, [this.#key])
    } catch (error) {
      // The connection is gone, and the lock with it.
      this.#drop(connection, error)
    }
  }

  /** The connection failed or ended: the term it held ends (`connection-lost`), the next try reconnects. */
  #drop(connection: LeaseConnection, cause: unknown): void {
    if (!connection.isAlive) return
    connection.isAlive = false
    if (this.#connection === connection) this.#connection = undefined
    this.#stopCheck()
    this.#term?.end({ reason: 'connection-lost', cause })
    void connection.client.end().catch(() => {})
  }

  #armCheck(connection: LeaseConnection, term: EngineTerm): void {
    this.#check = this.#clock.setTimer(this.#checkIntervalMs, () => {
      this.#check = undefined
      void this.#runCheck(connection, term)
    })
  }

  #stopCheck(): void {
    this.#check?.cancel()
    this.#check = undefined
  }

  /**
   * Reads the lease's epoch on the owner's connection: no answer within the check timeout ends the term
   * (`connection-lost`), another epoch too (`superseded`); both drop the connection, freeing the lock.
   */
  async #runCheck(connection: LeaseConnection, term: EngineTerm): Promise<void> {
    let timeout: Timer | undefined
    const answer = await Promise.race([
      connection.client.query<{ epoch: string }>(READ_EPOCH, [this.#lease]).then(
        ({ rows }) => ({ epoch: Number(rows[0]?.epoch) }),
        (cause: unknown) => ({ cause }),
      ),
      new Promise<{ cause: unknown }>((resolve) => {
        timeout = this.#clock.setTimer(this.#checkTimeoutMs, () =>
          resolve({ cause: new Error(`The engine lease connection did not answer in time`) }),
        )
      }),
    ])
    timeout?.cancel()
    if (!term.isHeld) return
    if ('cause' in answer) {
      this.#drop(connection, answer.cause)
    } else if (answer.epoch !== term.epoch) {
      term.end({ reason: 'superseded', cause: new Error(`The lease's epoch is ${answer.epoch}`) })
      this.#drop(connection, undefined)
    } else {
      this.#armCheck(connection, term)
    }
  }

  /** Waits one retry interval, or less when the lease closes. */
  #pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.#clock.setTimer(this.#retryIntervalMs, () => {
        this.#wake = undefined
        resolve()
      })
      this.#wake = () => {
        timer.cancel()
        this.#wake = undefined
        resolve()
      }
    })
  }
}

/**
 * The advisory lock's key: advisory locks are per database, not per schema, so the key names both the schema
 * and the lease; it is the first 8 bytes of the SHA-256 of `openness engine lease <schema>.<lease>`, as a
 * signed 64-bit integer.
 */
export function lockKey(schema: string, lease: string): string {
  const digest = createHash('sha256').update(`openness engine lease ${schema}.${lease}`).digest()
  return digest.readBigInt64BE(0).toString()
}

function closedError(): Error {
  return new Error('The engine lease is closed')
}
