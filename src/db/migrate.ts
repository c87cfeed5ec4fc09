import { sql, type Kysely } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import * as eventStore from './migrations/0001-event-store.ts'
import * as projections from './migrations/0002-projections.ts'
import * as commerce from './migrations/0003-commerce.ts'
import * as access from './migrations/0004-access.ts'
import * as epochs from './migrations/0005-event-store-epochs-and-append.ts'
import * as projectionVersions from './migrations/0006-projection-versions.ts'
import * as merchants from './migrations/0006-merchants.ts'
import * as oauth from './migrations/0007-oauth.ts'
import * as readModels from './migrations/0008-read-models.ts'
import * as appendProjected from './migrations/0009-event-store-append-projected.ts'
import * as contextThemes from './migrations/0010-context-themes-from-themes.ts'
import * as changeNotifications from './migrations/0011-change-notifications.ts'
import * as projectionWrites from './migrations/0012-projection-write-functions.ts'
import * as hotUpdates from './migrations/0013-room-for-hot-updates.ts'
import * as documentsLz4 from './migrations/0014-theme-documents-lz4.ts'
import * as streamsKept from './migrations/0015-streams-kept-without-foreign-key.ts'

// Migrations are imported, not read from a folder, so the same list runs on PGlite and PostgreSQL.
const migrations: Record<string, Migration> = {
  '0001-event-store': eventStore,
  '0002-projections': projections,
  '0003-commerce': commerce,
  '0004-access': access,
  '0005-event-store-epochs-and-append': epochs,
  '0006-projection-versions': projectionVersions,
  '0006-merchants': merchants,
  '0007-oauth': oauth,
  '0008-read-models': readModels,
  '0009-event-store-append-projected': appendProjected,
  '0010-context-themes-from-themes': contextThemes,
  '0011-change-notifications': changeNotifications,
  '0012-projection-write-functions': projectionWrites,
  '0013-room-for-hot-updates': hotUpdates,
  '0014-theme-documents-lz4': documentsLz4,
  '0015-streams-kept-without-foreign-key': streamsKept,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

// biome-ignore lint/suspicious/noExplicitAny: migrations run before (and change) the typed schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  // At start-up, a database restored from another cluster starts its own epoch of the event log.
  await sql`select event_store_epoch()`.execute(db)
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
