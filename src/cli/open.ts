import { pino } from 'pino'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/connect.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { resolveSigningSecret } from '../secrets.ts'
import { createServices, type Services } from '../services.ts'

// The same database and services as `npm start`. With the embedded database, stop the server
// first: PGlite's data folder is opened by one process at a time.
export async function openServices(): Promise<{
  services: Services
  kind: 'postgres' | 'pglite'
  close: () => Promise<void>
}> {
  const config = loadConfig()
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  await migrateToLatest(opened.db)
  const services = createServices({
    config,
    db: opened.db,
    signingSecret: resolveSigningSecret(config),
    logger: pino({ level: 'silent' }),
  })
  return { services, kind: opened.kind, close: opened.close }
}

export async function runCli(
  main: (services: Services, kind: 'postgres' | 'pglite') => Promise<number>,
): Promise<void> {
  let code = 1
  const opened = await openServices()
  try {
    code = await main(opened.services, opened.kind)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  } finally {
    await opened.close()
  }
  process.exit(code)
}
