/**
 * The AcdTicketStore port in the `acd_ticket` table (migration 0013): one row per ticket, a column per field.
 * Tickets are never changed, so several nodes append at once without reading (docs/ports.md, "Several
 * writers"): an insert that finds the ticket id taken writes nothing, and the rows of one append are inserted
 * in ticket id order, so two appends of the same tickets never wait for each other in a circle.
 */
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import {
  type AcdTicket,
  TICKET_OUTCOMES,
  type TicketOutcome,
} from '../../platform/acd/acd-ticket.js'
import {
  type AcdTicketStore,
  type TicketQuery,
  ticketLimit,
} from '../../platform/acd/acd-ticket-store.js'
import type { DirectoryDatabase } from './database.js'

/** One row per ticket (migration 0013); times and durations in milliseconds, absent fields null. */
export interface AcdTicketTable {
  ticket_id: string
  pilot: string
  queue: string | null
  processing_group: string | null
  caller: string
  call_ref: string
  arrived_at: number | string
  queued_at: number | string | null
  answered_at: number | string | null
  ended_at: number | string
  closed_at: number | string
  agent: string | null
  offers: number
  refusals: number
  wait_ms: number | string
  queue_wait_ms: number | string
  handling_ms: number | string
  wrap_up_ms: number | string
  outcome: string
  overflow_to: string | null
  transaction_code: string | null
}

/** The tickets' table, as Kysely sees it (`acdTicketTables(db)`). */
export type AcdTicketDatabase = {
  acd_ticket: AcdTicketTable
}

/** The database `openDatabase` returned, seen through its tickets' table (the same instance). */
export function acdTicketTables(db: Kysely<DirectoryDatabase>): Kysely<AcdTicketDatabase> {
  return db as unknown as Kysely<AcdTicketDatabase>
}

/** At 21 parameters a row, a batch stays under the 999-parameter bound of older SQLite builds. */
const INSERT_BATCH_SIZE = 40

export class SqlAcdTicketStore implements AcdTicketStore {
  /** Uses `db` (from `acdTicketTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<AcdTicketDatabase>) {}

  async append(tickets: readonly AcdTicket[]): Promise<void> {
    // Of the tickets that share an id the first is stored, as a stored ticket is kept over one appended later.
    const firsts = new Map<string, AcdTicket>()
    for (const ticket of tickets)
      if (!firsts.has(ticket.ticketId)) firsts.set(ticket.ticketId, ticket)
    if (firsts.size === 0) return
    const rows = [...firsts.values()].sort(byTicketId).map(rowOf)
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += INSERT_BATCH_SIZE)
        await trx
          .insertInto('acd_ticket')
          .values(rows.slice(start, start + INSERT_BATCH_SIZE))
          .onConflict((oc) => oc.column('ticket_id').doNothing())
          .execute()
    })
  }

  async list(query: TicketQuery): Promise<AcdTicket[]> {
    const limit = ticketLimit(query)
    const { pilots, agents, after } = query
    // An empty list of pilots or agents names none (and `in ()` is no SQL).
    if (limit === 0 || pilots?.length === 0 || agents?.length === 0) return []
    let select = this.db
      .selectFrom('acd_ticket')
      .selectAll()
      .where('closed_at', '>=', query.from)
      .where('closed_at', '<', query.to)
    if (pilots !== undefined) select = select.where('pilot', 'in', pilots)
    if (agents !== undefined) select = select.where('agent', 'in', agents)
    if (after !== undefined)
      // A row value, compared as the index orders it; a cursor stored nowhere compares with null: no row.
      select = select.where((eb) => {
        const cursor = eb
          .selectFrom('acd_ticket as cursor')
          .select(['cursor.closed_at', 'cursor.ticket_id'])
          .where('cursor.ticket_id', '=', after)
        return sql<boolean>`${eb.refTuple('closed_at', 'ticket_id')} > ${cursor}`
      })
    const rows = await select.orderBy('closed_at').orderBy('ticket_id').limit(limit).execute()
    return rows.map(ticketOf)
  }

  async prune(before: number): Promise<number> {
    const { numDeletedRows } = await this.db
      .deleteFrom('acd_ticket')
      .where('closed_at', '<', before)
      .executeTakeFirst()
    return Number(numDeletedRows)
  }
}

/** Code point order, as the `ticket_id` column's collation compares on every dialect (migration 0013). */
function byTicketId(a: AcdTicket, b: AcdTicket): number {
  return Buffer.compare(Buffer.from(a.ticketId), Buffer.from(b.ticketId))
}

function rowOf(ticket: AcdTicket): Insertable<AcdTicketTable> {
  return {
    ticket_id: ticket.ticketId,
    pilot: ticket.pilot,
    queue: ticket.queue ?? null,
    processing_group: ticket.processingGroup ?? null,
    caller: ticket.caller,
    call_ref: ticket.callRef,
    arrived_at: ticket.arrivedAt,
    queued_at: ticket.queuedAt ?? null,
    answered_at: ticket.answeredAt ?? null,
    ended_at: ticket.endedAt,
    closed_at: ticket.closedAt,
    agent: ticket.agent ?? null,
    offers: ticket.offers,
    refusals: ticket.refusals,
    wait_ms: ticket.waitMs,
    queue_wait_ms: ticket.queueWaitMs,
    handling_ms: ticket.handlingMs,
    wrap_up_ms: ticket.wrapUpMs,
    outcome: ticket.outcome,
    overflow_to: ticket.overflowTo ?? null,
    transaction_code: ticket.transactionCode ?? null,
  }
}

/** The ticket a row holds, its null columns left out (PostgreSQL answers a bigint as a string). */
function ticketOf(row: Selectable<AcdTicketTable>): AcdTicket {
  return {
    ticketId: row.ticket_id,
    pilot: row.pilot,
    ...(row.queue !== null && { queue: row.queue }),
    ...(row.processing_group !== null && { processingGroup: row.processing_group }),
    caller: row.caller,
    callRef: row.call_ref,
    arrivedAt: Number(row.arrived_at),
    ...(row.queued_at !== null && { queuedAt: Number(row.queued_at) }),
    ...(row.answered_at !== null && { answeredAt: Number(row.answered_at) }),
    endedAt: Number(row.ended_at),
    closedAt: Number(row.closed_at),
    ...(row.agent !== null && { agent: row.agent }),
    offers: Number(row.offers),
    refusals: Number(row.refusals),
    waitMs: Number(row.wait_ms),
    queueWaitMs: Number(row.queue_wait_ms),
    handlingMs: Number(row.handling_ms),
    wrapUpMs: Number(row.wrap_up_ms),
    outcome: outcomeOf(row),
    ...(row.overflow_to !== null && { overflowTo: row.overflow_to }),
    ...(row.transaction_code !== null && { transactionCode: row.transaction_code }),
  }
}

function outcomeOf(row: Selectable<AcdTicketTable>): TicketOutcome {
  const outcome = TICKET_OUTCOMES.find((known) => known === row.outcome)
  if (outcome === undefined)
    throw new Error(`Ticket ${row.ticket_id} has an unknown outcome ${row.outcome}`)
  return outcome
}
