import t, { type Test } from 'tap'
import { sql } from 'kysely'
import type { Services } from '../../src/services.ts'
import { projections, projectionNamed } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { catchUp, catchUpOnce, readProjectionCheckpoint } from '../../src/projections/runner.ts'
import { testDatabaseKind } from '../support/database.ts'
import { agent, testServices } from '../support/services.ts'
import { registerMedia } from '../../src/commands/media.ts'
import { updateNavigation } from '../../src/commands/navigation.ts'
import {
  applyThemeEdits,
  archiveTheme,
  createTheme,
  duplicateTheme,
  publishTheme,
  recordPreviewIssued,
} from '../../src/commands/theme.ts'
import { eventually } from '../support/eventually.ts'
import { emptyCheckoutForm } from '../../src/aggregates/orders/checkout-form.ts'
import { placeOrder } from '../../src/commands/orders.ts'
import { seedDemoCommerce } from '../../src/seed/seed-commerce.ts'

// A varied history: creates, batches, refusals, previews, publishes, archives, menus, in two stores.
async function workload(s: Services) {
  for (const store of ['st_a', 'st_b']) {
    const ids: string[] = []
    for (let i = 0; i < 4; i++) {
      const r = await createTheme(s.commands, agent(store, 'createTheme'), {
        name: `${store} theme ${i}`,
        provider: 'test',
      })
      if (!r.ok) throw new Error(r.error.message)
      ids.push(r.value.themeId)
      for (let j = 0; j < 5; j++) {
        await applyThemeEdits(s.commands, agent(store, 'applyThemeBatch'), r.value.themeId, {
          operations: [
            {
              op: 'createSection',
              target: { template: 'home' },
              index: 0,
              section: { id: `s${i}-${j}`, type: 'spacer', settings: { height: 8 + j } },
            },
            { op: 'updateTokens', tokens: { primaryColor: `#00${i}${j}00` } },
          ] as never,
        })
      }
      await applyThemeEdits(s.commands, agent(store, 'applyThemeBatch'), r.value.themeId, {
        operations: [{ op: 'deleteSection', sectionId: 'nope' }] as never,
      })
      await recordPreviewIssued(s.commands, agent(store, 'createThemePreviewToken'), r.value.themeId, {
        tokenId: `jti-${i}`,
        expiresAt: new Date().toISOString(),
      })
    }
    await publishTheme(s.commands, agent(store, 'publishTheme'), ids[0]!, {})
    await publishTheme(s.commands, agent(store, 'publishTheme'), ids[1]!, {})
    await archiveTheme(s.commands, agent(store, 'archiveTheme'), ids[2]!, {})
    await duplicateTheme(s.commands, agent(store, 'duplicateTheme'), ids[1]!, { provider: 'test' })
    await updateNavigation(s.commands, agent(store, 'updateNavigation'), {
      menus: [{ handle: 'main', items: [{ label: 'Shop', href: '/products' }] }],
    })
    await registerMedia(s.commands, agent(store, 'uploadMedia'), {
      source: 'url',
      url: `https://cdn.example/${store}/banner.png`,
      alt: 'Banner',
    })
  }
  // Orders: the demo stores' history (imported) and one order from the storefront's checkout.
  await seedDemoCommerce(s.db)
  const [variant] = (
    await sql<{ id: string }>`
      select variant_id as id from product_variants where store_id = 'st_demo_lumen' and inventory_quantity > 0 limit 1`.execute(
      s.db,
    )
  ).rows
  const placed = await placeOrder(
    s.commands,
    { ...agent('st_demo_lumen', 'placeOrder'), channel: 'storefront' },
    {
      confirmationHash: 'rebuild-workload',
      clientKey: 'client',
      lines: [{ variantId: variant!.id, quantity: 1 }],
      form: {
        ...emptyCheckoutForm(),
        fullName: 'Claire Martin',
        phone: '+33 6 12 34 56 78',
        address1: '12 rue des Tanneurs',
        city: 'Lille',
        postalCode: '59000',
        country: 'FR',
        rate: 'France métropolitaine · Colissimo',
      },
    },
  )
  if (!placed.ok) throw new Error(placed.error.message)
}

// Reading "all" stops below the oldest transaction running anywhere on the shared server, and
// another file's transaction (a seed, a held transaction of a concurrency test) can hold that
// horizon for longer than eventually's 15 s when three files run at a time on two loaded cores:
// then the rebuild below read fewer events than the test counted on and failed on the machine's
// load. It waits as long as that takes (within the file's timeout) and says so when it never ends.
async function everyEventReadable(t: Test, s: Services): Promise<number> {
  const total = (await sql<{ n: number }>`select count(*)::int as n from events`.execute(s.db)).rows[0]!.n
  const page = await eventually(
    () => s.eventStore.readAll({ limit: total }),
    (page) => page.events.length === total,
    180_000,
  )
  t.equal(page.events.length, total, 'every event is readable (no transaction holds the horizon)')
  return total
}

async function snapshot(s: Services, tables: readonly string[]) {
  const out: Record<string, unknown[]> = {}
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(s.db)
    // Compare as data: key order and row order do not matter, values do.
    out[table] = rows
      .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))))
      .sort()
  }
  return out
}

t.test('a rebuild from position 0 equals the incrementally built tables, for every projection', async (t) => {
  const s = await testServices(t)
  await workload(s)
  const activity = await s.db
    .selectFrom('developer_activity')
    .select(['outcome', 'summary'])
    .where('store_id', '=', 'st_a')
    .execute()
  t.ok(
    activity.some((a) => a.outcome === 'rejected'),
    'refusals are in the activity view',
  )
  t.ok(
    activity.some((a) => /^2 changes: Added spacer section/.test(a.summary)),
    'a batch is one row listing its changes',
  )
  for (const projection of projections) {
    const before = await snapshot(s, projection.tables)
    t.ok(
      Object.values(before).every((rows) => rows.length > 0),
      `${projection.name} has rows`,
    )
    const result = await rebuildProjection(s.db, s.eventStore, projection, { batchSize: 37 })
    t.match(result, { projection: projection.name, swapped: true, resumed: false })
    t.same(await snapshot(s, projection.tables), before, `${projection.name}: rebuilt equals incremental`)
  }
  // Migration 0013's room for HOT updates survives the swap (create table … like does not copy it).
  const { rows } = await sql<{
    options: string[] | null
  }>`select reloptions as options from pg_class where oid = 'public.themes'::regclass`.execute(s.db)
  t.same(rows[0]?.options, ['fillfactor=50'], 'the rebuilt themes table keeps its fillfactor')
  // Migration 0014: documents compress with lz4 where the server has it (PostgreSQL here; PGlite
  // is built without it and keeps pglz), in the rebuilt table too, and the rows written are lz4.
  const column = await sql<{
    compression: string
  }>`select attcompression as compression from pg_attribute where attrelid = 'public.themes'::regclass and attname = 'document'`.execute(
    s.db,
  )
  const written = await sql<{
    method: string | null
  }>`select distinct pg_column_compression(document) as method from themes`.execute(s.db)
  if (testDatabaseKind === 'postgres') {
    t.equal(column.rows[0]?.compression, 'l', 'themes.document compresses with lz4')
    t.same(
      written.rows.map((r) => r.method).filter((m) => m !== null),
      ['lz4'],
      'every compressed document is lz4',
    )
  } else {
    t.equal(column.rows[0]?.compression, '', 'PGlite keeps the default')
  }
})

t.test('a rebuild stopped mid-way resumes from its checkpoint, and commands keep working meanwhile', async (t) => {
  const s = await testServices(t)
  await workload(s)
  const projection = projectionNamed('developer_activity')!
  const before = await snapshot(s, projection.tables)
  await everyEventReadable(t, s)
  const stop = new AbortController()
  const first = await rebuildProjection(s.db, s.eventStore, projection, {
    batchSize: 20,
    signal: stop.signal,
    onProgress: (n) => {
      if (n >= 60) stop.abort()
    },
  })
  t.match(first, { swapped: false })
  t.ok(first.events >= 60 && first.events < 200, `stopped after ${first.events} events`)
  const saved = await readProjectionCheckpoint(s.db, 'rebuild:developer_activity')
  t.ok(saved && saved.globalPosition > 0, 'its checkpoint was kept')
  t.same(await snapshot(s, projection.tables), before, 'readers still see the full live table')

  // Writes during the rebuild go to the live table, and the rebuild catches them up.
  const late = await createTheme(s.commands, agent('st_a', 'createTheme'), { name: 'Late', provider: 'test' })
  t.ok(late.ok)
  const second = await rebuildProjection(s.db, s.eventStore, projection, { batchSize: 20 })
  t.match(second, { swapped: true, resumed: true })
  t.ok(second.events < first.events + 400, 'it did not start again from 0')
  const after = await snapshot(s, projection.tables)
  t.equal(after.developer_activity!.length, before.developer_activity!.length + 1, 'the late command is there once')
  t.equal(
    await readProjectionCheckpoint(s.db, 'rebuild:developer_activity'),
    null,
    'the rebuild checkpoint is gone after the swap',
  )
})

t.test('the catch-up runner resumes from its checkpoint after being stopped mid-way', async (t) => {
  const s = await testServices(t)
  await workload(s)
  // Build the themes projection into a fresh schema, as a new projection would be built.
  await sql`create schema shadow`.execute(s.db)
  await sql`create table shadow.themes (like public.themes including all)`.execute(s.db)
  const themes = projectionNamed('themes')!
  const options = { checkpoint: 'resume-test', schema: 'shadow', batchSize: 25 }
  const total = await everyEventReadable(t, s)
  const one = await catchUpOnce(s.db, s.eventStore, themes, options)
  const two = await catchUpOnce(s.db, s.eventStore, themes, options)
  t.equal(one.applied, 25)
  t.ok(two.position.globalPosition > one.position.globalPosition, 'the second batch starts where the first committed')
  // "Killed" here: a new runner with the same checkpoint picks up where the last commit left off.
  const rest = await catchUp(s.db, s.eventStore, themes, options)
  t.equal(one.applied + two.applied + rest.applied, total, 'every event applied exactly once across the runs')
  const live = (await sql`select * from public.themes order by theme_id`.execute(s.db)).rows
  const shadow = (await sql`select * from shadow.themes order by theme_id`.execute(s.db)).rows
  t.same(shadow, live)
})

t.test(
  'readers never see an empty table while a rebuild swaps it in',
  { skip: testDatabaseKind === 'pglite' ? 'PGlite runs one statement at a time' : false },
  async (t) => {
    const s = await testServices(t)
    await workload(s)
    const count = async () =>
      (
        await s.db
          .selectFrom('themes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
    const expected = Number(await count())
    let reading = true
    const seen: number[] = []
    const reader = (async () => {
      while (reading) seen.push(Number(await count()))
    })()
    for (let i = 0; i < 3; i++)
      await rebuildProjection(s.db, s.eventStore, projectionNamed('themes')!, { batchSize: 10 })
    reading = false
    await reader
    t.ok(seen.length > 10, `${seen.length} reads during the rebuilds`)
    t.same([...new Set(seen)], [expected], 'every read saw the full table')
  },
)
