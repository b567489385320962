/** The migrations of the SQL storage, listed statically so that bundling and tests never scan folders. */
import type { Migration, MigrationProvider } from 'kysely'
import { directoryMigration } from './0001-directory.js'
import { callsMigration } from './0002-calls.js'
import { callDevicesMigration } from './0003-call-devices.js'
import { serviceStateMigration } from './0004-service-state.js'
import { routingMigration } from './0005-routing.js'
import { comlogMigration } from './0006-comlog.js'
import { comlogUserIndexMigration } from './0007-comlog-user-index.js'
import { voicemailMigration } from './0008-voicemail.js'
import { engineLeaseMigration } from './0009-engine-lease.js'
import { platformSnapshotMigration } from './0010-platform-snapshot.js'
import { revisionsMigration } from './0011-revisions.js'
import { miniMessagesMigration } from './0012-mini-messages.js'
import { acdTicketsMigration } from './0013-acd-tickets.js'

/** Every migration by name; Kysely applies them in the alphabetical order of the names. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-directory': directoryMigration,
  '0002-calls': callsMigration,
  '0003-call-devices': callDevicesMigration,
  '0004-service-state': serviceStateMigration,
  '0005-routing': routingMigration,
  '0006-comlog': comlogMigration,
  '0007-comlog-user-index': comlogUserIndexMigration,
  '0008-voicemail': voicemailMigration,
  '0009-engine-lease': engineLeaseMigration,
  '0010-platform-snapshot': platformSnapshotMigration,
  '0011-revisions': revisionsMigration,
  '0012-mini-messages': miniMessagesMigration,
  '0013-acd-tickets': acdTicketsMigration,
}

/** Hands the static list to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return { ...MIGRATIONS }
  },
}
