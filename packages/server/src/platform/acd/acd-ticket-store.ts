/** The ACD tickets' port (docs/contact-center.md, "Tickets"): the durable record of every ACD call. */
import type { AcdTicket } from './acd-ticket.js'

/** The tickets `list` answers when the query sets no limit. */
export const DEFAULT_TICKET_LIMIT = 1000
/** The most tickets one `list` answers, whatever the query's limit. */
export const MAX_TICKET_LIMIT = 10_000

/**
 * Which tickets `list` answers: those closed in [from, to), of the pilots and agents named (an empty list names
 * none), after the `after` cursor.
 */
export interface TicketQuery {
  /** The earliest closedAt answered (ms since the epoch, included). */
  from: number
  /** The closedAt answered tickets are before (ms since the epoch, excluded). */
  to: number
  /** Only the tickets of these pilots. */
  pilots?: string[]
  /** Only the tickets these agents answered (a ticket no agent answered matches none). */
  agents?: string[]
  /** At most this many tickets: DEFAULT_TICKET_LIMIT when unset, never more than MAX_TICKET_LIMIT. */
  limit?: number
  /**
   * A ticketId cursor: only the tickets closed after this one in (closedAt, ticketId) order, so that the last
   * ticket of a page asks for the next. A cursor that names no stored ticket (pruned, or never stored) matches
   * none.
   */
  after?: string
}

/**
 * The tickets of the ACD calls, durable (SQL in both modes), in (closedAt, ticketId) order: ticketIds compare
 * by code point, the same on every adapter. A ticket is written once and never changed; it leaves the store
 * only when pruned. Every node of a cluster may append at once: a ticket is stored once whoever appends it.
 */
export interface AcdTicketStore {
  /**
   * Appends the tickets in one transaction: all of them or none. A ticket whose ticketId is stored already is
   * skipped, and so is one whose ticketId an earlier ticket of the same call has (the first is stored): an
   * append retried stores nothing twice. An empty list writes nothing.
   */
  append(tickets: readonly AcdTicket[]): Promise<void>
  /**
   * The tickets with from <= closedAt < to that match the query's filters, ordered by closedAt then ticketId,
   * at most the query's limit (default DEFAULT_TICKET_LIMIT, at most MAX_TICKET_LIMIT). The fields a ticket
   * was appended without are absent from it.
   */
  list(query: TicketQuery): Promise<AcdTicket[]>
  /** Deletes the tickets closed before `before` (closedAt < before); resolves to how many it deleted. */
  prune(before: number): Promise<number>
}

/** The number of tickets a query answers at most: its limit, bounded to [0, MAX_TICKET_LIMIT]. */
export function ticketLimit(query: TicketQuery): number {
  const limit = Math.floor(query.limit ?? DEFAULT_TICKET_LIMIT)
  return Number.isNaN(limit) ? DEFAULT_TICKET_LIMIT : Math.min(Math.max(limit, 0), MAX_TICKET_LIMIT)
}
