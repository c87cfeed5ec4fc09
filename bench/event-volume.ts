// What one store's agent session adds to the event store: events per session of the demo
// workflow (context, schema, create a draft, design in batches, preview, publish) run through
// the real app, and bytes per event (row only, and with indexes and TOAST). Feeds docs/scaling.md.
//
// node_modules/.bin/node bench/event-volume.ts [--sessions 20] [--batches 3] [--sessions-per-day 5]
import { sql } from 'kysely'
import { createApiKey, ensureApp } from '../src/auth/credentials.ts'
import { buildApp } from '../src/http/app.ts'
import { SCOPES } from '../src/auth/scopes.ts'
import { servicePlugins } from '../src/plugins.ts'
import { withBenchDatabase } from './support/database.ts'
import { numberArg } from './support/measure.ts'
import { seededServices } from './support/services.ts'

const SESSIONS = numberArg('sessions', 20)
const BATCHES = numberArg('batches', 3)
const PER_DAY = numberArg('sessions-per-day', 5)

await withBenchDatabase('volume', {}, async (bench) => {
  const { services } = await seededServices(bench.db)
  const app = await buildApp(services, { ...servicePlugins() })
  const storeId = 'st_demo_atlas'
  const appId = await ensureApp(bench.db, { storeId, name: 'bench' })
  const { key } = await createApiKey(bench.db, { storeId, appId, name: 'bench', scopes: SCOPES })
  const headers = { authorization: `Bearer ${key}` }
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers, ...(payload ? { payload: payload as object } : {}) })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json().data
  }
  const head = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from events`.execute(bench.db)).rows[0]!.n)
  const seeded = await head()
  let previous: string | null = null
  for (let s = 0; s < SESSIONS; s++) {
    const ctx = await call('GET', '/api/v1/context')
    await call('GET', '/api/v1/themes/schema')
    const theme = await call('POST', '/api/v1/themes', { name: `Session ${s}`, provider: 'bench' })
    const productId = ctx.products.items[0].id
    for (let b = 0; b < BATCHES; b++) {
      // The first batch lays out the page, later ones edit it: 10 operations each.
      const section = (i: number) => ({
        id: `s${i}`,
        type: 'rich-text',
        settings: {
          heading: `Section ${i}`,
          body: `<p>Written by an agent in session ${s}: <strong>new</strong> arrivals every week.</p>`,
        },
      })
      const operations =
        b === 0
          ? [
              { op: 'updateTokens', tokens: { primaryColor: '#2d6a4f' } },
              ...Array.from({ length: 8 }, (_, i) => ({
                op: 'createSection',
                target: { template: 'home' },
                section: section(i),
              })),
              {
                op: 'createSection',
                target: { template: 'home' },
                index: 0,
                section: { type: 'featured-product', settings: { productId } },
              },
            ]
          : [
              { op: 'updateTokens', tokens: { primaryColor: `#${(0x102030 + s * 16 + b).toString(16)}` } },
              ...Array.from({ length: 8 }, (_, i) => ({
                op: 'updateSection',
                sectionId: `s${i}`,
                settings: { heading: `Section ${i}, take ${b}` },
              })),
              { op: 'moveSection', sectionId: 's7', index: 0 },
            ]
      await call('POST', `/api/v1/themes/${theme.id}/batch`, { operations })
      await call('POST', `/api/v1/themes/${theme.id}/preview-token`, {})
    }
    await call('POST', `/api/v1/themes/${theme.id}/publish`, {})
    // A store keeps at most 20 themes that are not archived: the theme this one replaced is archived.
    if (previous) await app.inject({ method: 'DELETE', url: `/api/v1/themes/${previous}`, headers })
    previous = theme.id
  }
  const total = await head()
  const perSession = (total - seeded) / SESSIONS
  const { rows } = await sql<{ row: number; table: number; n: number }>`
    select avg(pg_column_size(e.*))::float as row, count(*)::int as n,
      -- The partitions (the partitioned parent holds nothing itself) and the event ids' table.
      ((select sum(pg_total_relation_size(relid)) from pg_partition_tree('events')) + pg_total_relation_size('event_ids'))::float as table
    from events e`.execute(bench.db)
  const r = rows[0]!
  const line = (label: string, value: string) => process.stdout.write(`${label.padEnd(58)} ${value}\n`)
  line(
    'sessions (context, schema, create, batches+previews, publish)',
    `${SESSIONS} × ${BATCHES} batches of 10 operations`,
  )
  line('events per session', perSession.toFixed(1))
  line(`events per store per day at ${PER_DAY} sessions a day`, (perSession * PER_DAY).toFixed(0))
  line('bytes per event, row (pg_column_size)', r.row.toFixed(0))
  line('bytes per event, with indexes and TOAST', (r.table / r.n).toFixed(0))
  line('events in the database (seed included)', String(r.n))
  await app.close()
})
