import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

// The files the PGlite run takes (docs/testing.md, decision 0071). PGlite is the embedded database
// `npm start` opens without DATABASE_URL; what can differ there is storage: the event store, the
// projections, the migrations, the queries, the change feed, one connection in one process. A
// file whose outcome does not depend on the database runs once, on PostgreSQL.
//
// - every *.int.test.ts: the services on a database, without HTTP;
// - the *.e2e.test.ts files of the REST, MCP and OAuth contract (STORAGE_FOLDERS), whose every
//   request reads and writes through the queries and the commands, and the few others that
//   exercise storage (STORAGE_FILES);
// - less the browser files (they drive Chromium: their subject is the page) and the
//   files in NOT_STORAGE, whose subject is something else than the database.
// *.unit.test.ts files touch no database.
export const STORAGE_FOLDERS = ['test/http/', 'test/mcp/', 'test/oauth/']

export const STORAGE_FILES = [
  // The caches in front of the queries, kept current by PGlite's own change feed.
  'test/ops/cached-api-reads.e2e.test.ts',
  'test/ops/cached-reads.e2e.test.ts',
  // Orders placed through the storefront's checkout.
  'test/storefront/shop.e2e.test.ts',
  // The merchant's writes through the dashboard's forms.
  'test/dashboard/merchant-actions.e2e.test.ts',
  'test/dashboard/theme-history.e2e.test.ts',
]

export const NOT_STORAGE: Record<string, string> = {
  'test/http/rate-limit.e2e.test.ts': 'the limiter, in memory or in Redis',
  'test/mcp/rate-limit.e2e.test.ts': 'the limiter, in memory',
  'test/http/fuzz.e2e.test.ts': 'input refused before any statement',
  'test/http/edge-fuzz.e2e.test.ts': 'bytes refused at the edge, before the app',
  'test/oauth/input-fuzz.e2e.test.ts': 'input refused before any statement',
  'test/mcp/inspector.e2e.test.ts': 'the MCP Inspector talking to the protocol',
  'test/mcp/tool-list-budget.e2e.test.ts': 'the size of the tool list',
  'test/http/graceful-close.e2e.test.ts': 'connections at a stop',
  'test/http/error-envelope.e2e.test.ts': 'the shape of every refusal, whoever refuses',
  'test/http/logging.e2e.test.ts': 'the log lines',
  'test/oauth/logging.e2e.test.ts': 'the log lines',
  'test/http/openapi-contract.e2e.test.ts':
    'the published document against the answers (their shapes on PGlite: mcp/output-schemas, the same read models)',
  'test/http/scopes.e2e.test.ts': 'the scope matrix, checked in invoke before the operation runs',
  'test/mcp/scopes.e2e.test.ts': 'the scope matrix, checked in invoke before the operation runs',
  'test/mcp/protocol.e2e.test.ts': 'the JSON-RPC protocol and its versions',
  'test/mcp/batch-limits.e2e.test.ts': 'batches against the rate limiter',
  'test/oauth/authorize-attacks.e2e.test.ts': 'refused authorization requests (the client lookups: oauth/token)',
  'test/oauth/metadata-document-abuse.e2e.test.ts': 'outbound fetches of client metadata',
  'test/oauth/pre-sign-in-errors.e2e.test.ts': 'what the authorization endpoint shows before sign-in',
}

const ROOT = resolve(new URL('../..', import.meta.url).pathname)

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`
    return e.isDirectory() ? testFiles(path) : e.name.endsWith('.test.ts') ? [path] : []
  })
}

export const allTestFiles = (): string[] => testFiles('test').sort()

export const isBrowserFile = (file: string): boolean =>
  /from 'playwright-core'|\blaunchChromium\(/.test(readFileSync(join(ROOT, file), 'utf8'))

export function pgliteFiles(files: string[] = allTestFiles()): string[] {
  return files.filter((file) => {
    if (file.endsWith('.int.test.ts')) return true
    if (!file.endsWith('.e2e.test.ts') || file in NOT_STORAGE) return false
    const storage = STORAGE_FILES.includes(file) || STORAGE_FOLDERS.some((dir) => file.startsWith(dir))
    return storage && !isBrowserFile(file)
  })
}

// `node test/support/pglite-run.ts` prints them for `npm run test:pglite` (relative to the root).
if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname)
  process.stdout.write(
    `${pgliteFiles()
      .map((f) => relative(ROOT, join(ROOT, f)))
      .join('\n')}\n`,
  )
