import { encodePng } from '../../../src/seed/images.ts'
import { unique, type Ids, type Req, type World } from './world.ts'

// One entry per contract operation: a request that succeeds, and the requests that make it
// answer each documented error status it can produce. Builders get the ids to aim at (store A's
// normally; store B's in the isolation test) and may prepare resources with setup calls in the
// store of those ids; the request they return carries no credential (the runner adds one).

export type Build = (w: World, ids: Ids) => Promise<Req>
export type ErrorCase = { status: 400 | 404 | 409; code: string; name: string; build: Build }
export type OperationCase = {
  operationId: string
  // A well-formed request on the stable resources; used where the handler never runs (401, 403, 429).
  base: (ids: Ids) => Req
  // Succeeds with a key of the store of `ids` holding the operation's scopes.
  success: Build
  successStatus: number
  errors: ErrorCase[]
}

const NOPE = 'does-not-exist-0'
const LONG_ID = 'x'.repeat(101)

export const pngBytes = (seed = 0, size = 4) => {
  const rgb = new Uint8Array(size * size * 3)
  for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 31 + seed * 7) & 0xff
  return encodePng(size, size, rgb)
}

const get = (url: string): Req => ({ method: 'GET', url })
const json = (method: string, url: string, payload: unknown, headers?: Record<string, string>): Req => ({
  method,
  url,
  payload: payload as object,
  ...(headers ? { headers } : {}),
})
const theme = (id: string) => `/api/v1/themes/${id}`

// The theme's current version, for a stale If-Match.
const staleMatch = async (w: World, ids: Ids, themeId = ids.draftId) => {
  const t = await w.setup(ids.storeId, get(theme(themeId)))
  if (t.version < 2) throw new Error('stale If-Match needs a theme at version 2 or more')
  return { 'if-match': `"${t.version - 1}"` }
}
const freshPage = async (w: World, ids: Ids) =>
  (await w.setup(ids.storeId, json('POST', `${theme(ids.draftId)}/pages`, { slug: unique('p-'), title: 'Scratch' })))
    .id as string
const freshSection = async (w: World, ids: Ids) =>
  (
    await w.setup(
      ids.storeId,
      json('POST', `${theme(ids.draftId)}/sections`, {
        target: { pageId: ids.pageId },
        section: { type: 'hero', settings: { heading: 'Scratch' } },
      }),
    )
  ).section.id as string
const freshDraft = async (w: World, ids: Ids) =>
  (await w.setup(ids.storeId, json('POST', '/api/v1/themes', { name: unique('Draft '), provider: 'tap' }))).id as string

// The first request with an Idempotency-Key, then a different request with the same key.
const reused =
  (first: (ids: Ids) => Req, second: (ids: Ids) => Req): Build =>
  async (w, ids) => {
    const key = unique('idem-reuse-')
    const a = first(ids)
    await w.setup(ids.storeId, { ...a, headers: { ...a.headers, 'idempotency-key': key } })
    const b = second(ids)
    return { ...b, headers: { ...b.headers, 'idempotency-key': key } }
  }

const e400 = (name: string, build: Build, code = 'VALIDATION_FAILED'): ErrorCase => ({ status: 400, code, name, build })
const e404 = (name: string, build: Build): ErrorCase => ({ status: 404, code: 'NOT_FOUND', name, build })
const e409 = (code: string, name: string, build: Build): ErrorCase => ({ status: 409, code, name, build })
const sync =
  (req: (ids: Ids) => Req): Build =>
  async (_w, ids) =>
    req(ids)

const paginated = (operationId: string, url: string): OperationCase => ({
  operationId,
  base: () => get(url),
  success: sync(() => get(`${url}?limit=2`)),
  successStatus: 200,
  errors: [
    e400(
      'limit 0',
      sync(() => get(`${url}?limit=0`)),
    ),
    e400(
      'limit 101',
      sync(() => get(`${url}?limit=101`)),
    ),
    e400(
      'forged cursor',
      sync(() => get(`${url}?cursor=eyJ2IjoxfQ.AAAA`)),
      'INVALID_CURSOR',
    ),
  ],
})

const byId = (operationId: string, url: string, pick: (ids: Ids) => string): OperationCase => ({
  operationId,
  base: (ids) => get(`${url}/${pick(ids)}`),
  success: sync((ids) => get(`${url}/${pick(ids)}`)),
  successStatus: 200,
  errors: [
    e400(
      'id longer than 100',
      sync(() => get(`${url}/${LONG_ID}`)),
    ),
    e404(
      'unknown id',
      sync(() => get(`${url}/${NOPE}`)),
    ),
  ],
})

const plain = (operationId: string, url: string): OperationCase => ({
  operationId,
  base: () => get(url),
  success: sync(() => get(url)),
  successStatus: 200,
  errors: [],
})

export const operationCases: OperationCase[] = [
  plain('getContext', '/api/v1/context'),
  plain('getStore', '/api/v1/store'),
  plain('getStoreSettings', '/api/v1/store/settings'),
  {
    ...paginated('listProducts', '/api/v1/products'),
    errors: [
      ...paginated('listProducts', '/api/v1/products').errors,
      e400(
        'unknown status',
        sync(() => get('/api/v1/products?status=sold')),
      ),
    ],
  },
  byId('getProduct', '/api/v1/products', (ids) => ids.productId),
  paginated('listCollections', '/api/v1/collections'),
  byId('getCollection', '/api/v1/collections', (ids) => ids.collectionId),
  paginated('listOrders', '/api/v1/orders'),
  byId('getOrder', '/api/v1/orders', (ids) => ids.orderId),
  paginated('listCustomers', '/api/v1/customers'),
  plain('getCheckout', '/api/v1/checkout'),
  paginated('listMedia', '/api/v1/media'),
  {
    operationId: 'uploadMedia',
    base: () => json('POST', '/api/v1/media', { url: 'https://cdn.example.com/base.png' }),
    success: sync(() =>
      json('POST', '/api/v1/media', {
        dataBase64: pngBytes(Math.floor(Math.random() * 1e9)).toString('base64'),
        alt: 'A test image',
      }),
    ),
    successStatus: 201,
    errors: [
      e400(
        'no source',
        sync(() => json('POST', '/api/v1/media', { alt: 'nothing' })),
      ),
      e400(
        'javascript: URL',
        sync(() => json('POST', '/api/v1/media', { url: 'javascript:alert(1)' })),
        'UNSAFE_CONTENT',
      ),
      e409(
        'IDEMPOTENCY_KEY_REUSED',
        'same key, other URL',
        reused(
          () => json('POST', '/api/v1/media', { url: `https://cdn.example.com/${unique()}.png` }),
          () => json('POST', '/api/v1/media', { url: `https://cdn.example.com/${unique()}.png` }),
        ),
      ),
    ],
  },
  plain('getNavigation', '/api/v1/navigation'),
  {
    operationId: 'updateNavigation',
    base: () =>
      json('PATCH', '/api/v1/navigation', { menus: [{ handle: 'main', items: [{ label: 'Home', href: '/' }] }] }),
    success: sync(() =>
      json('PATCH', '/api/v1/navigation', {
        menus: [
          {
            handle: 'footer',
            title: 'Footer',
            items: [
              { label: 'About', href: '/pages/about' },
              { label: unique('Shop '), href: '/products' },
            ],
          },
        ],
      }),
    ),
    successStatus: 200,
    errors: [
      e400(
        'no menus',
        sync(() => json('PATCH', '/api/v1/navigation', { menus: [] })),
      ),
      e400(
        'javascript: href',
        sync(() =>
          json('PATCH', '/api/v1/navigation', {
            menus: [{ handle: 'main', items: [{ label: 'x', href: 'javascript:alert(1)' }] }],
          }),
        ),
        'UNSAFE_CONTENT',
      ),
      e409(
        'IDEMPOTENCY_KEY_REUSED',
        'same key, other menus',
        reused(
          () =>
            json('PATCH', '/api/v1/navigation', { menus: [{ handle: 'footer', items: [{ label: 'A', href: '/' }] }] }),
          () =>
            json('PATCH', '/api/v1/navigation', { menus: [{ handle: 'footer', items: [{ label: 'B', href: '/' }] }] }),
        ),
      ),
    ],
  },
  {
    operationId: 'listThemes',
    base: () => get('/api/v1/themes'),
    success: sync(() => get('/api/v1/themes?includeArchived=true')),
    successStatus: 200,
    errors: [
      e400(
        'includeArchived=maybe',
        sync(() => get('/api/v1/themes?includeArchived=maybe')),
      ),
    ],
  },
  {
    operationId: 'createTheme',
    base: () => json('POST', '/api/v1/themes', { name: 'Base', provider: 'tap' }),
    success: sync(() => json('POST', '/api/v1/themes', { name: unique('Created '), provider: 'tap' })),
    successStatus: 201,
    errors: [
      e400(
        'empty name',
        sync(() => json('POST', '/api/v1/themes', { name: '', provider: 'tap' })),
      ),
      e400(
        'markup in the name',
        sync(() => json('POST', '/api/v1/themes', { name: '<b>x</b>', provider: 'tap' })),
        'UNSAFE_CONTENT',
      ),
      e409(
        'IDEMPOTENCY_KEY_REUSED',
        'same key, other name',
        reused(
          () => json('POST', '/api/v1/themes', { name: unique('R '), provider: 'tap' }),
          () => json('POST', '/api/v1/themes', { name: unique('S '), provider: 'tap' }),
        ),
      ),
    ],
  },
  plain('getThemeSchema', '/api/v1/themes/schema'),
  {
    operationId: 'getTheme',
    base: (ids) => get(theme(ids.draftId)),
    success: sync((ids) => get(theme(ids.draftId))),
    successStatus: 200,
    errors: [
      e400(
        'id longer than 100',
        sync(() => get(theme(LONG_ID))),
      ),
      e404(
        'unknown theme',
        sync(() => get(theme(NOPE))),
      ),
    ],
  },
  {
    operationId: 'updateTheme',
    base: (ids) => json('PATCH', theme(ids.draftId), { name: 'Renamed' }),
    success: sync((ids) =>
      json('PATCH', theme(ids.draftId), { name: unique('Renamed '), tokens: { primaryColor: '#112233' } }),
    ),
    successStatus: 200,
    errors: [
      e400(
        'nothing to change',
        sync((ids) => json('PATCH', theme(ids.draftId), {})),
      ),
      e400(
        'malformed If-Match',
        sync((ids) => json('PATCH', theme(ids.draftId), { name: 'x' }, { 'if-match': 'version-3' })),
      ),
      e404(
        'unknown theme',
        sync(() => json('PATCH', theme(NOPE), { name: 'x' })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) =>
        json('PATCH', theme(ids.draftId), { name: 'Stale' }, await staleMatch(w, ids)),
      ),
      e409(
        'THEME_NOT_EDITABLE',
        'the live theme',
        sync((ids) => json('PATCH', theme(ids.activeThemeId), { name: 'Live edit' })),
      ),
    ],
  },
  {
    operationId: 'archiveTheme',
    base: (ids) => ({ method: 'DELETE', url: theme(ids.draftId) }),
    success: async (w, ids) => ({ method: 'DELETE', url: theme(await freshDraft(w, ids)) }),
    successStatus: 200,
    errors: [
      e400(
        'malformed If-Match',
        sync((ids) => ({ method: 'DELETE', url: theme(ids.draftId), headers: { 'if-match': 'W/3' } })),
      ),
      e404(
        'unknown theme',
        sync(() => ({ method: 'DELETE', url: theme(NOPE) })),
      ),
      e409(
        'THEME_IS_ACTIVE',
        'the live theme',
        sync((ids) => ({ method: 'DELETE', url: theme(ids.activeThemeId) })),
      ),
    ],
  },
  {
    operationId: 'duplicateTheme',
    base: (ids) => json('POST', `${theme(ids.activeThemeId)}/duplicate`, {}),
    success: sync((ids) => json('POST', `${theme(ids.activeThemeId)}/duplicate`, { name: unique('Copy ') })),
    successStatus: 201,
    errors: [
      e400(
        'bad provider',
        sync((ids) => json('POST', `${theme(ids.activeThemeId)}/duplicate`, { provider: '!!' })),
      ),
      e404(
        'unknown theme',
        sync(() => json('POST', `${theme(NOPE)}/duplicate`, {})),
      ),
      e409(
        'IDEMPOTENCY_KEY_REUSED',
        'same key, other name',
        reused(
          (ids) => json('POST', `${theme(ids.activeThemeId)}/duplicate`, { name: unique('D ') }),
          (ids) => json('POST', `${theme(ids.activeThemeId)}/duplicate`, { name: unique('E ') }),
        ),
      ),
    ],
  },
  {
    operationId: 'publishTheme',
    base: (ids) => json('POST', `${theme(ids.draftId)}/publish`, {}),
    success: async (w, ids) => json('POST', `${theme(await freshDraft(w, ids))}/publish`, {}),
    successStatus: 200,
    errors: [
      e400(
        'negative expectedVersion',
        sync((ids) => json('POST', `${theme(ids.draftId)}/publish`, { expectedVersion: -1 })),
      ),
      e404(
        'unknown theme',
        sync(() => json('POST', `${theme(NOPE)}/publish`, {})),
      ),
      e409('VERSION_CONFLICT', 'stale expectedVersion', async (w, ids) =>
        json('POST', `${theme(ids.draftId)}/publish`, {}, await staleMatch(w, ids)),
      ),
    ],
  },
  {
    operationId: 'createThemePreviewToken',
    base: (ids) => ({ method: 'POST', url: `${theme(ids.draftId)}/preview-token` }),
    success: sync((ids) => ({ method: 'POST', url: `${theme(ids.draftId)}/preview-token` })),
    successStatus: 201,
    errors: [
      e400(
        'id longer than 100',
        sync(() => ({ method: 'POST', url: `${theme(LONG_ID)}/preview-token` })),
      ),
      e404(
        'unknown theme',
        sync(() => ({ method: 'POST', url: `${theme(NOPE)}/preview-token` })),
      ),
    ],
  },
  {
    operationId: 'applyThemeBatch',
    base: (ids) =>
      json('POST', `${theme(ids.draftId)}/batch`, { operations: [{ op: 'updateTokens', tokens: { font: 'Lato' } }] }),
    success: sync((ids) =>
      json('POST', `${theme(ids.draftId)}/batch`, {
        operations: [{ op: 'updateTokens', tokens: { primaryColor: `#${unique().slice(0, 6)}` } }],
      }),
    ),
    successStatus: 200,
    errors: [
      e400(
        'no operations',
        sync((ids) => json('POST', `${theme(ids.draftId)}/batch`, { operations: [] })),
      ),
      e400(
        '101 operations',
        sync((ids) =>
          json('POST', `${theme(ids.draftId)}/batch`, {
            operations: Array.from({ length: 101 }, () => ({ op: 'updateTokens', tokens: { font: 'Lato' } })),
          }),
        ),
        'LIMIT_EXCEEDED',
      ),
      e400(
        'invented product id',
        sync((ids) =>
          json('POST', `${theme(ids.draftId)}/batch`, {
            operations: [
              {
                op: 'createSection',
                target: { template: 'home' },
                section: { type: 'featured-product', settings: { productId: 'prd_invented' } },
              },
            ],
          }),
        ),
        'INVALID_PRODUCT_REFERENCE',
      ),
      e400(
        'script in rich text',
        sync((ids) =>
          json('POST', `${theme(ids.draftId)}/batch`, {
            operations: [
              {
                op: 'createSection',
                target: { template: 'home' },
                section: { type: 'rich-text', settings: { body: '<p>x</p><script>alert(1)</script>' } },
              },
            ],
          }),
        ),
        'UNSAFE_CONTENT',
      ),
      e404(
        'unknown theme',
        sync(() =>
          json('POST', `${theme(NOPE)}/batch`, { operations: [{ op: 'updateTokens', tokens: { font: 'Lato' } }] }),
        ),
      ),
      e409(
        'THEME_NOT_EDITABLE',
        'the live theme',
        sync((ids) =>
          json('POST', `${theme(ids.activeThemeId)}/batch`, {
            operations: [{ op: 'updateTokens', tokens: { font: 'Lato' } }],
          }),
        ),
      ),
      e409('VERSION_CONFLICT', 'stale expectedVersion', async (w, ids) => {
        const t = await w.setup(ids.storeId, get(theme(ids.draftId)))
        return json('POST', `${theme(ids.draftId)}/batch`, {
          operations: [{ op: 'updateTokens', tokens: { font: 'Lato' } }],
          expectedVersion: t.version - 1,
        })
      }),
    ],
  },
  {
    operationId: 'listThemePages',
    base: (ids) => get(`${theme(ids.draftId)}/pages`),
    success: sync((ids) => get(`${theme(ids.draftId)}/pages`)),
    successStatus: 200,
    errors: [
      e400(
        'id longer than 100',
        sync(() => get(`${theme(LONG_ID)}/pages`)),
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/pages`)),
      ),
    ],
  },
  {
    operationId: 'createThemePage',
    base: (ids) => json('POST', `${theme(ids.draftId)}/pages`, { slug: 'base', title: 'Base' }),
    success: sync((ids) =>
      json('POST', `${theme(ids.draftId)}/pages`, { slug: unique('faq-'), title: 'FAQ', status: 'published' }),
    ),
    successStatus: 201,
    errors: [
      e400(
        'empty slug',
        sync((ids) => json('POST', `${theme(ids.draftId)}/pages`, { slug: '', title: 'x' })),
      ),
      e400(
        'reserved slug',
        sync((ids) => json('POST', `${theme(ids.draftId)}/pages`, { slug: 'checkout', title: 'x' })),
      ),
      e404(
        'unknown theme',
        sync(() => json('POST', `${theme(NOPE)}/pages`, { slug: 'x', title: 'x' })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) =>
        json('POST', `${theme(ids.draftId)}/pages`, { slug: unique('s-'), title: 'x' }, await staleMatch(w, ids)),
      ),
    ],
  },
  {
    operationId: 'updateThemePage',
    base: (ids) => json('PATCH', `${theme(ids.draftId)}/pages/${ids.pageId}`, { title: 'Base' }),
    success: sync((ids) => json('PATCH', `${theme(ids.draftId)}/pages/${ids.pageId}`, { title: unique('About ') })),
    successStatus: 200,
    errors: [
      e400(
        'nothing to change',
        sync((ids) => json('PATCH', `${theme(ids.draftId)}/pages/${ids.pageId}`, {})),
      ),
      e404(
        'unknown page',
        sync((ids) => json('PATCH', `${theme(ids.draftId)}/pages/${NOPE}`, { title: 'x' })),
      ),
      e404(
        'unknown theme',
        sync((ids) => json('PATCH', `${theme(NOPE)}/pages/${ids.pageId}`, { title: 'x' })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) =>
        json('PATCH', `${theme(ids.draftId)}/pages/${ids.pageId}`, { title: 'Stale' }, await staleMatch(w, ids)),
      ),
    ],
  },
  {
    operationId: 'deleteThemePage',
    base: (ids) => ({ method: 'DELETE', url: `${theme(ids.draftId)}/pages/${ids.pageId}` }),
    success: async (w, ids) => ({ method: 'DELETE', url: `${theme(ids.draftId)}/pages/${await freshPage(w, ids)}` }),
    successStatus: 200,
    errors: [
      e400(
        'malformed If-Match',
        sync((ids) => ({
          method: 'DELETE',
          url: `${theme(ids.draftId)}/pages/${ids.pageId}`,
          headers: { 'if-match': '3' },
        })),
      ),
      e404(
        'unknown page',
        sync((ids) => ({ method: 'DELETE', url: `${theme(ids.draftId)}/pages/${NOPE}` })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) => ({
        method: 'DELETE',
        url: `${theme(ids.draftId)}/pages/${ids.pageId}`,
        headers: await staleMatch(w, ids),
      })),
    ],
  },
  {
    operationId: 'listThemeSections',
    base: (ids) => get(`${theme(ids.draftId)}/sections`),
    success: sync((ids) => get(`${theme(ids.draftId)}/sections?template=home`)),
    successStatus: 200,
    errors: [
      e400(
        'unknown template',
        sync((ids) => get(`${theme(ids.draftId)}/sections?template=cart`)),
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/sections`)),
      ),
    ],
  },
  {
    operationId: 'createThemeSection',
    base: (ids) =>
      json('POST', `${theme(ids.draftId)}/sections`, {
        target: { pageId: ids.pageId },
        section: { type: 'hero', settings: { heading: 'Base' } },
      }),
    success: sync((ids) =>
      json('POST', `${theme(ids.draftId)}/sections`, {
        target: { pageId: ids.pageId },
        index: 0,
        section: { type: 'hero', settings: { heading: unique('Hello ') } },
      }),
    ),
    successStatus: 201,
    errors: [
      e400(
        'no target',
        sync((ids) =>
          json('POST', `${theme(ids.draftId)}/sections`, { section: { type: 'hero', settings: { heading: 'x' } } }),
        ),
      ),
      e400(
        'unsafe URL',
        sync((ids) =>
          json('POST', `${theme(ids.draftId)}/sections`, {
            target: { pageId: ids.pageId },
            section: {
              type: 'hero',
              settings: { heading: 'x', primaryButton: { label: 'Go', href: 'javascript:alert(1)' } },
            },
          }),
        ),
        'UNSAFE_CONTENT',
      ),
      e404(
        'unknown theme',
        sync((ids) =>
          json('POST', `${theme(NOPE)}/sections`, {
            target: { pageId: ids.pageId },
            section: { type: 'hero', settings: { heading: 'x' } },
          }),
        ),
      ),
      e404(
        'unknown page',
        sync((ids) =>
          json('POST', `${theme(ids.draftId)}/sections`, {
            target: { pageId: NOPE },
            section: { type: 'hero', settings: { heading: 'x' } },
          }),
        ),
      ),
      e409(
        'THEME_NOT_EDITABLE',
        'the live theme',
        sync((ids) =>
          json('POST', `${theme(ids.activeThemeId)}/sections`, {
            target: { template: 'home' },
            section: { type: 'hero', settings: { heading: 'x' } },
          }),
        ),
      ),
    ],
  },
  {
    operationId: 'updateThemeSection',
    base: (ids) => json('PATCH', `${theme(ids.draftId)}/sections/${ids.sectionId}`, { settings: { heading: 'Base' } }),
    success: sync((ids) =>
      json('PATCH', `${theme(ids.draftId)}/sections/${ids.sectionId}`, { settings: { heading: unique('Hero ') } }),
    ),
    successStatus: 200,
    errors: [
      e400(
        'nothing to change',
        sync((ids) => json('PATCH', `${theme(ids.draftId)}/sections/${ids.sectionId}`, {})),
      ),
      e404(
        'unknown section',
        sync((ids) => json('PATCH', `${theme(ids.draftId)}/sections/${NOPE}`, { settings: { heading: 'x' } })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) =>
        json(
          'PATCH',
          `${theme(ids.draftId)}/sections/${ids.sectionId}`,
          { settings: { heading: 'Stale' } },
          await staleMatch(w, ids),
        ),
      ),
    ],
  },
  {
    operationId: 'deleteThemeSection',
    base: (ids) => ({ method: 'DELETE', url: `${theme(ids.draftId)}/sections/${ids.sectionId}` }),
    success: async (w, ids) => ({
      method: 'DELETE',
      url: `${theme(ids.draftId)}/sections/${await freshSection(w, ids)}`,
    }),
    successStatus: 200,
    errors: [
      e400(
        'malformed If-Match',
        sync((ids) => ({
          method: 'DELETE',
          url: `${theme(ids.draftId)}/sections/${ids.sectionId}`,
          headers: { 'if-match': '"x"' },
        })),
      ),
      e404(
        'unknown section',
        sync((ids) => ({ method: 'DELETE', url: `${theme(ids.draftId)}/sections/${NOPE}` })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) => ({
        method: 'DELETE',
        url: `${theme(ids.draftId)}/sections/${ids.sectionId}`,
        headers: await staleMatch(w, ids),
      })),
    ],
  },
  {
    operationId: 'listThemeVersions',
    base: (ids) => get(`${theme(ids.draftId)}/versions`),
    success: sync((ids) => get(`${theme(ids.draftId)}/versions?limit=2`)),
    successStatus: 200,
    errors: [
      e400(
        'limit 0',
        sync((ids) => get(`${theme(ids.draftId)}/versions?limit=0`)),
      ),
      e400(
        'forged cursor',
        sync((ids) => get(`${theme(ids.draftId)}/versions?cursor=eyJ2IjoxfQ.AAAA`)),
        'INVALID_CURSOR',
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/versions`)),
      ),
    ],
  },
  {
    operationId: 'getThemeVersion',
    base: (ids) => get(`${theme(ids.draftId)}/versions/1`),
    success: sync((ids) => get(`${theme(ids.draftId)}/versions/1`)),
    successStatus: 200,
    errors: [
      e400(
        'version 0',
        sync((ids) => get(`${theme(ids.draftId)}/versions/0`)),
      ),
      e400(
        'version not a number',
        sync((ids) => get(`${theme(ids.draftId)}/versions/latest`)),
      ),
      e404(
        'unknown version',
        sync((ids) => get(`${theme(ids.draftId)}/versions/99999`)),
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/versions/1`)),
      ),
    ],
  },
  {
    operationId: 'diffTheme',
    base: (ids) => get(`${theme(ids.draftId)}/diff`),
    success: sync((ids) => get(`${theme(ids.draftId)}/diff?from=live&to=draft`)),
    successStatus: 200,
    errors: [
      e400(
        'unknown ref',
        sync((ids) => get(`${theme(ids.draftId)}/diff?from=yesterday`)),
      ),
      e404(
        'unknown version',
        sync((ids) => get(`${theme(ids.draftId)}/diff?from=1&to=99999`)),
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/diff`)),
      ),
    ],
  },
  {
    operationId: 'blameTheme',
    base: (ids) => get(`${theme(ids.draftId)}/blame`),
    success: sync((ids) => get(`${theme(ids.draftId)}/blame`)),
    successStatus: 200,
    errors: [
      e400(
        'id longer than 100',
        sync(() => get(`${theme(LONG_ID)}/blame`)),
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/blame`)),
      ),
    ],
  },
  {
    operationId: 'getThemeChecks',
    base: (ids) => get(`${theme(ids.draftId)}/checks`),
    success: sync((ids) => get(`${theme(ids.draftId)}/checks?version=1`)),
    successStatus: 200,
    errors: [
      e400(
        'version not a number',
        sync((ids) => get(`${theme(ids.draftId)}/checks?version=latest`)),
      ),
      e404(
        'unknown version',
        sync((ids) => get(`${theme(ids.draftId)}/checks?version=99999`)),
      ),
      e404(
        'unknown theme',
        sync(() => get(`${theme(NOPE)}/checks`)),
      ),
    ],
  },
  {
    operationId: 'revertTheme',
    base: (ids) => json('POST', `${theme(ids.draftId)}/revert`, { toVersion: 1 }),
    success: async (w, ids) => {
      const t = await w.setup(
        ids.storeId,
        json('PATCH', theme(ids.draftId), {
          tokens: {
            primaryColor: `#${Math.floor(Math.random() * 0xffffff)
              .toString(16)
              .padStart(6, '0')}`,
          },
        }),
      )
      return json('POST', `${theme(ids.draftId)}/revert`, { toVersion: t.version - 1 })
    },
    successStatus: 200,
    errors: [
      e400(
        'neither toVersion nor commandId',
        sync((ids) => json('POST', `${theme(ids.draftId)}/revert`, {})),
      ),
      e400(
        'both toVersion and commandId',
        sync((ids) => json('POST', `${theme(ids.draftId)}/revert`, { toVersion: 1, commandId: 'cmd_x' })),
      ),
      e404(
        'unknown theme',
        sync(() => json('POST', `${theme(NOPE)}/revert`, { toVersion: 1 })),
      ),
      e404(
        'unknown command',
        sync((ids) => json('POST', `${theme(ids.draftId)}/revert`, { commandId: 'cmd_unknown' })),
      ),
      e409(
        'THEME_NOT_EDITABLE',
        'the live theme',
        sync((ids) => json('POST', `${theme(ids.activeThemeId)}/revert`, { toVersion: 1 })),
      ),
      e409('VERSION_CONFLICT', 'stale If-Match', async (w, ids) =>
        json('POST', `${theme(ids.draftId)}/revert`, { toVersion: 1 }, await staleMatch(w, ids)),
      ),
      e409('UNDO_CONFLICT', 'a later change touched the same token', async (w, ids) => {
        await w.setup(ids.storeId, json('PATCH', theme(ids.draftId), { tokens: { secondaryColor: '#112233' } }))
        const versions = await w.setup(ids.storeId, get(`${theme(ids.draftId)}/versions?limit=1`))
        await w.setup(ids.storeId, json('PATCH', theme(ids.draftId), { tokens: { secondaryColor: '#445566' } }))
        return json('POST', `${theme(ids.draftId)}/revert`, { commandId: versions.versions[0].commandId })
      }),
    ],
  },
]

export const caseOf = (operationId: string) => {
  const found = operationCases.find((c) => c.operationId === operationId)
  if (!found) throw new Error(`no case for ${operationId}`)
  return found
}
