import t from 'tap'
import { storeThemesDecider } from '../../../src/aggregates/store-themes/decider.ts'
import type { StoreThemesEvent } from '../../../src/aggregates/store-themes/events.ts'
import { LIMITS } from '../../../src/theme/document.ts'
import { deciderSpec } from '../../support/decider-spec.ts'

// A store's theme registry: the themes that count against its limit, and the live one.
const at = '2026-11-21T10:00:00.000Z'
const { given } = deciderSpec(storeThemesDecider, { at })
const added = (themeId: string): StoreThemesEvent => ({ type: 'StoreThemeAdded', data: { themeId, at } })
const archived = (themeId: string): StoreThemesEvent => ({ type: 'StoreThemeArchived', data: { themeId, at } })
const live = (themeId: string, previousThemeId: string | null = null): StoreThemesEvent => ({
  type: 'LiveThemeChanged',
  data: { themeId, previousThemeId, at },
})
const full = Array.from({ length: LIMITS.themesPerStore }, (_, i) => added(`t${i}`))

t.test('AddTheme: up to the limit of themes that are not archived', async (t) => {
  t.same(given([]).when({ type: 'AddTheme', themeId: 't0' }).thenEmits(['StoreThemeAdded']), [added('t0')])
  const refusal = given(full).when({ type: 'AddTheme', themeId: 'one-more' }).thenRefuses('LIMIT_EXCEEDED')
  t.same(refusal.details, { limit: LIMITS.themesPerStore })
  given([...full, archived('t3')])
    .when({ type: 'AddTheme', themeId: 'fits-again' })
    .thenEmits(['StoreThemeAdded'])
})

t.test('RemoveTheme: an archived theme leaves the registry; an unknown one changes nothing', async (t) => {
  t.same(
    given([added('t1')])
      .when({ type: 'RemoveTheme', themeId: 't1' })
      .thenEmits(['StoreThemeArchived']),
    [archived('t1')],
  )
  given([added('t1')])
    .when({ type: 'RemoveTheme', themeId: 'unknown' })
    .thenEmits([])
})

t.test('ChangeLiveTheme: names the theme it replaces; the live theme again changes nothing', async (t) => {
  t.same(
    given([added('t1')])
      .when({ type: 'ChangeLiveTheme', themeId: 't1' })
      .thenEmits(['LiveThemeChanged']),
    [live('t1')],
  )
  given([added('t1'), live('t1')])
    .when({ type: 'ChangeLiveTheme', themeId: 't1' })
    .thenEmits([])
  t.same(
    given([added('t1'), added('t2'), live('t1')])
      .when({ type: 'ChangeLiveTheme', themeId: 't2' })
      .thenDecides(),
    [live('t2', 't1')],
  )
})

t.test('evolve: the registry as its events leave it', async (t) => {
  t.same(given([added('a'), added('b'), live('a'), archived('b')]).state, { themeIds: ['a'], activeThemeId: 'a' })
})
