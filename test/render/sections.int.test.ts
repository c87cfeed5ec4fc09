import t from 'tap'
import { databaseCatalog } from '../../src/render/catalog.ts'
import { renderStorefrontPage, type RenderRequest } from '../../src/render/page.ts'
import { readQuery, type Route } from '../../src/render/routes.ts'
import { loadStoreView } from '../../src/render/store.ts'
import { SECTION_TYPES } from '../../src/theme/sections.ts'
import { validateThemeDocument } from '../../src/theme/validate.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { activeContent, byTag, elements, formatPrice, parse, sampleDocument, storeRefs, textOf } from './support.ts'

t.test('every section type renders with live catalog data, and only this store’s', async (t) => {
  const { app, services, keyA, keyB } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const b = await storeRefs(app, keyB)
  const doc = sampleDocument(a)
  const valid = validateThemeDocument(doc, { productIds: new Set(a.products), collectionIds: new Set(a.collections) })
  t.ok(valid.ok, 'the sample document is a valid theme', valid.ok ? {} : { issues: valid.issues })

  const store = (await loadStoreView(services.read, STORE_A))!
  const base = {
    store,
    document: doc,
    catalog: databaseCatalog(services.read, STORE_A),
    query: readQuery(new URLSearchParams()),
    mode: 'live' as const,
    basePath: '/s/atlas',
    serviceBaseUrl: services.baseUrl,
    now: new Date('2026-03-01T12:00:00Z'),
  }
  const render = (route: Route, extra: Partial<RenderRequest> = {}) =>
    renderStorefrontPage({ ...base, route, ...extra })
  const price = (cents: number) => formatPrice(store.locale, cents, store.currency)
  const product = (id: string) => a.productRecords.find((p) => p.id === id)!
  const collection = (id: string) => a.collectionRecords.find((c) => c.id === id)!

  const pages = {
    home: await render({ kind: 'home' }),
    product: await render({ kind: 'product', ref: product(a.products[0]!).handle }),
    collection: await render({ kind: 'collection', ref: collection(a.collections[0]!).handle }),
    products: await render({ kind: 'products' }),
    blog: await render({ kind: 'blog', slug: 'sample' }),
    about: await render({ kind: 'page', slug: 'about' }),
    collections: await render({ kind: 'collections' }),
  }
  const rendered = new Set<string>()
  for (const [name, page] of Object.entries(pages)) {
    t.equal(page.status, 200, `${name}: 200`)
    t.same(page.missingRefs, [], `${name}: no missing references`)
    const dom = parse(page.html)
    for (const el of elements(dom, (e) => e.attribs['data-section-type'] !== undefined)) {
      t.ok(
        textOf(el).length > 0 || el.attribs['data-section-type'] === 'spacer',
        `${name}: ${el.attribs['data-section-type']} has content`,
      )
      rendered.add(el.attribs['data-section-type']!)
    }
    t.same(activeContent(page.html), [], `${name}: nothing executable`)
    // Accessible frame: landmarks, skip link first, one h1, headings in order, alt on every image.
    t.equal(byTag(dom, 'header').length, 1, `${name}: one header`)
    t.equal(byTag(dom, 'main').length, 1, `${name}: one main`)
    t.equal(byTag(dom, 'footer').length, 1, `${name}: one footer`)
    t.ok(
      byTag(dom, 'nav').some((n) => n.attribs['aria-label'] === 'Main'),
      `${name}: main navigation`,
    )
    const firstLink = byTag(dom, 'a')[0]!
    t.equal(firstLink.attribs.href, '#main', `${name}: the skip link comes first`)
    t.equal(byTag(dom, 'h1').length, 1, `${name}: exactly one h1`)
    const levels = elements(dom, (e) => /^h[1-6]$/.test(e.name)).map((e) => Number(e.name[1]))
    t.equal(levels[0], 1, `${name}: the first heading is the h1`)
    levels.forEach((level, i) => {
      if (i > 0 && level > levels[i - 1]! + 1) t.fail(`${name}: heading h${level} follows h${levels[i - 1]}`)
    })
    for (const image of byTag(dom, 'img')) t.type(image.attribs.alt, 'string', `${name}: img has alt`)
    for (const id of b.products) t.notOk(page.html.includes(id), `${name}: no product id of the other store`)
    for (const p of b.productRecords)
      t.notOk(textOf(dom).includes(p.title), `${name}: no product of the other store (${p.title})`)
    for (const c of b.collectionRecords)
      t.notOk(textOf(dom).includes(c.title), `${name}: no collection of the other store`)
  }
  t.same([...rendered].sort(), [...SECTION_TYPES].sort(), 'all 17 section types rendered')

  // Home: the references resolve to live names and prices.
  const home = parse(pages.home.html)
  const section = (id: string) => elements(home, (e) => e.attribs['data-section-id'] === id)[0]!
  for (const id of a.products.slice(0, 3)) {
    const p = product(id)
    const card = elements(section('home-picks'), (e) => e.name === 'article' && textOf(e).includes(p.title))[0]
    t.ok(card, `staff pick ${p.title} is shown`)
    t.ok(
      card && textOf(card).includes(price(p.priceRange!.min.cents)),
      `with its price ${price(p.priceRange!.min.cents)}`,
    )
  }
  const featured = product(a.products[3]!)
  t.ok(textOf(section('home-featured')).includes(featured.title), 'featured product title')
  t.ok(
    textOf(section('home-featured')).includes(price(featured.variants.find((v) => v.availableForSale)!.price.cents)),
    'featured product price',
  )
  for (const id of a.collections.slice(0, 3))
    t.ok(textOf(section('home-collections')).includes(collection(id).title), `collection ${collection(id).title}`)
  const best = collection(a.collections[0]!).productIds.map(product).filter(Boolean)
  t.ok(
    best.some((p) => textOf(section('home-best')).includes(p.title)),
    'collection grid shows a product of the collection',
  )
  t.ok(
    textOf(home).indexOf('Free delivery on orders over') < textOf(home).indexOf('Spring on the trail'),
    'the leading announcement bar sits above the hero',
  )
  const h1 = byTag(home, 'h1')[0]!
  t.equal(textOf(h1), 'Spring on the trail', 'the hero heading is the page h1')
  const newsletter = byTag(section('home-news'), 'form')[0]!
  t.equal(newsletter.attribs.action, '/s/atlas/newsletter', 'newsletter form posts to the service')
  t.equal(byTag(section('home-news'), 'button')[0] && textOf(byTag(section('home-news'), 'button')[0]!), 'Sign me up')
  // Defaults from the settings descriptions apply (hero overlay 40 given; banner 35; spacer 48).
  t.match(pages.home.html, /\.u-ov40\{--overlay:0\.40\}/)
  t.match(pages.home.html, /\.u-h48\{height:48px\}/)
  // Internal links stay in the storefront.
  for (const link of byTag(home, 'a')) {
    const href = link.attribs.href ?? ''
    if (href.startsWith('/'))
      t.ok(href.startsWith('/s/atlas') || href.startsWith('/media/'), `link ${href} stays under /s/atlas`)
  }

  // Product page: live title, variant prices, stock and the order form to the shop's cart.
  const p0 = product(a.products[0]!)
  const productDom = parse(pages.product.html)
  t.equal(textOf(byTag(productDom, 'h1')[0]!), p0.title, 'product title is the h1')
  for (const v of p0.variants) t.ok(textOf(productDom).includes(price(v.price.cents)), `variant ${v.title} price`)
  const form = elements(productDom, (e) => e.name === 'form' && e.attribs.class === 'buy-form')[0]!
  t.equal(form.attribs.action, '/s/atlas/cart/add', 'order form adds to the cart')
  t.equal(form.attribs.method, 'post')
  t.ok(textOf(form).includes('Order now, pay on delivery'), 'button label from the settings')
  t.ok(textOf(productDom).includes('Cash on delivery'), 'cash-on-delivery terms')
  t.ok(textOf(productDom).includes(product(a.products[4]!).title), 'the second product section (manual grid) renders')

  // Collection page: title, products and prices, filters (showFilters) and sort.
  const c0 = collection(a.collections[0]!)
  const collectionDom = parse(pages.collection.html)
  t.equal(textOf(byTag(collectionDom, 'h1')[0]!), c0.title)
  const listed = c0.productIds.map(product).filter((p) => p !== undefined)
  t.ok(listed.length > 0)
  for (const p of listed.slice(0, 8)) t.ok(textOf(collectionDom).includes(p.title), `lists ${p.title}`)
  t.ok(
    elements(collectionDom, (e) => e.name === 'input' && e.attribs.name === 'available').length === 1,
    'in-stock filter shown',
  )
  t.ok(
    elements(collectionDom, (e) => e.name === 'select' && e.attribs.name === 'sort').length === 1,
    'sort shown (default true)',
  )

  // All products: paginated by the template's productsPerPage (8).
  const productsDom = parse(pages.products.html)
  t.equal(
    elements(productsDom, (e) => e.name === 'article' && (e.attribs.class ?? '').startsWith('card')).length,
    8,
    '8 products per page',
  )
  t.ok(
    elements(productsDom, (e) => e.name === 'nav' && e.attribs['aria-label'] === 'Pagination').length === 1,
    'pagination',
  )
  const page2 = await render({ kind: 'products' }, { query: readQuery(new URLSearchParams('page=2&sort=price-asc')) })
  const cards = elements(parse(page2.html), (e) => e.name === 'article').map((e) => textOf(e))
  t.equal(cards.length, 8, 'page 2 has 8 products')
  const cheapestFirst = a.productRecords.map((p) => p.priceRange!.min.cents).sort((x, y) => x - y)
  t.ok(cards[0]!.includes(price(cheapestFirst[8]!)), 'page 2 sorted by price starts with the 9th cheapest')

  // Tokens shape the page: logo, preset, font, colors.
  const branded = await render(
    { kind: 'home' },
    {
      document: {
        ...doc,
        theme: {
          theme: 'bold',
          primaryColor: '#123456',
          secondaryColor: '#abcdef',
          font: 'Playfair Display',
          logo: a.media[0]!,
        },
      },
    },
  )
  const brandedDom = parse(branded.html)
  const logo = byTag(elements(brandedDom, (e) => e.name === 'a' && e.attribs.class === 'brand')[0]!, 'img')[0]
  t.equal(logo?.attribs.src, a.media[0], 'the logo token is the header logo')
  t.equal(logo?.attribs.alt, store.name, 'with the store name as alt text')
  t.equal(byTag(brandedDom, 'body')[0]!.attribs.class, 'preset-bold', 'the preset')
  t.match(branded.html, /--primary:#123456;/)
  t.match(branded.html, /--font:'Playfair Display',/)
  t.ok(textOf(parse(pages.home.html)).includes(store.name), 'without a logo the store name is shown')

  // Blog template and custom pages.
  t.ok(textOf(parse(pages.blog.html)).includes('sample post'), 'the blog route renders the sample post')
  t.ok(textOf(parse(pages.about.html)).includes('Founded by hikers'), 'published page')
  t.equal((await render({ kind: 'page', slug: 'lookbook' })).status, 404, 'draft page is not live')
  t.equal(
    (
      await render(
        { kind: 'page', slug: 'lookbook' },
        { mode: 'preview', preview: { themeName: 'Spring', expiresAt: new Date('2026-03-01T12:15:00Z'), version: 3 } },
      )
    ).status,
    200,
    'draft page in a preview',
  )
  t.equal(
    (await render({ kind: 'product', ref: b.products[0]! })).status,
    404,
    'a product of the other store is not found',
  )
  t.equal(
    (await render({ kind: 'collection', ref: b.collections[0]! })).status,
    404,
    'a collection of the other store is not found',
  )
  t.equal((await render({ kind: 'not-found' })).status, 404)
})

t.test('a removed product renders nothing and is reported', async (t) => {
  const { app, services, keyA } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const doc = sampleDocument(a)
  const removed = a.products[1]!
  const db = services.db
  await db.deleteFrom('collection_products').where('product_id', '=', removed).execute()
  await db.deleteFrom('product_variants').where('product_id', '=', removed).execute()
  await db.deleteFrom('products').where('product_id', '=', removed).execute()
  const store = (await loadStoreView(services.read, STORE_A))!
  const page = await renderStorefrontPage({
    store,
    document: doc,
    catalog: databaseCatalog(services.read, STORE_A),
    route: { kind: 'home' },
    query: readQuery(new URLSearchParams()),
    mode: 'live',
    basePath: '/s/atlas',
    serviceBaseUrl: services.baseUrl,
    now: new Date(),
  })
  t.equal(page.status, 200)
  t.same(page.missingRefs, [`product:${removed}`])
  const dom = parse(page.html)
  const picks = elements(dom, (e) => e.attribs['data-section-id'] === 'home-picks')[0]!
  t.equal(elements(picks, (e) => e.name === 'article').length, 2, 'the two remaining picks render')
  t.equal(byTag(dom, 'main')[0]!.attribs['data-missing-refs'], `product:${removed}`, 'marked on main (no HTML comment)')
  t.notOk(page.html.includes('<!--'), 'no comments')
  t.ok(page.notes.some((n) => n.includes(removed)))
})
