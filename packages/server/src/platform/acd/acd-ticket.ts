/** The contact center's record of each ACD call (docs/contact-center.md, "Tickets"). */

/** How an ACD call ended for the contact center. */
export const TICKET_OUTCOMES = ['SERVED', 'ABANDONED', 'DISSUADED', 'OVERFLOWED'] as const
export type TicketOutcome = (typeof TICKET_OUTCOMES)[number]

/**
 * One ACD call's passage through a pilot (docs/contact-center.md, "Tickets"). Times in ms since the epoch,
 * durations in ms.
 */
export interface AcdTicket {
  /** Unique: an append of a ticket already stored is ignored (idempotent). */
  ticketId: string
  /** The pilot number. */
  pilot: string
  /** The number of the queue the call waited in. */
  queue?: string
  /** The processing group of the agent who answered (or of the queue). */
  processingGroup?: string
  /** The caller's number. */
  caller: string
  /** The call's reference. */
  callRef: string
  /** When the call reached the pilot. */
  arrivedAt: number
  /** When the call entered the queue. */
  queuedAt?: number
  /** When an agent answered. */
  answeredAt?: number
  /** When the call left the pilot or the agent's call ended. */
  endedAt: number
  /** When the ticket closed (after wrap-up for a served call); the store orders by it. */
  closedAt: number
  /** The login name of the agent who answered. */
  agent?: string
  /** How many times the call was offered to an agent. */
  offers: number
  /** The offers not answered. */
  refusals: number
  /** Arrival to answer (served) or to end. */
  waitMs: number
  /** The time spent waiting in queue. */
  queueWaitMs: number
  /** Answer to end of the agent's call (0 when not served). */
  handlingMs: number
  /** The wrap-up after the call (0 when none). */
  wrapUpMs: number
  /** How the call ended for the contact center. */
  outcome: TicketOutcome
  /** Where an OVERFLOWED call went. */
  overflowTo?: string
  /** The account info the agent sent. */
  transactionCode?: string
}
