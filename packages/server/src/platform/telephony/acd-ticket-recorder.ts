/**
 * Moves the contact center's closed tickets from the engine's state to the ticket store (docs/contact-center.md,
 * "Tickets"): the engine closes a ticket into its outbox, in the same stored batch as the call that closed it,
 * so that a ticket survives whatever happens next; this recorder, on the node that runs the engine, appends the
 * outbox to the store and then has the engine forget what the store holds (`acdTicketsStored`). An append is
 * idempotent by ticket id, so a ticket appended again after a crash between the two steps is stored once.
 */
import type { AcdTicketStore } from '../acd/acd-ticket-store.js'
import type { CommandResult } from './telephony.js'
import type { Committed } from './telephony-service.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'

/** How many tickets one append takes at most. */
const BATCH = 500

export interface AcdTicketRecorderOptions {
  store: AcdTicketStore
  /** The engine's state as last stored, and its commands. */
  engine: () =>
    | { readonly state: TelephonyState; execute(command: EngineCommand): Promise<CommandResult> }
    | undefined
  /** Told of an append or a command that failed; the tickets stay in the outbox and are tried again. */
  onError: (error: unknown, what: string) => void
}

export class AcdTicketRecorder {
  readonly #options: AcdTicketRecorderOptions
  #draining: Promise<void> | undefined
  #again = false

  constructor(options: AcdTicketRecorderOptions) {
    this.#options = options
  }

  /** After each command of the engine: drains the outbox when it holds tickets. */
  engineCommitted({ after }: Committed): void {
    if ((after.acd?.outbox.length ?? 0) > 0) this.drain()
  }

  /**
   * Appends the outbox to the store, then has the engine drop what was appended; again while tickets remain.
   * One drain at a time; resolves once the outbox is empty or an attempt failed (the next commit tries again).
   */
  drain(): Promise<void> {
    if (this.#draining !== undefined) {
      this.#again = true
      return this.#draining
    }
    this.#draining = this.#run().finally(() => {
      this.#draining = undefined
    })
    return this.#draining
  }

  async #run(): Promise<void> {
    do {
      this.#again = false
      const engine = this.#options.engine()
      const tickets = engine?.state.acd?.outbox.slice(0, BATCH) ?? []
      if (engine === undefined || tickets.length === 0) return
      try {
        await this.#options.store.append(tickets)
        await engine.execute({
          type: 'acdTicketsStored',
          ticketIds: tickets.map((ticket) => ticket.ticketId),
        })
      } catch (error) {
        this.#options.onError(error, 'the ACD tickets were not stored (they stay in the outbox)')
        return
      }
      if ((engine.state.acd?.outbox.length ?? 0) > 0) this.#again = true
    } while (this.#again)
  }
}
