import t from 'tap'
import { evolve, fold, initialThemeState } from '../../../src/aggregates/theme/state.ts'
import type { ThemeEvent } from '../../../src/aggregates/theme/events.ts'
import { defaultThemeDocument, LIMITS } from '../../../src/theme/document.ts'
import { type ThemeCommand, themeDecider } from '../../../src/aggregates/theme/decider.ts'
import { deciderSpec } from '../../support/decider-spec.ts'

// The theme aggregate's decider: given (events) / when (command) / then (events or refusal).
const at = '2026-11-21T10:00:00.000Z'
const known = { productIds: new Set(['prod_1', 'prod_2']), collectionIds: new Set(['coll_1']) }
const ctx = { storeId: 'st_a', known, at }

const created = (overrides: Partial<Extract<ThemeEvent, { type: 'ThemeCreated' }>['data']> = {}): ThemeEvent => ({
  type: 'ThemeCreated',
  data: {
    themeId: 'thm_1',
    storeId: 'st_a',
    name: 'Draft',
    provider: 'claude',
    document: defaultThemeDocument(),
    duplicatedFrom: null,
    at,
    ...overrides,
  },
})
const published: ThemeEvent = { type: 'ThemePublished', data: { previousThemeId: null, at } }
const unpublished: ThemeEvent = { type: 'ThemeUnpublished', data: { replacedBy: 'thm_2', at } }
const archived: ThemeEvent = { type: 'ThemeArchived', data: { at } }

const spec = deciderSpec(themeDecider, ctx)
const given = spec.given

const section = (id: string, type = 'spacer', settings: Record<string, unknown> = { height: 24 }) => ({
  id,
  type,
  settings,
})
const ops = (operations: unknown[], expectedVersion?: number): ThemeCommand => ({
  type: 'ApplyEdits',
  operations: operations as never,
  expectedVersion,
})

t.test('CreateTheme', async (t) => {
  const events = given([])
    .when({
      type: 'CreateTheme',
      themeId: 'thm_1',
      name: ' Spring ',
      provider: 'claude',
      document: defaultThemeDocument(),
      duplicatedFrom: null,
    })
    .thenEmits(['ThemeCreated'])
  t.equal((events[0] as Extract<ThemeEvent, { type: 'ThemeCreated' }>).data.name, 'Spring', 'name is trimmed')
  given([created()])
    .when({
      type: 'CreateTheme',
      themeId: 'thm_1',
      name: 'x',
      provider: 'claude',
      document: defaultThemeDocument(),
      duplicatedFrom: null,
    })
    .thenRefuses('VERSION_CONFLICT')
  given([])
    .when({
      type: 'CreateTheme',
      themeId: 'thm_1',
      name: '',
      provider: 'claude',
      document: defaultThemeDocument(),
      duplicatedFrom: null,
    })
    .thenRefuses('VALIDATION_FAILED')
  given([])
    .when({
      type: 'CreateTheme',
      themeId: 'thm_1',
      name: '<b>x</b>',
      provider: 'claude',
      document: defaultThemeDocument(),
      duplicatedFrom: null,
    })
    .thenRefuses('UNSAFE_CONTENT')
  const withBadRef = defaultThemeDocument()
  withBadRef.templates.home.push({ id: 'fp', type: 'featured-product', settings: { productId: 'prod_gone' } } as never)
  const refused = given([])
    .when({
      type: 'CreateTheme',
      themeId: 'thm_1',
      name: 'Copy',
      provider: 'claude',
      document: withBadRef,
      duplicatedFrom: 'thm_0',
    })
    .thenRefuses('INVALID_PRODUCT_REFERENCE')
  t.match(refused.details, { issues: [{ path: /^document\.templates\.home\[\d+\]\.settings\.productId$/ }] })
})

t.test('every edit needs an existing draft of the caller’s store and a current version', async (t) => {
  const edit = ops([{ op: 'createSection', target: { template: 'home' }, section: section('s1') }])
  given([]).when(edit).thenRefuses('NOT_FOUND')
  given([created({ storeId: 'st_b' })])
    .when(edit)
    .thenRefuses('NOT_FOUND')
  given([created(), published]).when(edit).thenRefuses('THEME_NOT_EDITABLE')
  given([created(), published, unpublished]).when(edit).thenRefuses('THEME_NOT_EDITABLE')
  given([created(), archived]).when(edit).thenRefuses('THEME_NOT_EDITABLE')
  const stale = given([created()])
    .when(ops([{ op: 'deleteSection', sectionId: 'x' }], 7))
    .thenRefuses('VERSION_CONFLICT')
  t.same(stale.details, { currentVersion: 1 })
  given([created()])
    .when(ops([{ op: 'createSection', target: { template: 'home' }, section: section('s1') }], 1))
    .thenEmits(['SectionAdded'])
  given([created()]).when({ type: 'UpdateTheme', name: 'New name', operations: [] }).thenEmits(['ThemeRenamed'])
  given([created()]).when({ type: 'UpdateTheme', name: 'Draft', operations: [] }).thenEmits([])
  given([created(), published])
    .when({ type: 'UpdateTheme', name: 'x', operations: [] })
    .thenRefuses('THEME_NOT_EDITABLE')
})

t.test('each operation kind becomes its event', async () => {
  const g = given([created()])
  g.when(
    ops([{ op: 'createPage', page: { id: 'p1', slug: 'about', title: 'About', status: 'draft', layout: [] } }]),
  ).thenEmits(['PageCreated'])
  g.when(ops([{ op: 'updateTokens', tokens: { primaryColor: '#112233' } }])).thenEmits(['ThemeTokensUpdated'])
  g.when(ops([{ op: 'setNavigation', navigation: [{ label: 'Shop', href: '/products' }] }])).thenEmits([
    'ThemeNavigationSet',
  ])
  const withPage = given([
    created(),
    {
      type: 'PageCreated',
      data: {
        page: { id: 'p1', slug: 'about', title: 'About', status: 'draft', layout: [section('s9')] } as never,
        index: 0,
        at,
      },
    },
  ])
  withPage.when(ops([{ op: 'updatePage', pageId: 'p1', changes: { title: 'About us' } }])).thenEmits(['PageUpdated'])
  withPage.when(ops([{ op: 'deletePage', pageId: 'p1' }])).thenEmits(['PageDeleted'])
  withPage
    .when(ops([{ op: 'updateSection', sectionId: 's9', settings: { showDivider: true } }]))
    .thenEmits(['SectionUpdated'])
  withPage
    .when(ops([{ op: 'moveSection', sectionId: 's9', target: { template: 'home' }, index: 0 }]))
    .thenEmits(['SectionMoved'])
  withPage.when(ops([{ op: 'deleteSection', sectionId: 's9' }])).thenEmits(['SectionRemoved'])
})

t.test('a batch is all or nothing, and every problem carries its operation index', async (t) => {
  const error = given([created()])
    .when(
      ops([
        { op: 'createSection', target: { template: 'home' }, section: section('ok1') },
        {
          op: 'createSection',
          target: { template: 'home' },
          section: section('bad', 'featured-product', { productId: 'prod_invented' }),
        },
        { op: 'updateSection', sectionId: 'missing', settings: {} },
        { op: 'createSection', target: { template: 'home' }, section: section('ok1') },
        { op: 'createSection', target: { pageId: 'nope' }, section: section('x2') },
        {
          op: 'createSection',
          target: { template: 'home' },
          section: { id: 'x3', type: 'rich-text', settings: { body: '<p onclick="x()">hi</p>' } },
        },
      ]),
    )
    .thenRefuses('UNSAFE_CONTENT')
  const issues = error.details!.issues as { operationIndex: number; code: string }[]
  t.same(
    issues.map((i) => [i.operationIndex, i.code]),
    [
      [1, 'INVALID_PRODUCT_REFERENCE'],
      [2, 'NOT_FOUND'],
      [3, 'CONFLICT'],
      [4, 'NOT_FOUND'],
      [5, 'UNSAFE_CONTENT'],
    ],
  )
  t.match(error.details, { hint: undefined })
  const refError = given([created()])
    .when(
      ops([
        {
          op: 'createSection',
          target: { template: 'home' },
          section: section('bad', 'featured-product', { productId: 'prod_invented' }),
        },
      ]),
    )
    .thenRefuses('INVALID_PRODUCT_REFERENCE')
  t.match(refError.details, { hint: /listProducts/ })
})

t.test('limits', async () => {
  const doc = defaultThemeDocument()
  const fill = LIMITS.sectionsPerLayout - doc.templates.home.length
  const full = given([created()])
    .when(
      ops(
        Array.from({ length: fill }, (_, i) => ({
          op: 'createSection',
          target: { template: 'home' },
          section: section(`s${i}`),
        })),
      ),
    )
    .thenEmits(Array(fill).fill('SectionAdded'))
  given([created(), ...full])
    .when(ops([{ op: 'createSection', target: { template: 'home' }, section: section('one-more') }]))
    .thenRefuses('LIMIT_EXCEEDED')
  const pages = Array.from({ length: LIMITS.pagesPerTheme }, (_, i) => ({
    op: 'createPage',
    page: { id: `p${i}`, slug: `page-${i}`, title: `P${i}`, status: 'draft', layout: [] },
  }))
  given([created()]).when(ops(pages)).thenEmits(Array(LIMITS.pagesPerTheme).fill('PageCreated'))
  given([created()])
    .when(
      ops([
        ...pages,
        { op: 'createPage', page: { id: 'px', slug: 'page-x', title: 'X', status: 'draft', layout: [] } },
      ]),
    )
    .thenRefuses('LIMIT_EXCEEDED')
})

t.test('ArchiveTheme', async () => {
  given([created()]).when({ type: 'ArchiveTheme' }).thenEmits(['ThemeArchived'])
  given([created(), published, unpublished]).when({ type: 'ArchiveTheme' }).thenEmits(['ThemeArchived'])
  given([created(), published]).when({ type: 'ArchiveTheme' }).thenRefuses('THEME_IS_ACTIVE')
  given([created(), archived]).when({ type: 'ArchiveTheme' }).thenRefuses('THEME_NOT_EDITABLE')
  given([created()]).when({ type: 'ArchiveTheme', expectedVersion: 3 }).thenRefuses('VERSION_CONFLICT')
  given([]).when({ type: 'ArchiveTheme' }).thenRefuses('NOT_FOUND')
})

t.test('PublishTheme and UnpublishTheme', async (t) => {
  const events = given([created()])
    .when({ type: 'PublishTheme', previousThemeId: 'thm_0' })
    .thenEmits(['ThemePublished'])
  t.same(events[0]!.data, { previousThemeId: 'thm_0', wasLive: false, themeVersion: 1, at })
  // Re-publishing a former live theme is the rollback: the event says so, for the activity view.
  const again = given([created(), published, unpublished])
    .when({ type: 'PublishTheme', previousThemeId: 'thm_2' })
    .thenEmits(['ThemePublished'])
  t.same(again[0]!.data, { previousThemeId: 'thm_2', wasLive: true, themeVersion: 3, at })
  given([created(), published]).when({ type: 'PublishTheme', previousThemeId: null }).thenEmits([])
  given([created(), archived]).when({ type: 'PublishTheme', previousThemeId: null }).thenRefuses('THEME_NOT_EDITABLE')
  given([created()])
    .when({ type: 'PublishTheme', previousThemeId: null, expectedVersion: 2 })
    .thenRefuses('VERSION_CONFLICT')
  // Validated again at publish: a product removed from the catalog since the edit blocks it.
  const doc = defaultThemeDocument()
  doc.templates.home.push({ id: 'fp', type: 'featured-product', settings: { productId: 'prod_1' } } as never)
  given([created({ document: doc })])
    .when(
      { type: 'PublishTheme', previousThemeId: null },
      { ...ctx, known: { productIds: new Set(), collectionIds: new Set() } },
    )
    .thenRefuses('INVALID_PRODUCT_REFERENCE')
  given([created(), published]).when({ type: 'UnpublishTheme', replacedBy: 'thm_2' }).thenEmits(['ThemeUnpublished'])
  given([created()]).when({ type: 'UnpublishTheme', replacedBy: 'thm_2' }).thenEmits([])
})

t.test('RecordPreviewIssued works in any state and does not change the version', async (t) => {
  for (const history of [[created()], [created(), published], [created(), archived]]) {
    const [event] = given(history)
      .when({ type: 'RecordPreviewIssued', tokenId: 'jti', expiresAt: at })
      .thenEmits(['ThemePreviewIssued'])
    const before = fold(history)
    const after = evolve(before, event!)
    t.equal(after.exists && after.version, before.exists && before.version)
    t.equal(after.exists && after.lastPreviewedVersion, before.exists && before.version)
  }
})

t.test('evolve: versions and statuses', async (t) => {
  const state = fold([
    created(),
    { type: 'ThemeRenamed', data: { name: 'B', previousName: 'Draft', at } },
    published,
    unpublished,
    archived,
  ])
  t.match(state, { exists: true, name: 'B', status: 'archived', version: 5, publishedAt: at, archivedAt: at })
  t.same(evolve(initialThemeState, published), initialThemeState, 'events before creation change nothing')
})
