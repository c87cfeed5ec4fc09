import t from 'tap'
import { fold, type ThemeState } from '../../src/aggregates/theme/state.ts'
import type { ThemeEvent } from '../../src/aggregates/theme/events.ts'
import { findTheme } from '../../src/queries/themes/theme-queries.ts'
import { testDatabaseKind } from '../support/database.ts'
import { agent, testServices } from '../support/services.ts'
import { applyThemeEdits, createTheme, publishTheme } from '../../src/commands/theme.ts'

const STORE = 'st_concurrency'
const spacer = (id: string) => ({ id, type: 'spacer', settings: { height: 16 } })

t.test(
  '20 concurrent batches on one theme: each applied whole or refused with a conflict, never refused without an expected version; the document equals the replay',
  async (t) => {
    const s = await testServices(t, { poolSize: 20 })
    const created = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'Busy', provider: 'test' })
    if (!created.ok) throw new Error(created.error.message)
    const id = created.value.themeId
    const pages = await applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), id, {
      operations: [0, 1].map((i) => ({
        op: 'createPage',
        page: { id: `p${i}`, slug: `page-${i}`, title: `Page ${i}`, status: 'draft', layout: [] },
      })) as never,
    })
    t.ok(pages.ok)
    const base = pages.ok ? pages.value.version : 0

    // Half the batches name the version they read (only one of those can win); half do not (retried).
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), id, {
          operations: [
            { op: 'createSection', target: { pageId: `p${i % 2}` }, section: spacer(`b${i}-a`) },
            { op: 'createSection', target: { pageId: `p${i % 2}` }, section: spacer(`b${i}-b`) },
          ] as never,
          ...(i % 2 === 0 ? { expectedVersion: base } : {}),
        }),
      ),
    )
    const theme = (await findTheme(s.read, STORE, id))!
    const ids = new Set(theme.document.pages.flatMap((p) => p.layout.map((x) => x.id)))
    let applied = 0
    results.forEach((r, i) => {
      const a = ids.has(`b${i}-a`)
      const b = ids.has(`b${i}-b`)
      t.equal(a, b, `batch ${i} is whole or absent`)
      t.equal(r.ok, a, `batch ${i}: success exactly when applied`)
      if (!r.ok) t.equal(r.error.code, 'VERSION_CONFLICT', `batch ${i} refused with a conflict`)
      if (r.ok) applied++
    })
    t.ok(
      results.every((r, i) => i % 2 === 0 || r.ok),
      'every batch without an expected version is applied',
    )
    const withExpected = results.filter((r, i) => i % 2 === 0 && r.ok).length
    t.ok(withExpected <= 1, `at most one batch naming the same version wins (won: ${withExpected})`)
    t.ok(applied >= 1)
    t.equal(theme.version, base + 2 * applied)

    const events = await s.eventStore.readStream(`theme-${id}`)
    const replayed = fold(events.map((e) => ({ type: e.type, data: e.data }) as ThemeEvent)) as ThemeState & {
      exists: true
    }
    t.same(replayed.document, theme.document, 'the projected document equals the replay of the stream')
    t.equal(replayed.version, theme.version)
  },
)

// PGlite has one connection: its writers never race, so there is nothing to test there.
t.test(
  '50 concurrent batches without an expected version on one theme: all applied, none refused; the document equals the replay',
  { skip: testDatabaseKind === 'pglite' ? 'one connection on PGlite: writers cannot race' : false },
  async (t) => {
    const writers = 50
    // A connection per writer: with 20, thirty writers queued in the pool behind writers that take
    // turns on the stream, and on the loaded CI machine waited past the pool's 5 s connection
    // timeout (src/db/connect.ts): a failure of the machine's load, not of the store.
    const s = await testServices(t, { poolSize: writers })
    const created = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'Crowded', provider: 'test' })
    if (!created.ok) throw new Error(created.error.message)
    const id = created.value.themeId
    // Five pages, ten sections each (a layout holds at most 25).
    const pages = await applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), id, {
      operations: [0, 1, 2, 3, 4].map((i) => ({
        op: 'createPage',
        page: { id: `q${i}`, slug: `crowd-${i}`, title: `Crowd ${i}`, status: 'draft', layout: [] },
      })) as never,
    })
    if (!pages.ok) throw new Error(pages.error.message)
    const results = await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), id, {
          operations: [{ op: 'createSection', target: { pageId: `q${i % 5}` }, section: spacer(`c${i}`) }] as never,
        }),
      ),
    )
    const refused = results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.error.code))
    t.same(refused, [], 'no batch refused')
    const theme = (await findTheme(s.read, STORE, id))!
    const ids = new Set(theme.document.pages.flatMap((p) => p.layout.map((x) => x.id)))
    t.equal(
      [...Array(writers).keys()].filter((i) => ids.has(`c${i}`)).length,
      writers,
      'every batch is in the document',
    )
    t.equal(theme.version, pages.value.version + writers)
    const events = await s.eventStore.readStream(`theme-${id}`)
    const replayed = fold(events.map((e) => ({ type: e.type, data: e.data }) as ThemeEvent)) as ThemeState & {
      exists: true
    }
    t.same(replayed.document, theme.document, 'the projected document equals the replay of the stream')
  },
)

t.test('concurrent publishes of different themes in one store: exactly one is active afterwards', async (t) => {
  const s = await testServices(t, { poolSize: 20 })
  const themes: string[] = []
  for (let i = 0; i < 6; i++) {
    const r = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: `T${i}`, provider: 'test' })
    if (r.ok) themes.push(r.value.themeId)
  }
  const results = await Promise.all(themes.map((id) => publishTheme(s.commands, agent(STORE, 'publishTheme'), id, {})))
  t.ok(
    results.every((r) => r.ok),
    'every publish lands (in some order)',
  )
  const rows = await s.db.selectFrom('themes').select(['theme_id', 'status']).where('store_id', '=', STORE).execute()
  const active = rows.filter((r) => r.status === 'active')
  t.equal(active.length, 1, 'exactly one active theme')
  t.equal(
    rows.filter((r) => r.status === 'private').length,
    themes.length - 1,
    'the others were live once and are now private',
  )
  const live = await s.db.selectFrom('live_themes').selectAll().where('store_id', '=', STORE).executeTakeFirstOrThrow()
  t.equal(live.theme_id, active[0]!.theme_id, 'the storefront points at the active theme')
  const registry = await s.eventStore.readStream(`store-themes-${STORE}`)
  const changes = registry
    .filter((e) => e.type === 'LiveThemeChanged')
    .map((e) => e.data as { themeId: string; previousThemeId: string | null })
  t.equal(changes.length, themes.length)
  for (const [i, c] of changes.entries())
    t.equal(c.previousThemeId, i === 0 ? null : changes[i - 1]!.themeId, 'each change names the one before it')
})
