import t from 'tap'
import { storeThemesDecider } from '../../../src/aggregates/store-themes/decider.ts'
import type { StoreThemesEvent } from '../../../src/aggregates/store-themes/events.ts'
import { fold } from '../../../src/aggregates/decider.ts'
import type { ThemeEvent } from '../../../src/aggregates/theme/events.ts'
import { decidePublish } from '../../../src/aggregates/theme/publish.ts'
import { themeDecider } from '../../../src/aggregates/theme/decider.ts'
import { defaultThemeDocument } from '../../../src/theme/document.ts'
import { decisionSpec } from '../../support/decider-spec.ts'

// Publishing, decided over the theme, the store's registry and the theme that was live.
const at = '2026-11-21T10:00:00.000Z'
const context = { storeId: 'st_a', known: { productIds: new Set<string>(), collectionIds: new Set<string>() }, at }
const created = (themeId: string, document = defaultThemeDocument()): ThemeEvent => ({
  type: 'ThemeCreated',
  data: { themeId, storeId: 'st_a', name: themeId, provider: 'test', document, duplicatedFrom: null, at },
})
const published: ThemeEvent = { type: 'ThemePublished', data: { previousThemeId: null, at } }
const liveIs = (themeId: string): StoreThemesEvent => ({
  type: 'LiveThemeChanged',
  data: { themeId, previousThemeId: null, at },
})

type Given = { theme: ThemeEvent[]; registry: StoreThemesEvent[]; formerLive?: ThemeEvent[] }
const { given } = decisionSpec(
  (g: Given) => (input: { expectedVersion?: number; checkErrors?: { count: number; rules: string[] } }) =>
    decidePublish(
      {
        themeId: 'thm_new',
        theme: fold(themeDecider, g.theme),
        registry: fold(storeThemesDecider, g.registry),
        formerLive: g.formerLive ? fold(themeDecider, g.formerLive) : null,
        expectedVersion: input.expectedVersion,
        checkErrors: input.checkErrors,
      },
      context,
    ),
)

t.test('the first publish of a store: the theme goes live, the registry records it', async (t) => {
  t.same(
    given({ theme: [created('thm_new')], registry: [] })
      .when({})
      .thenDecides(),
    {
      theme: [{ type: 'ThemePublished', data: { previousThemeId: null, wasLive: false, themeVersion: 1, at } }],
      registry: [{ type: 'LiveThemeChanged', data: { themeId: 'thm_new', previousThemeId: null, at } }],
      formerLive: [],
    },
  )
})

t.test('publishing replaces the live theme, which becomes private, in the same decision', async (t) => {
  t.same(
    given({ theme: [created('thm_new')], registry: [liveIs('thm_old')], formerLive: [created('thm_old'), published] })
      .when({})
      .thenDecides(),
    {
      theme: [{ type: 'ThemePublished', data: { previousThemeId: 'thm_old', wasLive: false, themeVersion: 1, at } }],
      registry: [{ type: 'LiveThemeChanged', data: { themeId: 'thm_new', previousThemeId: 'thm_old', at } }],
      formerLive: [{ type: 'ThemeUnpublished', data: { replacedBy: 'thm_new', at } }],
    },
  )
})

t.test('publishing the live theme again changes nothing', async (t) => {
  t.same(
    given({ theme: [created('thm_new'), published], registry: [liveIs('thm_new')] })
      .when({})
      .thenDecides(),
    {
      theme: [],
      registry: [],
      formerLive: [],
    },
  )
})

t.test('refusals: a stale version, an archived theme, a theme of another store, a broken reference', async (t) => {
  const stale = given({ theme: [created('thm_new')], registry: [] }).when({ expectedVersion: 7 })
  t.match(stale.thenRefuses('VERSION_CONFLICT').details, { currentVersion: 1 })
  given({ theme: [created('thm_new'), { type: 'ThemeArchived', data: { at } }], registry: [] })
    .when({})
    .thenRefuses('THEME_NOT_EDITABLE')
  given({ theme: [], registry: [] }).when({}).thenRefuses('NOT_FOUND')
  const document = defaultThemeDocument()
  document.templates.home.push({ id: 'fp', type: 'featured-product', settings: { productId: 'prod_gone' } } as never)
  given({ theme: [created('thm_new', document)], registry: [] })
    .when({})
    .thenRefuses('INVALID_PRODUCT_REFERENCE')
})

t.test('a version with check errors goes live with them recorded; none recorded when there are none', async (t) => {
  const errors = { count: 2, rules: ['broken-link', 'contrast'] }
  t.same(
    given({ theme: [created('thm_new')], registry: [] })
      .when({ checkErrors: errors })
      .thenDecides().theme,
    [
      {
        type: 'ThemePublished',
        data: { previousThemeId: null, wasLive: false, themeVersion: 1, checkErrors: errors, at },
      },
    ],
  )
  t.same(
    given({ theme: [created('thm_new')], registry: [] })
      .when({ checkErrors: { count: 0, rules: [] } })
      .thenDecides().theme,
    [{ type: 'ThemePublished', data: { previousThemeId: null, wasLive: false, themeVersion: 1, at } }],
  )
})
