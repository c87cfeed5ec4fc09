// Theme history reads on real PostgreSQL: reading a theme at a version and diffing two versions,
// for a theme with 25 sections per layout and 500 versions. Target: p99 under 20 ms each.
// Measured at the query layer the operations call (read the stream, replay, diff), in process.
//
//   node_modules/.bin/node bench/theme-history.ts [--iterations 500]
//   BENCH_DATABASE_URL (or TEST_DATABASE_URL): the PostgreSQL server (a database is created and dropped)
import { randomBytes } from 'node:crypto'
import { cpus, loadavg, totalmem } from 'node:os'
import pg from 'pg'
import { pino } from 'pino'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { loadConfig } from '../src/config.ts'
import { createServices } from '../src/services.ts'
import { seedDemo } from '../src/seed/seed-demo.ts'
import { themeAt } from '../src/aggregates/theme/history.ts'
import { applyThemeEdits, createTheme } from '../src/commands/theme.ts'
import { diffRefs, readThemeHistory, resolveRef } from '../src/queries/themes/history.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const ITERATIONS = arg('iterations', 500)
const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `bench_history_${randomBytes(4).toString('hex')}`

const admin = new pg.Client({ connectionString: adminUrl })
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(adminUrl)
url.pathname = `/${name}`
const opened = openPostgres(url.toString(), 4)
try {
  await migrateToLatest(opened.db)
  const config = loadConfig({
    NODE_ENV: 'test',
    SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef',
    LOG_LEVEL: 'silent',
  })
  const services = createServices({
    config,
    db: opened.db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  await seedDemo(services)
  const ctx = {
    storeId: 'st_demo_atlas',
    actor: { kind: 'api_key' as const, credentialId: 'bench', appId: 'bench' },
    channel: 'rest' as const,
    operation: 'applyThemeBatch',
  }
  const created = await createTheme(services.commands, ctx, { name: 'Bench', provider: 'bench' })
  if (!created.ok) throw new Error('create failed')
  const themeId = created.value.themeId
  const doc = created.value.document
  const fill = (['home', 'product', 'collection', 'blogPost'] as const).flatMap((template) =>
    Array.from({ length: 25 - doc.templates[template].length }, (_, i) => ({
      op: 'createSection',
      target: { template },
      section: { id: `${template}-s${i}`, type: 'spacer', settings: { height: 8 + i } },
    })),
  )
  const filled = await applyThemeEdits(services.commands, ctx, themeId, { operations: fill as never })
  if (!filled.ok) throw new Error(`fill failed: ${JSON.stringify(filled.error)}`)
  let version = filled.value.version
  const templates = ['home', 'product', 'collection', 'blogPost'] as const
  for (let i = 0; version < 500; i++) {
    const t = templates[i % 4]!
    const op =
      i % 7 === 0
        ? { op: 'moveSection', sectionId: `${t}-s${i % 20}`, index: (i * 3) % 25 }
        : { op: 'updateSection', sectionId: `${t}-s${i % 20}`, settings: { height: 8 + ((i * 13) % 200) } }
    const r = await applyThemeEdits(services.commands, ctx, themeId, { operations: [op] as never })
    if (!r.ok) throw new Error(`edit failed: ${JSON.stringify(r.error)}`)
    version = r.value.version
  }
  const reader = { db: opened.db, eventStore: services.eventStore, cursorSecret: 'x' }
  const p = (xs: number[], q: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
  const measure = async (label: string, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await fn(i)
    const times: number[] = []
    for (let i = 0; i < ITERATIONS; i++) {
      const t0 = performance.now()
      await fn(i)
      times.push(performance.now() - t0)
    }
    console.log(
      `${label.padEnd(44)} p50 ${p(times, 0.5).toFixed(2)} ms  p99 ${p(times, 0.99).toFixed(2)} ms  max ${Math.max(...times).toFixed(2)} ms`,
    )
  }
  console.log(`theme ${themeId}: ${version} versions, 25 sections per layout; ${ITERATIONS} iterations each`)
  await measure('read the stream only (baseline)', () => services.eventStore.readStream(`theme-${themeId}`))
  await measure('getThemeVersion (read, replay to a version)', async (i) => {
    const h = await readThemeHistory(reader, 'st_demo_atlas', themeId)
    if (!themeAt(h!.events, 1 + ((i * 37) % version))) throw new Error('no version')
  })
  await measure('diffTheme (read, replay two versions, diff)', async (i) => {
    const h = (await readThemeHistory(reader, 'st_demo_atlas', themeId))!
    const [a, b] = await Promise.all([
      resolveRef(reader, h, 1 + ((i * 37) % version)),
      resolveRef(reader, h, 1 + ((i * 91) % version)),
    ])
    diffRefs(a!, b!)
  })
  await measure('diffTheme live → draft', async () => {
    const h = (await readThemeHistory(reader, 'st_demo_atlas', themeId))!
    const [a, b] = await Promise.all([resolveRef(reader, h, 'live'), resolveRef(reader, h, 'draft')])
    diffRefs(a!, b!)
  })
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}`,
  )
} finally {
  await opened.close()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}
