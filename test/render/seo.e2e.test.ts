import { XMLParser, XMLValidator } from 'fast-xml-parser'
import t from 'tap'
import { testApp } from '../support/app.ts'
import { api, elements, jsonLd, parse, previewPath, sampleDocument, storeRefs, draftWithDocument } from './support.ts'

// Search engines and link previews (issue 35 B): robots.txt, the sitemap index and each store's
// sitemap, a canonical URL, a description, Open Graph and Twitter card tags with an image and
// schema.org JSON-LD on every page kind; previews, cart and checkout are noindex; products and
// collections are addressed by handle, and the id URLs themes store answer 301.

const BASE = 'http://storefront.test'

type Graph = { '@context': string; '@graph': Record<string, any>[] }

function graphOf(html: string): Record<string, any>[] {
  const blocks = jsonLd(parse(html)) as Graph[]
  t.equal(blocks.length, 1, 'one JSON-LD block')
  t.equal(blocks[0]?.['@context'], 'https://schema.org')
  return blocks[0]?.['@graph'] ?? []
}
const ofType = (graph: Record<string, any>[], type: string) => graph.filter((n) => n['@type'] === type)

function head(html: string) {
  const doc = parse(html)
  const meta = (attr: 'name' | 'property', key: string) =>
    elements(doc, (e) => e.name === 'meta' && e.attribs[attr] === key).map((e) => e.attribs.content)
  const canonical = elements(doc, (e) => e.name === 'link' && e.attribs.rel === 'canonical').map((e) => e.attribs.href)
  return { meta, canonical, robots: meta('name', 'robots') }
}

// Google's required and recommended properties for a Product with offers (merchant listings).
function productProblems(product: Record<string, any>): string[] {
  const problems: string[] = []
  if (typeof product.name !== 'string' || product.name === '') problems.push('Product.name')
  if (!Array.isArray(product.image) || product.image.length === 0) problems.push('Product.image')
  const offers = Array.isArray(product.offers) ? product.offers : [product.offers]
  if (offers.length === 0 || offers[0] === undefined) problems.push('Product.offers')
  for (const offer of offers) {
    if (offer?.['@type'] !== 'Offer') problems.push('Offer.@type')
    if (!/^\d+(\.\d+)?$/.test(String(offer?.price))) problems.push(`Offer.price ${offer?.price}`)
    if (!/^[A-Z]{3}$/.test(String(offer?.priceCurrency))) problems.push('Offer.priceCurrency')
    if (!['https://schema.org/InStock', 'https://schema.org/OutOfStock'].includes(offer?.availability))
      problems.push('Offer.availability')
    if (typeof offer?.url !== 'string' || !offer.url.startsWith(BASE)) problems.push('Offer.url')
  }
  return problems
}

t.test('search engines and link previews', async (t) => {
  const { app, keyA } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const get = (url: string) => app.inject({ method: 'GET', url })
  const product = a.productRecords[0]!
  const collection = a.collectionRecords[0]!

  await t.test('robots.txt keeps crawlers out of previews, carts and checkouts and names the index', async (t) => {
    const res = await get('/robots.txt')
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /^text\/plain/)
    const lines = res.body.split('\n')
    for (const rule of ['Disallow: /preview/', 'Disallow: /s/*/cart', 'Disallow: /s/*/checkout'])
      t.ok(lines.includes(rule), rule)
    t.ok(lines.includes('User-agent: *'))
    t.same(
      lines.filter((l) => l.startsWith('Sitemap:')),
      [`Sitemap: ${BASE}/sitemap.xml`],
      'one sitemap index, however many stores',
    )
  })

  await t.test('the sitemap index lists one sitemap per store; each lists every product and collection', async (t) => {
    const index = await get('/sitemap.xml')
    t.equal(index.statusCode, 200)
    t.match(index.headers['content-type'], /^application\/xml/)
    t.equal(XMLValidator.validate(index.body), true, 'well-formed XML')
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(index.body)
    t.equal(parsed.sitemapindex['@_xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9')
    const sitemaps = [parsed.sitemapindex.sitemap].flat().map((s: { loc: string }) => s.loc)
    t.same(sitemaps.sort(), [`${BASE}/s/atlas/sitemap.xml`, `${BASE}/s/lumen/sitemap.xml`])
    t.equal((await get('/sitemap.xml?page=2')).statusCode, 404, 'no second page with two stores')

    const store = await get('/s/atlas/sitemap.xml')
    t.equal(store.statusCode, 200)
    t.equal(XMLValidator.validate(store.body), true, 'well-formed XML')
    const urlset = new XMLParser({ ignoreAttributes: false }).parse(store.body).urlset
    t.equal(urlset['@_xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9')
    const locs = new Set([urlset.url].flat().map((u: { loc: string }) => u.loc))
    t.ok(locs.has(`${BASE}/s/atlas`), 'the home page')
    const missing = [
      ...a.productRecords.map((p) => `${BASE}/s/atlas/products/${p.handle}`),
      ...a.collectionRecords.map((c) => `${BASE}/s/atlas/collections/${c.handle}`),
      `${BASE}/s/atlas/pages/about`,
    ].filter((u) => !locs.has(u))
    t.same(missing, [], 'every active product, every collection and the published pages, by handle')
    for (const loc of locs) t.equal((await get(loc.slice(BASE.length))).statusCode, 200, `${loc} answers 200`)
    t.equal((await get('/s/nowhere/sitemap.xml')).statusCode, 404)
  })

  await t.test('every page kind: canonical, description, Open Graph, Twitter card, JSON-LD', async (t) => {
    const pages = {
      home: '/s/atlas',
      product: `/s/atlas/products/${product.handle}`,
      collection: `/s/atlas/collections/${collection.handle}`,
      products: '/s/atlas/products',
      collections: '/s/atlas/collections',
      page: '/s/atlas/pages/about',
    }
    for (const [kind, path] of Object.entries(pages)) {
      const res = await get(path)
      t.equal(res.statusCode, 200, `${kind} 200`)
      const h = head(res.body)
      t.same(h.canonical, [`${BASE}${path}`], `${kind}: canonical is its own live address`)
      t.same(h.robots, [], `${kind}: indexable`)
      const [description] = h.meta('name', 'description')
      t.ok(description && description.length > 20 && description.length <= 161, `${kind}: a description`)
      t.same(h.meta('property', 'og:url'), [`${BASE}${path}`], `${kind}: og:url`)
      t.equal(h.meta('property', 'og:title').length, 1, `${kind}: og:title`)
      t.same(h.meta('property', 'og:description'), [description], `${kind}: og:description`)
      const [image] = h.meta('property', 'og:image')
      t.match(image, /^http:\/\/storefront\.test\/media\/[0-9a-f]{64}\.png$/, `${kind}: og:image, absolute`)
      t.equal((await get(new URL(image!).pathname)).statusCode, 200, `${kind}: the image answers`)
      t.same(h.meta('name', 'twitter:card'), ['summary_large_image'], `${kind}: twitter:card`)
      t.same(h.meta('name', 'twitter:image'), [image], `${kind}: twitter:image`)
      const graph = graphOf(res.body)
      if (kind !== 'home') {
        const [crumbs] = ofType(graph, 'BreadcrumbList')
        t.ok(crumbs, `${kind}: BreadcrumbList`)
        t.equal(crumbs?.itemListElement[0].item, `${BASE}/s/atlas`, `${kind}: the trail starts at home`)
        t.equal(crumbs?.itemListElement.at(-1).item, `${BASE}${path}`, `${kind}: and ends at the page`)
      }
    }

    const home = graphOf((await get(pages.home)).body)
    const [org] = ofType(home, 'Organization')
    t.match(org, { name: 'Atlas Outfitters', url: `${BASE}/s/atlas` }, 'Organization on the home page')
    t.match(ofType(home, 'WebSite')[0], { name: 'Atlas Outfitters', url: `${BASE}/s/atlas` }, 'WebSite')
    t.same(head((await get(pages.home)).body).meta('name', 'description'), [
      (await api(app, keyA, 'GET', '/api/v1/store')).branding.tagline,
    ])

    const productPage = (await get(pages.product)).body
    const [item] = ofType(graphOf(productPage), 'Product')
    t.ok(item, 'Product on the product page')
    t.same(productProblems(item!), [], 'Product and Offers carry the required fields')
    t.equal(item!.name, product.title)
    t.same(
      item!.offers.map((o: any) => [o.price, o.priceCurrency, o.availability]),
      product.variants.map((v) => [
        v.price.amount,
        v.price.currencyCode,
        `https://schema.org/${v.availableForSale ? 'InStock' : 'OutOfStock'}`,
      ]),
      'one Offer per variant: the live price, currency and stock',
    )
    t.same(head(productPage).meta('property', 'og:type'), ['product'])
    t.same(head(productPage).meta('property', 'og:image'), [product.featuredImage!.url], 'the product’s own image')

    const [listing] = ofType(graphOf((await get(pages.collection)).body), 'CollectionPage')
    t.match(listing, { name: collection.title, url: `${BASE}${pages.collection}` }, 'CollectionPage')
    t.equal(listing?.mainEntity.itemListElement.length > 0, true, 'with its products')

    const second = await get('/s/atlas/products?page=2&sort=price-asc')
    t.same(
      head(second.body).canonical,
      [`${BASE}/s/atlas/products?page=2`],
      'a listing page keeps its page number only',
    )
    const variant = await get(`${pages.product}?variant=${product.variants[0]!.id}`)
    t.same(head(variant.body).canonical, [`${BASE}${pages.product}`], 'a chosen variant is the same page')
  })

  await t.test('id URLs answer 301 to handle URLs, query and prefix kept; pages link by handle', async (t) => {
    const byId = await get(`/s/atlas/products/${product.id}?variant=${product.variants[0]!.id}&utm_source=x`)
    t.equal(byId.statusCode, 301)
    t.equal(
      byId.headers.location,
      `/s/atlas/products/${product.handle}?variant=${product.variants[0]!.id}&utm_source=x`,
    )
    const coll = await get(`/s/atlas/collections/${collection.id}?page=1`)
    t.equal(coll.statusCode, 301)
    t.equal(coll.headers.location, `/s/atlas/collections/${collection.handle}?page=1`)
    t.equal((await get(`/s/lumen/products/${product.id}`)).statusCode, 404, 'another store’s id is a 404')

    // A theme keeps its links by id; the page shows them by handle.
    const doc = sampleDocument(a)
    doc.navigation = [{ label: 'Featured', href: `/collections/${collection.id}` }]
    const themeId = await draftWithDocument(app, keyA, doc)
    const preview = await previewPath(app, keyA, themeId)
    const home = await get(preview.path)
    t.equal(home.statusCode, 200)
    const hrefs = elements(parse(home.body), (e) => e.name === 'a').map((e) => e.attribs.href ?? '')
    t.ok(hrefs.includes(`${preview.path}/collections/${collection.handle}`), 'the menu link by handle')
    t.same(
      hrefs.filter((h) => /\/(products|collections)\/(prod|coll?)_/.test(h)),
      [],
      'no page link by id',
    )
    const moved = await get(`${preview.path}/products/${product.id}?variant=${product.variants[0]!.id}`)
    t.equal(moved.statusCode, 301)
    t.equal(
      moved.headers.location,
      `${preview.path}/products/${product.handle}?variant=${product.variants[0]!.id}`,
      'the preview prefix is kept',
    )
    t.equal(moved.headers['cache-control'], 'private, no-store')

    await t.test('previews are noindex, without a canonical', async (t) => {
      for (const path of ['', `/products/${product.handle}`, `/collections/${collection.handle}`]) {
        const res = await get(`${preview.path}${path}`)
        t.equal(res.statusCode, 200)
        t.equal(res.headers['x-robots-tag'], 'noindex, nofollow', `${path || 'home'}: header`)
        t.same(head(res.body).robots, ['noindex, nofollow'], `${path || 'home'}: meta`)
        t.same(head(res.body).canonical, [], `${path || 'home'}: no canonical`)
      }
    })
  })

  await t.test('the cart and the checkout are noindex', async (t) => {
    const cart = await get('/s/atlas/cart')
    t.same(head(cart.body).robots, ['noindex, nofollow'], 'the cart')
    const added = await app.inject({
      method: 'POST',
      url: '/s/atlas/cart/add',
      headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `variant=${encodeURIComponent(product.variants[0]!.id)}&quantity=1`,
    })
    const cookie = String(added.headers['set-cookie'] ?? '').split(';')[0]!
    const checkout = await app.inject({ url: '/s/atlas/checkout', headers: { cookie } })
    t.equal(checkout.statusCode, 200, 'the checkout of a cart')
    t.same(head(checkout.body).robots, ['noindex, nofollow'], 'the checkout')
  })
})
