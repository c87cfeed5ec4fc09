import t from 'tap'
import type { StoreThemesEvent } from '../../src/aggregates/store-themes/events.ts'
import { storeThemesStream } from '../../src/aggregates/store-themes/events.ts'
import { liveThemesProjection } from '../../src/projections/live-themes-projection.ts'
import { type Given, projectionSpec } from '../support/projection-spec.ts'

// live_themes: the theme each store's storefront renders, from its registry's LiveThemeChanged.
const at = '2026-11-21T10:00:00.000Z'
const registry = (storeId: string, events: StoreThemesEvent[]): Given[] =>
  events.map((e) => ({ ...e, streamId: storeThemesStream(storeId), storeId }))
const live = (themeId: string, previousThemeId: string | null): StoreThemesEvent => ({
  type: 'LiveThemeChanged',
  data: { themeId, previousThemeId, at },
})

t.test('live_themes', async (t) => {
  const spec = await projectionSpec(t, liveThemesProjection)

  await t.test('no live theme until one is published; adding themes is not publishing', async (t) => {
    await spec
      .given(registry('st_l1', [{ type: 'StoreThemeAdded', data: { themeId: 'thm_a', at } }]))
      .thenRows(t, { live_themes: [] })
  })

  await t.test('the last change wins, with the stream version it came at', async (t) => {
    await spec
      .given(
        registry('st_l2', [
          { type: 'StoreThemeAdded', data: { themeId: 'thm_a', at } },
          live('thm_a', null),
          { type: 'StoreThemeAdded', data: { themeId: 'thm_b', at } },
          live('thm_b', 'thm_a'),
        ]),
      )
      .thenRows(t, { live_themes: [{ store_id: 'st_l2', theme_id: 'thm_b', stream_version: 4 }] })
  })
})
