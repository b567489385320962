/**
 * The RoutingStore port in the `routing_profile` table: one row per user, the profile as JSON, with its
 * revision. A change is written in a serializable transaction that first checks the revisions of what it read
 * (docs/cluster.md, "No lost update"): on PostgreSQL, two changes that each read what the other writes (a
 * forward from A to B and one from B to A, each checked for a loop on its own node) cannot both commit.
 */
import type { Kysely, Transaction } from 'kysely'
import type { Revision } from '../../platform/change-notices.js'
import type { RoutingProfile } from '../../platform/routing/routing-profile.js'
import type {
  RevisedProfile,
  RoutingCommit,
  RoutingStore,
  RoutingWrite,
} from '../../platform/routing/routing-store.js'
import type { RoutingDatabase } from './database.js'
import { isWriteConflict, newRevision, StaleWriteError } from './revision.js'

export class SqlRoutingStore implements RoutingStore {
  /** Uses `db` (from `routingTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<RoutingDatabase>) {}

  async loadAll(): Promise<Map<string, RevisedProfile>> {
    const rows = await this.db
      .selectFrom('routing_profile')
      .select(['login_name', 'profile', 'revision'])
      .orderBy('login_name')
      .execute()
    return new Map(
      rows.map((row) => [
        row.login_name,
        { profile: readProfile(row.login_name, row.profile), revision: row.revision },
      ]),
    )
  }

  async load(loginName: string): Promise<RevisedProfile | undefined> {
    const row = await this.db
      .selectFrom('routing_profile')
      .select(['profile', 'revision'])
      .where('login_name', '=', loginName)
      .executeTakeFirst()
    return row === undefined
      ? undefined
      : { profile: readProfile(loginName, row.profile), revision: row.revision }
  }

  async commit(write: RoutingWrite): Promise<RoutingCommit> {
    try {
      const revision = await this.db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          await checkRead(trx, write.read)
          return await writeProfile(trx, write)
        })
      return { revision }
    } catch (error) {
      if (error instanceof StaleWriteError) return { stale: error.stale }
      if (isWriteConflict(error)) return { stale: [write.loginName, ...write.read.keys()] }
      throw error
    }
  }
}

/** Refuses the change when a profile it read moved on (changed, created or deleted) since. */
async function checkRead(
  trx: Transaction<RoutingDatabase>,
  read: ReadonlyMap<string, Revision | undefined>,
): Promise<void> {
  if (read.size === 0) return
  const rows = await trx
    .selectFrom('routing_profile')
    .select(['login_name', 'revision'])
    .where('login_name', 'in', [...read.keys()])
    .execute()
  const stored = new Map(rows.map((row) => [row.login_name, row.revision]))
  const stale = [...read].filter(([login, revision]) => stored.get(login) !== revision)
  if (stale.length > 0) throw new StaleWriteError(stale.map(([login]) => login))
}

/**
 * Writes (or deletes) the profile while the row is at the revision planned on; answers the new revision.
 * Planned on no profile and leaving none, it writes nothing: there was nothing to undo.
 */
async function writeProfile(
  trx: Transaction<RoutingDatabase>,
  { loginName, profile, revision }: RoutingWrite,
): Promise<Revision | undefined> {
  if (profile === undefined && revision === undefined) return undefined
  const next = newRevision()
  const written =
    profile === undefined
      ? (
          await trx
            .deleteFrom('routing_profile')
            .where('login_name', '=', loginName)
            .where('revision', '=', revision ?? '')
            .executeTakeFirst()
        ).numDeletedRows
      : revision === undefined
        ? (
            await trx
              .insertInto('routing_profile')
              .values({ login_name: loginName, profile: JSON.stringify(profile), revision: next })
              .onConflict((oc) => oc.column('login_name').doNothing())
              .executeTakeFirst()
          ).numInsertedOrUpdatedRows
        : (
            await trx
              .updateTable('routing_profile')
              .set({ profile: JSON.stringify(profile), revision: next })
              .where('login_name', '=', loginName)
              .where('revision', '=', revision)
              .executeTakeFirst()
          ).numUpdatedRows
  if (written !== 1n) throw new StaleWriteError([loginName])
  return profile === undefined ? undefined : next
}

/** The stored JSON as a profile; a row that is not one stops the start rather than route calls wrongly. */
function readProfile(loginName: string, json: string): RoutingProfile {
  const profile: unknown = JSON.parse(json)
  if (
    typeof profile !== 'object' ||
    profile === null ||
    typeof (profile as RoutingProfile).dnd !== 'boolean' ||
    typeof (profile as RoutingProfile).remoteExtension !== 'boolean'
  )
    throw new Error(`routing_profile of '${loginName}' holds ${json}, not a routing profile`)
  return profile as RoutingProfile
}
