import { promises as fs } from 'node:fs'
import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import { FileMigrationProvider, Migrator } from 'kysely/migration'

// Every file of this folder is a migration, run in name order on PGlite and PostgreSQL alike.
// Names: the first fifteen keep the names existing databases recorded (0001 to 0015, two of them
// 0006); every later one starts with the UTC minute it was written (YYYYMMDDHHMM-what-it-does),
// so branches written in parallel never pick the same name, and one merged late still runs
// (allowUnorderedMigrations). test/db/migrations.unit.test.ts holds the rule.
export const MIGRATION_FOLDER = path.join(path.dirname(new URL(import.meta.url).pathname), 'migrations')

const provider = new FileMigrationProvider({
  fs,
  path,
  migrationFolder: MIGRATION_FOLDER,
  onFileIgnored: (fileName, reason) => {
    throw new Error(`src/db/migrations/${fileName} is not a migration (${reason}): only migrations live there`)
  },
})

// biome-ignore lint/suspicious/noExplicitAny: migrations run before (and change) the typed schema
export async function migrateToLatest(db: Kysely<any>, without: readonly string[] = []): Promise<string[]> {
  // `without`: a database as it was before those migrations (their tests and benchmarks); a
  // later run without it runs them (allowUnorderedMigrations).
  const chosen =
    without.length === 0
      ? provider
      : {
          async getMigrations() {
            const all = await provider.getMigrations()
            for (const name of without) delete all[name]
            return all
          },
        }
  const migrator = new Migrator({ db, provider: chosen, allowUnorderedMigrations: true })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  // At start-up, a database restored from another cluster starts its own epoch of the event log.
  await sql`select event_store_epoch()`.execute(db)
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
