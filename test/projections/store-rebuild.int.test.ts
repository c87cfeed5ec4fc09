import { sql } from 'kysely'
import t from 'tap'
import { applyThemeEdits, createTheme, publishTheme } from '../../src/commands/theme.ts'
import { updateNavigation } from '../../src/commands/navigation.ts'
import { registerMedia } from '../../src/commands/media.ts'
import { projections } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { rebuildStoreProjection, storeProjectionStates } from '../../src/projections/store-rebuild.ts'
import { findThemeJson } from '../../src/queries/themes/theme-queries.ts'
import type { Services } from '../../src/services.ts'
import { agent, testServices } from '../support/services.ts'

// A per-store rebuild (src/projections/store-rebuild.ts) while another store's agent writes and
// reads, and while the rebuilt store itself writes: the other store is served throughout, no
// write of the rebuilt store is lost, and its rows equal what a whole-table rebuild makes.

const edit = (i: number) => ({
  operations: [{ op: 'updateTokens', tokens: { primaryColor: `#0${i % 10}0${(i * 3) % 10}00` } }] as never,
})

async function storeHistory(s: Services, store: string, themes: number, batches: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < themes; i++) {
    const r = await createTheme(s.commands, agent(store, 'createTheme'), { name: `${store} ${i}`, provider: 'test' })
    if (!r.ok) throw new Error(r.error.message)
    ids.push(r.value.themeId)
    for (let j = 0; j < batches; j++)
      await applyThemeEdits(s.commands, agent(store, 'applyThemeBatch'), r.value.themeId, edit(j))
  }
  await publishTheme(s.commands, agent(store, 'publishTheme'), ids[0]!, {})
  await updateNavigation(s.commands, agent(store, 'updateNavigation'), {
    menus: [{ handle: 'main', items: [{ label: 'Shop', href: '/products' }] }],
  })
  await registerMedia(s.commands, agent(store, 'uploadMedia'), {
    source: 'url',
    url: `https://cdn.example/${store}/banner.png`,
    alt: 'Banner',
  })
  return ids
}

async function storeRows(s: Services, store: string) {
  const out: Record<string, string[]> = {}
  for (const p of projections)
    for (const table of p.tables) {
      const { rows } = await sql<
        Record<string, unknown>
      >`select * from ${sql.table(table)} where store_id = ${store}`.execute(s.db)
      out[table] = rows
        .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))))
        .sort()
    }
  return out
}

t.test('a per-store rebuild while another store’s agent writes, and the store itself writes', async (t) => {
  const s = await testServices(t)
  const aThemes = await storeHistory(s, 'st_a', 5, 8)
  const bThemes = await storeHistory(s, 'st_b', 2, 2)
  const otherBefore = await storeRows(s, 'st_b')

  let rebuilding = true
  const failures: string[] = []
  // Store B's agent: edits and reads, as fast as it can, for as long as A is rebuilt.
  let bWrites = 0
  const bAgent = (async () => {
    for (let i = 0; rebuilding || i < 3; i++) {
      const r = await applyThemeEdits(s.commands, agent('st_b', 'applyThemeBatch'), bThemes[1]!, edit(i))
      if (!r.ok) failures.push(`B write: ${r.error.code}`)
      else bWrites++
      const read = await findThemeJson(s.read, 'st_b', bThemes[1]!)
      if (read === null) failures.push('B read: not found')
    }
  })()
  // Store A's own writes during its rebuild: to an existing theme (waits for the swap's locks) and
  // a new theme (a new stream).
  const versionOfA = async () =>
    Number(
      (await s.db.selectFrom('themes').select('version').where('theme_id', '=', aThemes[2]!).executeTakeFirstOrThrow())
        .version,
    )
  const aVersionBefore = await versionOfA()
  let aWrites = 0
  let aEdits = 0
  const aAgent = (async () => {
    for (let i = 0; rebuilding || i < 2; i++) {
      const r = await applyThemeEdits(s.commands, agent('st_a', 'applyThemeBatch'), aThemes[2]!, edit(100 + i))
      if (!r.ok) failures.push(`A write: ${r.error.code}`)
      else {
        aWrites++
        aEdits++
      }
      if (i % 4 === 0 && i < 16) {
        const created = await createTheme(s.commands, agent('st_a', 'createTheme'), {
          name: `A new ${i}`,
          provider: 'test',
        })
        if (!created.ok) failures.push(`A create: ${created.error.code}`)
        else aWrites++
      }
    }
  })()
  const results = []
  for (const p of projections)
    results.push(await rebuildStoreProjection(s.db, s.eventStore, p, 'st_a', { batchSize: 7 }))
  rebuilding = false
  await Promise.all([bAgent, aAgent])

  t.same(failures, [], 'every write and read of both stores succeeded during the rebuild')
  t.ok(bWrites > 0 && aWrites > 0, `store B wrote ${bWrites} times, store A ${aWrites} times meanwhile`)
  t.ok(
    results.every((r) => r.storeId === 'st_a' && r.events > 0),
    'each projection rebuilt from the store’s events',
  )
  t.equal(await versionOfA(), aVersionBefore + aEdits, 'no write of A lost: its theme has every edit')

  // B's rows moved only by B's own writes.
  const otherAfter = await storeRows(s, 'st_b')
  t.same(
    Object.fromEntries(
      Object.entries(otherAfter).filter(([table]) => table !== 'themes' && table !== 'developer_activity'),
    ),
    Object.fromEntries(
      Object.entries(otherBefore).filter(([table]) => table !== 'themes' && table !== 'developer_activity'),
    ),
    'store B’s other rows untouched',
  )

  // A's rows equal a whole-table rebuild's.
  const afterStore = await storeRows(s, 'st_a')
  for (const p of projections) await rebuildProjection(s.db, s.eventStore, p, { batchSize: 50 })
  t.same(afterStore, await storeRows(s, 'st_a'), 'store A’s rows equal a full rebuild’s')
  t.same(otherAfter, await storeRows(s, 'st_b'), 'and store B’s too')

  const status = await storeProjectionStates(s.db, projections, 'st_a')
  t.ok(
    status.every((x) => x.rebuiltAt === null && !x.rebuildNeeded && x.events > 0),
    'after the whole-table rebuild, status says the rows were built with the table',
  )
})

t.test('projections:status per store says which code version built the store’s rows', async (t) => {
  const s = await testServices(t)
  await storeHistory(s, 'st_a', 1, 1)
  const themes = projections.find((p) => p.name === 'themes')!
  const newer = { ...themes, version: (themes.version ?? 1) + 1 }
  const before = (await storeProjectionStates(s.db, [newer], 'st_a'))[0]!
  t.ok(before.rebuildNeeded, 'code version moved: the store needs a rebuild')
  t.equal(before.rows, 1)
  await rebuildStoreProjection(s.db, s.eventStore, newer, 'st_a')
  const after = (await storeProjectionStates(s.db, [newer], 'st_a'))[0]!
  t.notOk(after.rebuildNeeded, 'rebuilt by the new code')
  t.ok(after.rebuiltAt instanceof Date)
  t.ok((await storeProjectionStates(s.db, [newer], 'st_b'))[0]!.rebuildNeeded, 'another store still needs it')
})
