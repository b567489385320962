/**
 * PostgreSQL for tests that need the real server (the engine lease's election, docs/cluster.md): DATABASE_URL
 * names it when it is a PostgreSQL URL; each suite gets a schema of its own, migrated, so that concurrent runs
 * never meet, and dropped after it. Suites declare themselves with `describeWithPostgres`, which skips them,
 * with the reason, when no PostgreSQL server is named.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe } from 'vitest'
import type { DatabaseTarget } from '../../src/storage/sql/database.js'

/** A PostgreSQL target on a schema of the suite's own. */
export type PostgresTarget = Extract<DatabaseTarget, { kind: 'postgres' }>

const { DATABASE_URL: databaseUrl } = process.env
const postgresUrl = databaseUrl?.startsWith('postgres') ? databaseUrl : undefined
const skipReason =
  databaseUrl === undefined ? 'DATABASE_URL is not set' : 'DATABASE_URL is not a PostgreSQL URL'

/** Declares `suite` when DATABASE_URL names a PostgreSQL server, else a skipped suite saying why. */
export function describeWithPostgres(name: string, suite: (target: PostgresTarget) => void): void {
  describe.skipIf(postgresUrl === undefined)(
    postgresUrl === undefined ? `${name} (skipped: ${skipReason})` : name,
    () => {
      const target: PostgresTarget = {
        kind: 'postgres',
        connectionString: postgresUrl ?? '',
        schema: `openness_test_${randomBytes(6).toString('hex')}`,
      }
      afterAll(async () => {
        await withClient(target, (client) =>
          client.query(`drop schema if exists "${target.schema}" cascade`),
        )
      })
      suite(target)
    },
  )
}

/** Runs `use` on a connection of its own to the target's server (a third party to what is tested). */
export async function withClient<T>(
  target: PostgresTarget,
  use: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: target.connectionString })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}
