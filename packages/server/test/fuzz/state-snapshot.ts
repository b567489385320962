/**
 * What a refused request must leave as it was, read whole before and after it: every table of the durable store
 * (accounts with their passwords and preferences, calls and devices, routing, the communication log, voice
 * messages, the clock's offset), what the platform holds in memory of it (the directory's accounts, the call
 * engine's state, each user's routing), and the shared state (open sessions, subscriptions, licenses in use,
 * supervised users, directory searches). A few hundred rows of the demo directory: a millisecond or so.
 *
 * Left out, each on purpose: the failed logins the throttle counts (an authentication refused is counted: that
 * is the throttle); the communication log's index by user (`comlog_user_index` and its mark), which every query
 * through it first brings up to date with the records (docs/comlog.md, "Storage"): derived from
 * `comlog_record`, which is in; and the events a request publishes (a refused routing change tells OnRoutingManagementFailed,
 * docs/routing.md). The clock does not move during a run, so a session's timer, which every request with a session
 * restarts (specification, session lifecycle), stays where it was too.
 */
import { createHash } from 'node:crypto'
import { USER_RIGHTS } from '@openness/wire'
import { sql } from 'kysely'
import type { RunningPlatform } from '../../src/assembly/service.js'

/** Each part of the state as stable JSON, by name. */
export type StateSnapshot = Record<string, string>

/** Reads the state of `running` whole. */
export async function stateSnapshot(running: RunningPlatform): Promise<StateSnapshot> {
  const { platform, sharedState, telephony } = running
  const now = platform.clock.now()
  const openSessions = await sharedState.sessions.openSessions()
  const accounts = [...platform.directory.accounts()]
  const parts: Record<string, unknown> = {
    ...(await databaseTables(running)),
    accounts,
    routing: accounts.map((account) => platform.routing.lookup(account.loginName) ?? null),
    calls: telephony.state,
    sessions: openSessions,
    subscriptions: await sharedState.subscriptions.all(),
    licenses: await Promise.all(USER_RIGHTS.map((right) => sharedState.licenses.inUse(right))),
    licenseHolders: await sharedState.licenses.holdingSessions(Number.MAX_SAFE_INTEGER, 10_000),
    supervised: await sharedState.supervision.count(),
    searches: await Promise.all(
      openSessions.map((session) => sharedState.searchContexts.contexts(session.sessionId, now)),
    ),
  }
  const snapshot: StateSnapshot = {}
  for (const [name, value] of Object.entries(parts)) snapshot[name] = JSON.stringify(value)
  return snapshot
}

/** The parts that differ between two snapshots, each with where it starts to differ. */
export function stateChanges(before: StateSnapshot, after: StateSnapshot): string[] {
  const changes: string[] = []
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, is] = [before[name] ?? '', after[name] ?? '']
    if (was === is) continue
    let at = 0
    while (at < was.length && was[at] === is[at]) at++
    const around = (text: string) => text.slice(Math.max(0, at - 80), at + 120)
    changes.push(`${name}: was …${around(was)}… now …${around(is)}…`)
  }
  return changes
}

/** Tables derived from others, which reads bring up to date (above). */
const DERIVED_TABLES = ['comlog_user_index', 'comlog_index_mark']

/** Every table of the database but the migrator's and the derived ones, each row as JSON, binary columns as their digest. */
async function databaseTables(running: RunningPlatform): Promise<Record<string, unknown>> {
  const db = running.database
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'kysely_%'
      and name not in (${sql.join(DERIVED_TABLES)}) order by name
  `.execute(db)
  const dump: Record<string, unknown> = {}
  for (const { name } of tables.rows) {
    const rows = await sql.raw<Record<string, unknown>>(`select * from "${name}"`).execute(db)
    // Sorted here: some tables have no rowid to order by, and the order of rows is no state.
    dump[`table ${name}`] = rows.rows.map((row) => JSON.stringify(digestBinaries(row))).sort()
  }
  return dump
}

function digestBinaries(row: Record<string, unknown>): Record<string, unknown> {
  const shown: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(row))
    shown[column] =
      value instanceof Uint8Array
        ? `sha256:${createHash('sha256').update(value).digest('hex')}`
        : value
  return shown
}
