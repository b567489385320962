// The communication log on a large history: 1,000,000 records of 1,000 users (1,000 each, over a year) in a
// durable SQLite file, filled once with the table's own statement and indexed by the first query; then the queries the API runs, through
// SqlComlogStore as GET /comlog/records and GET /eventSummary run them, for a random user each time: the
// first page (the count of all the user's records and the 100 newest, parsed), the same filtered on
// unanswered calls, and the event summary's count of unacknowledged missed calls. Reports each one's p99
// over the round's queries. No baseline: the store's own latency is the figure (docs/performance.md).
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { callTables, openDatabase } from '../../packages/server/dist/storage/sql/database.js'
import { SqlComlogStore } from '../../packages/server/dist/storage/sql/sql-comlog-store.js'
import { latencySummary } from '../lib/stats.mjs'

const USERS = 1_000
const YEAR_MS = 365 * 86_400_000
const START = Date.UTC(2025, 0, 1)

export default {
  name: 'comlog-query',
  title: "Communication log: one user's first page among 1,000,000 records (SQLite file)",
  order: 70,
  timeoutS: 300,
  baseline: undefined,
  figures: [
    {
      key: 'firstPage',
      label: 'first page (count + 100 newest), p99',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 10, text: '< 10 ms' },
    },
    { key: 'unanswered', label: 'first page of unanswered calls, p99', unit: 'ms' },
    { key: 'missed', label: 'event summary: unacknowledged missed calls, p99', unit: 'ms' },
  ],
  async run(ctx) {
    const records = ctx.scale(1_000_000, 5_000)
    const filename = join(ctx.tempDir('comlog-'), 'comlog.sqlite3')
    const began = performance.now()
    await (await openDatabase({ kind: 'sqlite', filename })).destroy()
    fill(filename, records)
    ctx.note(
      `${records.toLocaleString('en')} records filled in ${((performance.now() - began) / 1000).toFixed(1)} s`,
    )
    const db = callTables(await openDatabase({ kind: 'sqlite', filename }))
    const store = new SqlComlogStore(db)
    // The records were filled as the call store appends them, without the index by user and date: the
    // first query indexes them all (comlog-user-index.ts), as after a bulk import.
    const indexing = performance.now()
    await store.findRecords('user0', {}, { offset: 0, limit: 1 })
    ctx.note(
      `indexed by user and date in ${((performance.now() - indexing) / 1000).toFixed(1)} s (the first query)`,
    )
    const queries = ctx.scale(2_000, 50)
    const user = () => `user${Math.floor(Math.random() * USERS)}`
    const timed = async (query) => {
      const latencies = []
      for (let i = 0; i < queries; i++) {
        const start = performance.now()
        await query(user())
        latencies.push(performance.now() - start)
      }
      return latencySummary(latencies).p99
    }
    const page = { offset: 0, limit: 100 }
    await ctx.interleave(
      {
        firstPage: async () => ({ firstPage: await timed((u) => store.findRecords(u, {}, page)) }),
        unanswered: async () => ({
          unanswered: await timed((u) => store.findRecords(u, { unansweredOnly: true }, page)),
        }),
        missed: async () => ({ missed: await timed((u) => store.countUnacknowledgedMissed(u)) }),
      },
      { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) },
    )
    ctx.usedGenerator('in process')
    await db.destroy()
  },
}

/** Fills the log with `count` records spread over the users and a year, in one transaction. */
function fill(filename, count) {
  const sqlite = new SQLite(filename)
  const insert = sqlite.prepare(
    `insert into comlog_record (record_id, login_name, begin_at, com_ref, role, answered, acknowledged,
       missed, reason, remote_ids, record) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  sqlite.transaction(() => {
    for (let id = 1; id <= count; id++) {
      const owner = id % USERS
      const other = (id * 7) % USERS
      const beginAt = START + Math.floor((id / count) * YEAR_MS)
      const role = id % 2 === 0 ? 'CALLER' : 'CALLEE'
      const answered = id % 5 !== 0
      const reason = answered ? 'NORMAL' : 'ABANDONED'
      const record = {
        comRef: id.toString(16).padStart(16, '0'),
        participants: [
          {
            role,
            answered,
            identity: { id: { loginName: `user${owner}`, phoneNumber: String(20000 + owner) } },
            reason,
            leg: String(20000 + owner),
          },
          {
            role: role === 'CALLER' ? 'CALLEE' : 'CALLER',
            answered,
            identity: { id: { loginName: `user${other}`, phoneNumber: String(20000 + other) } },
            reason,
          },
        ],
        beginDate: new Date(beginAt).toISOString(),
        endDate: new Date(beginAt + 60_000).toISOString(),
        holdDuration: 0,
      }
      insert.run(
        id,
        `user${owner}`,
        beginAt,
        record.comRef,
        role,
        answered ? 1 : 0,
        id % 3 === 0 ? 1 : 0,
        role === 'CALLEE' && !answered ? 1 : 0,
        reason,
        `|user${other}|${20000 + other}|`,
        JSON.stringify(record),
      )
    }
  })()
  sqlite.close()
}
