/** The RoutingStore port in the `routing_profile` table: one row per user, the profile as JSON. */
import type { Kysely } from 'kysely'
import type { RoutingStore } from '../../platform/ports.js'
import type { RoutingProfile } from '../../platform/routing/routing-profile.js'
import type { RoutingDatabase } from './database.js'

export class SqlRoutingStore implements RoutingStore {
  /** Uses `db` (from `routingTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<RoutingDatabase>) {}

  async loadAll(): Promise<Map<string, RoutingProfile>> {
    const rows = await this.db
      .selectFrom('routing_profile')
      .select(['login_name', 'profile'])
      .orderBy('login_name')
      .execute()
    return new Map(rows.map((row) => [row.login_name, readProfile(row.login_name, row.profile)]))
  }

  async load(loginName: string): Promise<RoutingProfile | undefined> {
    const row = await this.db
      .selectFrom('routing_profile')
      .select('profile')
      .where('login_name', '=', loginName)
      .executeTakeFirst()
    return row === undefined ? undefined : readProfile(loginName, row.profile)
  }

  async save(loginName: string, profile: RoutingProfile): Promise<void> {
    await this.db
      .insertInto('routing_profile')
      .values({ login_name: loginName, profile: JSON.stringify(profile) })
      .onConflict((oc) =>
        oc.column('login_name').doUpdateSet((eb) => ({ profile: eb.ref('excluded.profile') })),
      )
      .execute()
  }

  async delete(loginName: string): Promise<void> {
    await this.db.deleteFrom('routing_profile').where('login_name', '=', loginName).execute()
  }
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
