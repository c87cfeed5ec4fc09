// The walk of one MCP tools/call update_section, from the HTTP request to the event store and back:
// which source files and folders of src/ run during one warm call. Counted with V8's precise
// coverage (call counts reset after a warm-up call, read after the measured one), so it is the code
// that actually runs, not what is imported. A measure of how many places a reader must follow.
//
//   node_modules/.bin/node bench/mcp-walk.ts          (PGlite in memory; nothing else needed)
import { Session } from 'node:inspector/promises'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pino } from 'pino'
import { createApiKey, ensureApp } from '../src/auth/credentials.ts'
import { SCOPES } from '../src/auth/scopes.ts'
import { loadConfig } from '../src/config.ts'
import { openPglite } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { buildApp } from '../src/http/app.ts'
import { servicePlugins } from '../src/plugins.ts'
import { seedDemo } from '../src/seed/seed-demo.ts'
import { createServices } from '../src/services.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const opened = await openPglite(undefined)
await migrateToLatest(opened.db)
const config = loadConfig({
  NODE_ENV: 'test',
  BASE_URL: 'http://walk.test',
  SIGNING_SECRET: 'walk-secret-0123456789abcdef0123',
})
const services = createServices({
  config,
  db: opened.db,
  signingSecret: config.signingSecret!,
  logger: pino({ level: 'silent' }),
})
await seedDemo(services)
const storeId = 'st_demo_atlas'
const appId = await ensureApp(opened.db, { storeId, name: 'Walk' })
const { key } = await createApiKey(opened.db, { storeId, appId, name: 'walk', scopes: SCOPES })
const app = await buildApp(services, { redis: null, ...servicePlugins() })
await app.ready()

let id = 0
const call = async (name: string, args: Record<string, unknown>) => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/mcp',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    payload: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } },
  })
  const body = JSON.parse(res.body)
  if (body.result?.isError || body.error) throw new Error(`${name}: ${res.body.slice(0, 300)}`)
  return body.result.structuredContent
}

const created = await call('create_theme', { name: 'Walk', provider: 'walk' })
const themeId = created.id
const sectionId = created.document.templates.home[0].id
const update = (n: number) => call('update_section', { id: themeId, sectionId, settings: { heading: `Walk ${n}` } })

// The path itself: the source files on the stack (async frames included) when the command appends.
let pathAtAppend: string[] = []
const store = services.commands.eventStore
const append = store.append.bind(store)
const recording = (...args: Parameters<typeof append>) => {
  Error.stackTraceLimit = 100
  const frames = new Error()
    .stack!.split('\n')
    .flatMap((line) => /\((file:\/\/[^)]+?):\d+:\d+\)|at (?:async )?(file:\/\/\S+?):\d+:\d+$/.exec(line) ?? [])
  pathAtAppend = [
    ...new Set(frames.filter((f) => f?.startsWith(`file://${ROOT}src/`)).map((f) => relative(ROOT, fileURLToPath(f)))),
  ]
  return append(...args)
}
services.commands.eventStore = new Proxy(store, {
  get: (target, property) => (property === 'append' ? recording : Reflect.get(target, property, target)),
})

const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
await update(1)
await session.post('Profiler.takePreciseCoverage')
await update(2)
const { result } = await session.post('Profiler.takePreciseCoverage')
await session.post('Profiler.stopPreciseCoverage')

const files = result
  .filter((script) => script.url.startsWith(`file://${ROOT}src/`))
  .filter((script) => script.functions.some((f) => f.ranges.some((r) => r.count > 0)))
  .map((script) => relative(ROOT, fileURLToPath(script.url)))
  .sort()
const folders = [...new Set(files.map((f) => f.split('/').slice(0, 2).join('/')))]
console.log(files.join('\n'))
console.log(`\nupdate_section over MCP runs code in ${files.length} files of src/, in ${folders.length} folders:`)
console.log(folders.join(', '))
const pathFolders = [...new Set(pathAtAppend.map((f) => f.split('/').slice(0, 2).join('/')))]
console.log(`\nOn the path from the request to the append (the stack at the append, outermost last):`)
console.log(pathAtAppend.join('\n'))
console.log(`${pathAtAppend.length} files in ${pathFolders.length} folders`)
await app.close()
await services.close()
await opened.close()
