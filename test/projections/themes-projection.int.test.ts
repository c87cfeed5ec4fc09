import t from 'tap'
import { themeDecider } from '../../src/aggregates/theme/decider.ts'
import type { ThemeEvent } from '../../src/aggregates/theme/events.ts'
import { themeStream } from '../../src/aggregates/theme/events.ts'
import { themesProjection } from '../../src/projections/themes-projection.ts'
import { defaultThemeDocument } from '../../src/theme/document.ts'
import { type Given, projectionSpec } from '../support/projection-spec.ts'

// The themes projection: one row per theme, its whole state (the command side's snapshot too).
const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`
const theme = (storeId: string, themeId: string, events: ThemeEvent[], command?: string): Given[] =>
  events.map((e) => ({ ...e, streamId: themeStream(themeId), storeId, ...(command ? { command } : {}) }))
const created = (storeId: string, themeId: string): ThemeEvent => ({
  type: 'ThemeCreated',
  data: {
    themeId,
    storeId,
    name: 'Spring',
    provider: 'claude',
    document: defaultThemeDocument(),
    duplicatedFrom: null,
    at: at(0),
  },
})
const spacer = (id: string, minute: number): ThemeEvent => ({
  type: 'SectionAdded',
  data: {
    target: { template: 'home' },
    index: 0,
    section: { id, type: 'spacer', settings: { height: 8 } },
    at: at(minute),
  },
})

t.test('themes', async (t) => {
  const spec = await projectionSpec(t, themesProjection, [themeDecider])

  await t.test('a created theme is a draft at version 1', async (t) => {
    await spec.given(theme('st_t1', 'thm_a', [created('st_t1', 'thm_a')])).thenRows(t, {
      themes: [
        { theme_id: 'thm_a', store_id: 'st_t1', name: 'Spring', status: 'draft', version: 1, stream_version: 1 },
      ],
    })
  })

  await t.test('edits, a batch of two, a rename: the version counts them; the document holds them', async (t) => {
    const rows = await spec
      .given([
        ...theme('st_t2', 'thm_b', [created('st_t2', 'thm_b')]),
        ...theme('st_t2', 'thm_b', [spacer('s1', 1), spacer('s2', 2)], 'batch'),
        ...theme('st_t2', 'thm_b', [
          { type: 'ThemeRenamed', data: { name: 'Summer', previousName: 'Spring', at: at(3) } },
        ]),
      ])
      .thenRows(t, {
        themes: [{ theme_id: 'thm_b', name: 'Summer', version: 4, stream_version: 4, updated_at: at(3) }],
      })
    const home = (rows.themes![0] as { document: { templates: { home: { id: string }[] } } }).document.templates.home
    t.same(
      home.slice(0, 2).map((s) => s.id),
      ['s2', 's1'],
    )
  })

  await t.test('a preview is recorded without a new version; publish and archive set their times', async (t) => {
    await spec
      .given(
        theme('st_t3', 'thm_c', [
          created('st_t3', 'thm_c'),
          { type: 'ThemePreviewIssued', data: { tokenId: 'jti', expiresAt: at(20), themeVersion: 1, at: at(5) } },
          { type: 'ThemePublished', data: { previousThemeId: null, at: at(6) } },
          { type: 'ThemeUnpublished', data: { replacedBy: 'thm_x', at: at(7) } },
          { type: 'ThemeArchived', data: { at: at(8) } },
        ]),
      )
      .thenRows(t, {
        themes: [
          {
            theme_id: 'thm_c',
            status: 'archived',
            version: 4,
            stream_version: 5,
            last_preview_at: at(5),
            last_previewed_version: 1,
            published_at: at(6),
            archived_at: at(8),
          },
        ],
      })
  })

  await t.test('themes of two stores stay apart', async (t) => {
    await spec
      .given([
        ...theme('st_t4', 'thm_d', [created('st_t4', 'thm_d')]),
        ...theme('st_t5', 'thm_e', [created('st_t5', 'thm_e')]),
      ])
      .thenRows(t, {
        themes: [
          { theme_id: 'thm_d', store_id: 'st_t4' },
          { theme_id: 'thm_e', store_id: 'st_t5' },
        ],
      })
  })
})
