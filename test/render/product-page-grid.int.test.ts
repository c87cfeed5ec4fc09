import t from 'tap'
import { databaseCatalog } from '../../src/render/catalog.ts'
import { renderStorefrontPage } from '../../src/render/page.ts'
import { readQuery } from '../../src/render/routes.ts'
import { loadStoreView } from '../../src/render/store.ts'
import type { ThemeDocument } from '../../src/theme/document.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { elements, parse, sampleDocument, storeRefs } from './support.ts'

// A product page's product grids ("You may also like") do not offer the product the page is
// about, whatever fills them: the product template serves every product.

t.test('a product page leaves its own product out of newest, collection and hand-picked grids', async (t) => {
  const { app, services, keyA } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const store = (await loadStoreView(services.read, STORE_A))!
  // The newest product: the one a "newest" grid would list first.
  const newest = await databaseCatalog(services.read, STORE_A).newestProductIds(1)
  const shown = newest[0]!
  const holding = a.collectionRecords.find((c) => c.productIds.includes(shown))
  t.ok(holding, 'a collection holds the newest product')
  const doc = sampleDocument(a) as ThemeDocument
  doc.templates.product = [
    { id: 'product-details', type: 'product-details', settings: {} },
    { id: 'grid-newest', type: 'product-grid', settings: { heading: 'Just in', source: 'newest', limit: 3 } },
    // The whole collection, so the product would be in it but for the page.
    {
      id: 'grid-collection',
      type: 'product-grid',
      settings: { heading: 'From the collection', source: 'collection', collectionId: holding!.id, limit: 48 },
    },
    {
      id: 'grid-manual',
      type: 'product-grid',
      settings: {
        heading: 'Picked',
        source: 'manual',
        productIds: [shown, a.products.find((p) => p !== shown)!],
        limit: 2,
      },
    },
  ] as ThemeDocument['templates']['product']
  const render = (id: string) =>
    renderStorefrontPage({
      store,
      document: doc,
      catalog: databaseCatalog(services.read, STORE_A),
      query: readQuery(new URLSearchParams()),
      mode: 'live',
      basePath: '/s/atlas',
      serviceBaseUrl: services.baseUrl,
      now: new Date('2026-03-01T12:00:00Z'),
      route: { kind: 'product', ref: a.productRecords.find((p) => p.id === id)!.handle },
    })
  const linkedIn = (html: string, sectionId: string) => {
    const [section] = elements(parse(html), (e) => e.attribs['data-section-id'] === sectionId)
    if (!section) return null
    return [
      ...new Set(
        elements(section, (e) => e.name === 'a' && /\/products\/[^/?#]+$/.test(e.attribs.href ?? '')).map(
          // Links are by handle; the checks below speak of ids.
          (e) => a.productRecords.find((p) => p.handle === e.attribs.href!.split('/').at(-1))?.id ?? '?',
        ),
      ),
    ]
  }

  const page = await render(shown)
  t.equal(page.status, 200)
  const fromNewest = linkedIn(page.html, 'grid-newest')
  t.ok(fromNewest, 'the newest grid is there')
  t.notOk(fromNewest!.includes(shown), 'without the product the page shows')
  t.equal(fromNewest!.length, 3, 'and still as many products as asked for')
  t.same(
    linkedIn(page.html, 'grid-collection'),
    holding!.productIds.filter((id) => id !== shown),
    'the collection grid leaves it out too',
  )
  t.same(
    linkedIn(page.html, 'grid-manual'),
    [a.products.find((p) => p !== shown)],
    'a hand-picked grid shows the others it lists',
  )

  // On another product's page the same grids list it again.
  const other = await render(a.products.find((p) => p !== shown)!)
  t.equal(linkedIn(other.html, 'grid-newest')![0], shown, 'elsewhere the newest product is listed first')
  t.same(
    linkedIn(other.html, 'grid-manual'),
    [shown],
    'and the hand-picked grid shows it (its other product is that page)',
  )
})
