import t from 'tap'
import { KNOWN_COLLECTION_IDS, KNOWN_PRODUCT_IDS, MALICIOUS_DOCUMENTS } from '../fixtures/malicious-documents.ts'
import { renderStorefrontPage, type RenderRequest } from '../../src/render/page.ts'
import { readQuery, type Route } from '../../src/render/routes.ts'
import type { StoreView } from '../../src/render/store.ts'
import { activeContent, fakeCollection, fakeProduct, memoryCatalog } from './support.ts'

// Every hostile document of the validation corpus, forced past validation (as a corrupted or
// legacy stored document would be) and rendered on every page kind: the output must be inert.

const store: StoreView = {
  id: 'st_test',
  slug: 'test',
  name: 'Test Store',
  description: 'A store for tests.',
  tagline: '',
  locale: 'fr-MA',
  currency: 'MAD',
  contactEmail: 'hello@test.example',
  contactPhone: '+212 600 00 00 00',
  city: 'Rabat',
  socialLinks: [{ network: 'instagram', url: 'https://instagram.com/test' }],
  footerMenu: [{ label: 'About', href: '/pages/about', children: [] }],
  checkout: null,
}

const products = KNOWN_PRODUCT_IDS.map((id, i) =>
  fakeProduct(id, `Product ${i}`, 10000 + i * 1500, { stock: i === 1 ? [3, 0, 8] : [12] }),
)
const collections = KNOWN_COLLECTION_IDS.map((id) => fakeCollection(id, `Collection ${id}`, [...KNOWN_PRODUCT_IDS]))
const catalog = memoryCatalog(products, collections)

const routes: Route[] = [
  { kind: 'home' },
  { kind: 'product', ref: 'prod_tee' },
  { kind: 'product', ref: 'prod_mug' },
  { kind: 'products' },
  { kind: 'collection', ref: 'col_summer' },
  { kind: 'collections' },
  { kind: 'blog', slug: 'sample' },
  { kind: 'not-found' },
]

function pageRoutes(document: unknown): Route[] {
  const pages = (document as { pages?: unknown }).pages
  if (!Array.isArray(pages)) return []
  return pages.flatMap((p) =>
    typeof p?.slug === 'string' && /^[a-z0-9-]+$/.test(p.slug) ? [{ kind: 'page' as const, slug: p.slug }] : [],
  )
}

t.ok(MALICIOUS_DOCUMENTS.length >= 70, `${MALICIOUS_DOCUMENTS.length} hostile documents`)

for (const testCase of MALICIOUS_DOCUMENTS) {
  t.test(testCase.name, async (t) => {
    for (const mode of ['live', 'preview'] as const) {
      for (const route of [...routes, ...pageRoutes(testCase.document)]) {
        const request: RenderRequest = {
          store,
          document: structuredClone(testCase.document),
          catalog,
          route,
          query: readQuery(new URLSearchParams('variant=var_prod_mug_2&sort=price-asc')),
          mode,
          basePath: mode === 'live' ? '/s/test' : '/preview/aaa.bbb.ccc',
          serviceBaseUrl: 'http://storefront.test',
          ...(mode === 'preview'
            ? {
                preview: {
                  themeName: testCase.payload ?? 'Hostile',
                  expiresAt: new Date('2026-01-01T00:15:00Z'),
                  version: 7,
                },
              }
            : {}),
          now: new Date('2026-01-01T00:00:00Z'),
        }
        const page = await renderStorefrontPage(request)
        const where = `${mode} ${route.kind}${'slug' in route ? ` ${route.slug}` : ''}`
        const problems = activeContent(page.html)
        if (problems.length > 0) t.fail(`${where}: active content`, { problems })
        if (testCase.payload !== undefined && /[<>"]/.test(testCase.payload)) {
          if (page.html.includes(testCase.payload)) t.fail(`${where}: the payload appears unescaped`)
        }
      }
    }
    t.pass('inert on every page kind, live and preview')
  })
}

t.test('documents of any shape render without throwing', async (t) => {
  const shapes: unknown[] = [
    null,
    42,
    'text',
    [],
    {},
    { templates: null },
    { templates: { home: [null, 1, 'x', { type: 'hero' }, { type: 'hero', settings: [] }] } },
    { theme: { primaryColor: 'red;}', font: 1 }, navigation: 'x', pages: [{}] },
  ]
  for (const document of shapes) {
    for (const route of routes) {
      const page = await renderStorefrontPage({
        store,
        document,
        catalog,
        route,
        query: readQuery(new URLSearchParams()),
        mode: 'live',
        basePath: '/s/test',
        serviceBaseUrl: 'http://storefront.test',
        now: new Date(),
      })
      t.ok(page.html.startsWith('<!doctype html>'), `${JSON.stringify(document)?.slice(0, 40)} ${route.kind}`)
      t.same(activeContent(page.html), [])
    }
  }
})

t.test('references from a corrupted document never reach a header unchecked', async (t) => {
  const document = {
    templates: {
      home: [
        { id: 'x', type: 'featured-product', settings: { productId: 'prod_x\r\nSet-Cookie: a=b' } },
        {
          id: 'y',
          type: 'product-grid',
          settings: { source: 'manual', productIds: ['prod_gone', 'bad id<'], limit: 4 },
        },
      ],
    },
  }
  const page = await renderStorefrontPage({
    store,
    document,
    catalog,
    route: { kind: 'home' },
    query: readQuery(new URLSearchParams()),
    mode: 'live',
    basePath: '/s/test',
    serviceBaseUrl: 'http://storefront.test',
    now: new Date(),
  })
  t.same(page.missingRefs.sort(), ['product:(malformed id)', 'product:prod_gone'])
  for (const ref of page.missingRefs) t.match(ref, /^[a-z]+:[\w() -]+$/)
})
