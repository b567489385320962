/** The AcdTicketStore port in memory: for unit tests, and the conformance suite's reference. */
import type { AcdTicket } from '../../platform/acd/acd-ticket.js'
import {
  type AcdTicketStore,
  type TicketQuery,
  ticketLimit,
} from '../../platform/acd/acd-ticket-store.js'

export class MemoryAcdTicketStore implements AcdTicketStore {
  /** The tickets by id; copies in and out, as the SQL store's rows are. */
  readonly #tickets = new Map<string, AcdTicket>()

  async append(tickets: readonly AcdTicket[]): Promise<void> {
    for (const ticket of tickets)
      if (!this.#tickets.has(ticket.ticketId)) this.#tickets.set(ticket.ticketId, { ...ticket })
  }

  async list(query: TicketQuery): Promise<AcdTicket[]> {
    const { pilots, agents, after } = query
    const cursor = after === undefined ? undefined : this.#tickets.get(after)
    // A cursor stored nowhere has no place in the order: no ticket comes after it.
    if (after !== undefined && cursor === undefined) return []
    return [...this.#tickets.values()]
      .filter(
        (ticket) =>
          ticket.closedAt >= query.from &&
          ticket.closedAt < query.to &&
          (pilots === undefined || pilots.includes(ticket.pilot)) &&
          (agents === undefined || (ticket.agent !== undefined && agents.includes(ticket.agent))) &&
          (cursor === undefined || inOrder(cursor, ticket) < 0),
      )
      .sort(inOrder)
      .slice(0, ticketLimit(query))
      .map((ticket) => ({ ...ticket }))
  }

  async prune(before: number): Promise<number> {
    let pruned = 0
    for (const [ticketId, ticket] of this.#tickets)
      if (ticket.closedAt < before) {
        this.#tickets.delete(ticketId)
        pruned += 1
      }
    return pruned
  }
}

/** (closedAt, ticketId) order, ids by code point as the SQL store's collation compares them. */
function inOrder(a: AcdTicket, b: AcdTicket): number {
  return a.closedAt - b.closedAt || Buffer.compare(Buffer.from(a.ticketId), Buffer.from(b.ticketId))
}
