/**
 * The platform's records, assembled: the communication log, the event summary that counts from it, the voice
 * mail, the deposits that record callers' messages, and the mini messages. Each tells the others of its changes
 * (a record refreshes a summary, a message left ends a call), and the call engine feeds the log and the deposits.
 */
import type { Kysely } from 'kysely'
import type { EventRouter } from '../delivery/event-router.js'
import type { AcdTicketStore } from '../platform/acd/acd-ticket-store.js'
import { ComlogService } from '../platform/comlog/comlog-service.js'
import { EventSummaryService } from '../platform/comlog/event-summary.js'
import type { Directory } from '../platform/directory/directory.js'
import type { Clock } from '../platform/events.js'
import { MiniMessageService } from '../platform/mini-messages/mini-message-service.js'
import type { DirectoryTelephony } from '../platform/telephony/directory-telephony.js'
import type { Telephony } from '../platform/telephony/telephony.js'
import { VoicemailDeposits } from '../platform/voicemail/voicemail-deposits.js'
import { VoicemailService } from '../platform/voicemail/voicemail-service.js'
import {
  callTables,
  type DirectoryDatabase,
  miniMessageTables,
  voicemailTables,
} from '../storage/sql/database.js'
import { acdTicketTables, SqlAcdTicketStore } from '../storage/sql/sql-acd-ticket-store.js'
import { SqlComlogStore } from '../storage/sql/sql-comlog-store.js'
import { SqlMiniMessageStore } from '../storage/sql/sql-mini-message-store.js'
import { SqlVoicemailStore } from '../storage/sql/sql-voicemail-store.js'

/** The records of a started platform. */
export interface Records {
  comlog: ComlogService
  eventSummary: EventSummaryService
  voicemail: VoicemailService
  voicemailDeposits: VoicemailDeposits
  miniMessages: MiniMessageService
  acdTickets: AcdTicketStore
}

/** What the records are built from. */
export interface RecordsParts {
  db: Kysely<DirectoryDatabase>
  directory: Directory
  telephonyDirectory: DirectoryTelephony
  clock: Clock
  events: EventRouter
  /** The call engine, started after the records (it writes to them): read when a record needs it. */
  telephony: () => Telephony
  /** The longest voice message, seconds; the deposits' default otherwise. */
  maxVoiceMessageSeconds?: number
  reportError: (error: unknown, what: string) => void
}

/** Builds the records, on the durable store's database. */
export function startRecords(parts: RecordsParts): Records {
  const { clock, events, reportError } = parts
  const comlogStore = new SqlComlogStore(callTables(parts.db))
  const eventSummary = new EventSummaryService(
    {
      missedCalls: (loginName) => comlogStore.countUnacknowledgedMissed(loginName),
      callbackRequests: (loginName) => parts.telephony().state.callbacks?.[loginName]?.length ?? 0,
      voiceMessages: (loginName): Promise<number> => voicemail.unreadCount(loginName),
      textMessages: (loginName): Promise<number> => miniMessages.unreadCount(loginName),
    },
    events,
    (error, loginName) => reportError(error, `the event summary of ${loginName} was not refreshed`),
  )
  const comlog = new ComlogService(comlogStore, events, eventSummary)
  const voicemail: VoicemailService = new VoicemailService({
    store: new SqlVoicemailStore(voicemailTables(parts.db)),
    directory: parts.directory,
    clock,
    events,
    summary: eventSummary,
  })
  const voicemailDeposits = new VoicemailDeposits({
    voicemail,
    directory: parts.telephonyDirectory,
    clock,
    execute: (command) => parts.telephony().execute(command),
    onError: reportError,
    ...(parts.maxVoiceMessageSeconds !== undefined && {
      maxMessageSeconds: parts.maxVoiceMessageSeconds,
    }),
  })
  const miniMessages: MiniMessageService = new MiniMessageService({
    store: new SqlMiniMessageStore(miniMessageTables(parts.db)),
    directory: parts.directory,
    clock,
    summary: eventSummary,
  })
  // The contact center's tickets are durable records, as the log's (docs/contact-center.md, "Tickets").
  const acdTickets = new SqlAcdTicketStore(acdTicketTables(parts.db))
  return { comlog, eventSummary, voicemail, voicemailDeposits, miniMessages, acdTickets }
}
