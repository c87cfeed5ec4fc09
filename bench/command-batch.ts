// Full command throughput: applyThemeEdits (src/commands/theme.ts) with a batch of
// 10 operations — load, decide, append with the inline projections — on a store seeded by
// seedDemo, from 1 and 8 concurrent callers, each on its own draft theme.
// Baseline, same run: the plain SQL a command must at least do — claim the stream version,
// insert the same 10 event rows, upsert the theme row — in one transaction, with pg directly.
// Then a per-phase breakdown of the command (instrumented copy of the same dependencies).
//
// node_modules/.bin/node bench/command-batch.ts [--seconds 10] [--rounds 2] [--warmup 2] [--callers 1,8]
//   [--no-baseline] [--no-breakdown]   (e.g. to profile only the command path with node --cpu-prof)
import pg from 'pg'
import type { Kysely } from 'kysely'
import type { CommandDeps } from '../src/commands/context.ts'
import { metadataFor } from '../src/commands/context.ts'
import type { Database } from '../src/db/database.ts'
import type { EventShape, ReadStreamOptions } from '../src/events/event-store.ts'
import { createPostgresEventStore, type PostgresEventStore } from '../src/events/postgres-event-store.ts'
import { inlineProjector, projections } from '../src/projections/index.ts'
import { withBenchDatabase, settle } from './support/database.ts'
import {
  coresUsed,
  cpuPer,
  flag,
  fmt,
  headerWithLoad,
  interleaved,
  ms,
  numberArg,
  closedLoop,
  stringArg,
  summarize,
  table,
  type Summary,
} from './support/measure.ts'
import { applyThemeEdits } from '../src/commands/theme.ts'
import { agentContext, draftThemes, seededServices, tenOperations } from './support/services.ts'

const seconds = numberArg('seconds', 10)
const rounds = numberArg('rounds', 2)
const warmup = numberArg('warmup', 2)
const callerCounts = (stringArg('callers') ?? '1,8').split(',').map(Number)
const maxCallers = Math.max(...callerCounts)
const OPS = 10
const POOL = 10

type Theme = { themeId: string; storeId: string }

function commandLoad(deps: CommandDeps, themes: Theme[], callers: number) {
  let n = 0
  return (secs: number) =>
    closedLoop({ workers: callers, seconds: secs }, async (w) => {
      const t = themes[w]!
      const r = await applyThemeEdits(deps, agentContext(t.storeId), t.themeId, { operations: tenOperations(n++) })
      if (!r.ok)
        throw new Error(`applyThemeEdits: ${r.error.code} ${r.error.message} ${JSON.stringify(r.error.details ?? {})}`)
      if (r.events?.length !== OPS) throw new Error(`expected ${OPS} events, got ${r.events?.length}`)
    })
}

const THEME_COLUMNS =
  'theme_id, store_id, name, provider, status, version, stream_version, document, document_bytes, duplicated_from, created_at, updated_at, published_at, archived_at, last_preview_at, last_previewed_version'

// The baseline writes the same shapes a command writes: events decided for the same batch (from
// a dry run), the resulting document, metadata as the command would stamp it.
async function baselineSetup(deps: CommandDeps, db: Kysely<Database>, pool: pg.Pool, source: Theme, count: number) {
  const dry = await applyThemeEdits(deps, agentContext(source.storeId), source.themeId, {
    operations: tenOperations(0),
    dryRun: true,
  })
  if (!dry.ok || !dry.decided) throw new Error('dry run failed')
  const decided = dry.decided
  const document = JSON.stringify(dry.value.document)
  const row = await db.selectFrom('themes').selectAll().where('theme_id', '=', source.themeId).executeTakeFirstOrThrow()
  const themes: { themeId: string; streamId: string; version: number; themeVersion: number }[] = []
  for (let k = 0; k < count; k++) {
    const themeId = `thm_baseline_${k}`
    const streamId = `theme-${themeId}`
    await pool.query('insert into streams (stream_id, stream_type, store_id, version) values ($1, $2, $3, 1)', [
      streamId,
      'theme',
      source.storeId,
    ])
    await pool.query(
      `insert into themes (${THEME_COLUMNS}) values ($1, $2, $3, $4, $5, $6, 1, $7, $8, null, $9, $9, null, null, null, null)`,
      [
        themeId,
        source.storeId,
        row.name,
        row.provider,
        row.status,
        row.version,
        JSON.stringify(row.document),
        row.document_bytes,
        new Date(),
      ],
    )
    themes.push({ themeId, streamId, version: 1, themeVersion: row.version })
  }
  return { decided, document, themes }
}

function baselineLoad(
  pool: pg.Pool,
  setup: Awaited<ReturnType<typeof baselineSetup>>,
  storeId: string,
  callers: number,
) {
  let n = 0
  return (secs: number) =>
    closedLoop({ workers: callers, seconds: secs }, async (w) => {
      const t = setup.themes[w]!
      const metadata = JSON.stringify(metadataFor(agentContext(storeId), `cmd_baseline_${n++}`))
      const at = new Date().toISOString()
      const c = await pool.connect()
      try {
        await c.query('begin')
        const claimed = await c.query(
          'update streams set version = version + $3, updated_at = now() where stream_id = $1 and version = $2 returning version',
          [t.streamId, t.version, OPS],
        )
        if (claimed.rowCount !== 1) throw new Error('baseline conflict')
        const params: unknown[] = []
        const tuples = setup.decided.map((e, i) => {
          const b = params.length
          params.push(
            crypto.randomUUID(),
            t.streamId,
            t.version + i + 1,
            storeId,
            e.type,
            JSON.stringify({ ...e.data, at }),
            metadata,
          )
          return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, 1, $${b + 6}, $${b + 7})`
        })
        await c.query(
          `insert into events (event_id, stream_id, stream_version, store_id, type, schema_version, data, metadata) values ${tuples.join(', ')} returning global_position, transaction_id::text, recorded_at`,
          params,
        )
        await c.query(
          `insert into themes (${THEME_COLUMNS}) values ($1, $2, 'Bench draft', 'bench', 'draft', $3, $4, $5, $6, null, $7, $7, null, null, null, null)
           on conflict (theme_id) do update set version = excluded.version, stream_version = excluded.stream_version, document = excluded.document,
             document_bytes = excluded.document_bytes, updated_at = excluded.updated_at where themes.stream_version < excluded.stream_version`,
          [
            t.themeId,
            storeId,
            t.themeVersion + OPS,
            t.version + OPS,
            setup.document,
            Buffer.byteLength(setup.document),
            at,
          ],
        )
        await c.query('commit')
        t.version += OPS
        t.themeVersion += OPS
      } catch (error) {
        await c.query('rollback').catch(() => {})
        throw error
      } finally {
        c.release()
      }
    })
}

// The same dependencies, with clocks around every phase a command goes through.
function instrumented(deps: CommandDeps, db: Kysely<Database>) {
  const t: Record<string, number> = {}
  const add = (k: string, since: number) => (t[k] = (t[k] ?? 0) + performance.now() - since)
  const timedProjections = projections.map((p) => ({
    ...p,
    apply: async (...args: Parameters<typeof p.apply>) => {
      const s = performance.now()
      await p.apply(...args)
      add(`  inline: ${p.name}`, s)
    },
  }))
  const base: PostgresEventStore = createPostgresEventStore(db, [inlineProjector(timedProjections)])
  const eventStore: PostgresEventStore = {
    ...base,
    async readStream<E extends EventShape>(streamId: string, options?: ReadStreamOptions) {
      const s = performance.now()
      const r = await base.readStream<E>(streamId, options)
      add('load: readStream (tail past snapshot)', s)
      return r
    },
    async append(...args) {
      const s = performance.now()
      const r = await base.append(...args)
      add('append (one statement, incl. inline projections)', s)
      return r
    },
  }
  const wrapped: CommandDeps = {
    ...deps,
    eventStore,
    async references(...args) {
      const s = performance.now()
      const r = await deps.references(...args)
      add('references (catalog ids)', s)
      return r
    },
  }
  return { deps: wrapped, timings: t }
}

const row = (label: string, s: Summary, base?: Summary) => ({
  variant: label,
  'commands/s': fmt(s.opsPerSecond),
  'events/s': fmt(s.unitsPerSecond),
  p50: ms(s.p50),
  p99: ms(s.p99),
  commands: fmt(s.ops),
  'vs baseline': base ? fmt(s.opsPerSecond / base.opsPerSecond, 2) : '1.00',
  'CPU ms/command node / pg': cpuPer(s, OPS),
  'cores node / pg / other': coresUsed(s.cpu, s.seconds),
})

// Statements sent to PostgreSQL (each at least one round trip), counted during the breakdown. The
// wrapper is installed before any pool connects: a pool client keeps the query function it had when
// it connected (src/db/prepared.ts wraps it per client).
let roundTrips = 0
let counting = false
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) roundTrips++
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query

await withBenchDatabase('command', { poolSize: POOL }, async (bdb) => {
  const pool = bdb.plainPool(POOL)
  const t0 = performance.now()
  const { services } = await seededServices(bdb.db)
  const themes = await draftThemes(services, maxCallers)
  const { rows: counts } = await pool.query<{ events: number; products: number }>(
    'select (select count(*)::int from events) as events, (select count(*)::int from products) as products',
  )
  await headerWithLoad('command throughput: applyThemeEdits, 10-operation batch', [
    `seeded with seedDemo in ${fmt((performance.now() - t0) / 1000, 1)} s (${fmt(counts[0]!.events)} events, ${fmt(counts[0]!.products)} products); ${maxCallers} draft themes, one per caller; pool ${POOL} connections`,
    `batch: 3 × createSection, 2 × updateSection, 2 × moveSection, 3 × deleteSection (the theme ends as it began) → ${OPS} events per command`,
    `${seconds} s per variant in ${rounds} alternating rounds, ${warmup} s warm-up`,
  ])
  const baseline = await baselineSetup(services.commands, bdb.db, pool, themes[0]!, maxCallers)
  const storeId = themes[0]!.storeId

  await commandLoad(services.commands, themes, maxCallers)(warmup)
  await baselineLoad(pool, baseline, storeId, maxCallers)(warmup)
  await settle(pool, ['events', 'streams', 'themes', 'developer_activity'])

  const results: { callers: number; command: Summary; base: Summary | undefined }[] = []
  const withBaseline = !flag('no-baseline')
  for (const callers of callerCounts) {
    const loads = [
      commandLoad(services.commands, themes, callers),
      ...(withBaseline ? [baselineLoad(pool, baseline, storeId, callers)] : []),
    ]
    const [command, base] = await interleaved(
      loads,
      rounds,
      (l) => l(seconds / rounds),
      () => settle(pool),
    )
    results.push({
      callers,
      command: summarize(command!.latencies, command!.seconds, OPS, command!.cpu),
      base: base && summarize(base.latencies, base.seconds, OPS, base.cpu),
    })
  }
  const plural = (n: number) => `${n} caller${n > 1 ? 's' : ''}`
  console.log(
    table(
      results.flatMap((r) => [
        row(`applyThemeEdits, ${plural(r.callers)}`, r.command, r.base),
        ...(r.base ? [row(`plain SQL, ${plural(r.callers)} [baseline]`, r.base)] : []),
      ]),
    ),
  )
  console.log()
  if (flag('no-breakdown')) return

  // Where a command's time goes: average milliseconds per command, per phase.
  const breakdown: Record<string, string>[] = []
  const phaseNames = new Set<string>()
  const perCallers: { callers: number; timings: Record<string, number>; total: number; n: number }[] = []
  for (const callers of callerCounts) {
    const inst = instrumented(services.commands, bdb.db)
    roundTrips = 0
    counting = true
    const run = await commandLoad(inst.deps, themes, callers)(Math.max(2, seconds / 4))
    counting = false
    inst.timings['statements sent to PostgreSQL'] = roundTrips
    const n = run.latencies.length
    const total = run.latencies.reduce((a, b) => a + b, 0)
    for (const k of Object.keys(inst.timings)) phaseNames.add(k)
    perCallers.push({ callers, timings: inst.timings, total, n })
  }
  const ordered = [
    'references (catalog ids)',
    'load: readStream (tail past snapshot)',
    'append (one statement, incl. inline projections)',
    ...[...phaseNames].filter((k) => k.startsWith('  inline')).sort(),
  ]
  for (const k of ordered) {
    const r: Record<string, string> = { phase: k }
    for (const p of perCallers)
      r[`${p.callers} caller${p.callers > 1 ? 's' : ''}`] = p.timings[k] === undefined ? '-' : ms(p.timings[k]! / p.n)
    breakdown.push(r)
  }
  const rest: Record<string, string> = { phase: 'load: snapshot row + decide + validation (the rest)' }
  const all: Record<string, string> = { phase: 'whole command' }
  for (const p of perCallers) {
    const key = `${p.callers} caller${p.callers > 1 ? 's' : ''}`
    const accounted = [
      'references (catalog ids)',
      'load: readStream (tail past snapshot)',
      'append (one statement, incl. inline projections)',
    ].reduce((a, k) => a + (p.timings[k] ?? 0), 0)
    rest[key] = ms((p.total - accounted) / p.n)
    all[key] = ms(p.total / p.n)
  }
  breakdown.splice(2, 0, rest)
  breakdown.push(all)
  const statements: Record<string, string> = { phase: 'statements (round trips) per command' }
  for (const p of perCallers)
    statements[`${p.callers} caller${p.callers > 1 ? 's' : ''}`] = fmt(
      p.timings['statements sent to PostgreSQL']! / p.n,
      1,
    )
  breakdown.push(statements)
  console.log('per-phase breakdown, mean ms per command (instrumented run):')
  console.log(table(breakdown))
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from events')
  console.log(`\n${fmt(rows[0]!.n)} events in the table at the end`)
})
