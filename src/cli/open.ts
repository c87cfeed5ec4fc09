import { openServices, type Services } from '../services.ts'

// Runs one operator command on the same database and services as `npm start` (src/services.ts
// opens them). With the embedded database, stop the server first: PGlite's data folder is opened
// by one process at a time.
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
