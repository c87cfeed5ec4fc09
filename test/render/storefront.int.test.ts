import t from 'tap'
import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { STORE_A, STORE_B, testApp } from '../support/app.ts'
import {
  activeContent,
  api,
  byTag,
  draftWithDocument,
  elements,
  formatPrice,
  parse,
  sampleDocument,
  storeRefs,
  textOf,
} from './support.ts'

t.test('the live storefront at /s/{slug}', async (t) => {
  const { app, services, keyA, keyB } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const b = await storeRefs(app, keyB)
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })
  const db = services.db

  await t.test('serves the active theme with the usual security headers', async (t) => {
    const res = await get('/s/atlas')
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /^text\/html; charset=utf-8/)
    t.equal(
      textOf(byTag(parse(res.body), 'h1')[0]!),
      'Atlas Outfitters',
      'the seeded Starter theme, with the store’s name in the hero',
    )
    const csp = String(res.headers['content-security-policy'])
    t.match(csp, /default-src 'none'/)
    t.match(csp, /script-src 'none'/)
    t.match(csp, /style-src 'self' 'sha256-/)
    t.match(csp, /img-src 'self' https:/)
    t.notMatch(csp, /unsafe-inline/)
    t.equal(res.headers['x-content-type-options'], 'nosniff')
    t.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
    t.equal(res.headers['referrer-policy'], 'no-referrer')
    t.equal(res.headers['x-robots-tag'], undefined, 'the live store is indexable')
    t.same(activeContent(res.body), [])
    const api = await get('/healthz')
    t.equal(api.headers['x-frame-options'], undefined, 'helmet is scoped to the storefront routes')
    t.equal(api.headers['content-security-policy'], undefined)
    // The page's one inline style matches the hash the CSP allows.
    const style = byTag(parse(res.body), 'style')[0]!
    const { createHash } = await import('node:crypto')
    const hash = createHash('sha256')
      .update(textOf(style).length ? (style.children[0] as { data: string }).data : '')
      .digest('base64')
    t.ok(csp.includes(`'sha256-${hash}'`), 'the CSP allows exactly the inline style')
    const sheet = elements(parse(res.body), (e) => e.name === 'link' && e.attribs.rel === 'stylesheet')[0]!
    const css = await get(sheet.attribs.href!)
    t.equal(css.statusCode, 200)
    t.match(css.headers['content-type'], /^text\/css/)
    t.match(css.headers['cache-control'], /immutable/)
    t.equal((await app.inject({ method: 'HEAD', url: '/s/atlas' })).statusCode, 200, 'HEAD')
  })

  await t.test(
    'every storefront answer carries helmet’s headers: hits, 304s, compressed, error pages, assets, forms',
    async (t) => {
      const { securityHeaders, STOREFRONT_SECURITY } = await import('../../src/web/security-headers.ts')
      const expected = securityHeaders(STOREFRONT_SECURITY)
      t.ok(Object.keys(expected).length >= 9, 'helmet’s set, computed once')
      // Only Internet Explorer and old Chrome and Safari read these (decision 0146).
      const unsent = { 'x-xss-protection': undefined, 'x-download-options': undefined }
      t.equal(expected['content-security-policy'], undefined, 'pages set their own CSP')
      const home = await get('/s/atlas')
      await get('/s/atlas')
      const hit = await get('/s/atlas', { 'accept-encoding': 'gzip' })
      t.equal(hit.headers['x-storefront-cache'], 'hit')
      const answers = {
        page: home,
        'cached, compressed page': hit,
        '304 (compressed etag)': await get('/s/atlas', {
          'if-none-match': String(hit.headers.etag),
          'accept-encoding': 'gzip',
        }),
        '304': await get('/s/atlas', { 'if-none-match': String(home.headers.etag) }),
        '404 page': await get('/s/atlas/nothing/here'),
        'unknown store': await get('/s/no-such-store'),
        'preview with a bad token': await get('/preview/not-a-token'),
        stylesheet: await get(
          elements(parse(home.body), (e) => e.name === 'link' && e.attribs.rel === 'stylesheet')[0]!.attribs.href!,
        ),
        'newsletter form': await app.inject({
          method: 'POST',
          url: '/s/atlas/newsletter',
          payload: 'email=a%40b.example',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        'form too large (400 page)': await app.inject({
          method: 'POST',
          url: '/s/atlas/newsletter',
          payload: `email=${'a'.repeat(5000)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      }
      t.equal(answers['304'].statusCode, 304)
      t.equal(answers['304 (compressed etag)'].statusCode, 304)
      t.equal(
        answers['304 (compressed etag)'].headers.etag,
        hit.headers.etag,
        'the 304 names the representation the client holds',
      )
      t.equal(answers['304 (compressed etag)'].headers['content-encoding'], undefined, 'a 304 has no body to encode')
      t.equal(answers['404 page'].statusCode, 404)
      t.ok(
        answers['form too large (400 page)'].statusCode >= 400 && answers['form too large (400 page)'].statusCode < 500,
      )
      const exceptions: Record<string, Record<string, string | undefined>> = {
        // A token preview may be framed by any origin: the review view in a chat (decision 0170).
        'preview with a bad token': { 'x-frame-options': undefined },
        // A public, immutable asset, loaded by framed previews too.
        stylesheet: { 'cross-origin-resource-policy': 'cross-origin' },
      }
      t.match(
        String(home.headers['content-security-policy']),
        "frame-ancestors 'self'",
        'live pages: framed by the service only',
      )
      t.notMatch(
        String(answers['preview with a bad token'].headers['content-security-policy']),
        'frame-ancestors',
        'token previews: framed by any origin',
      )
      for (const [name, res] of Object.entries(answers)) {
        for (const [header, value] of Object.entries({ ...expected, ...unsent, ...exceptions[name] }))
          t.equal(res.headers[header], value, `${name}: ${header}`)
        if (name !== 'stylesheet')
          t.match(String(res.headers['content-security-policy']), /default-src 'none'/, `${name}: its CSP`)
      }
    },
  )

  await t.test('product, listing, collection, page and 404 routes', async (t) => {
    const product = a.productRecords[0]!
    const res = await get(`/s/atlas/products/${product.handle}`)
    t.equal(res.statusCode, 200)
    t.equal(textOf(byTag(parse(res.body), 'h1')[0]!), product.title)
    t.equal((await get('/s/atlas/products')).statusCode, 200)
    t.equal((await get(`/s/atlas/collections/${a.collectionRecords[0]!.handle}`)).statusCode, 200)
    t.equal((await get('/s/atlas/collections')).statusCode, 200)
    t.equal((await get('/s/atlas/blog/sample')).statusCode, 200)
    const draftProduct = await db
      .selectFrom('products')
      .select('product_id')
      .where('store_id', '=', STORE_A)
      .where('status', '=', 'draft')
      .executeTakeFirstOrThrow()
    for (const url of [
      `/s/atlas/products/${draftProduct.product_id}`,
      `/s/atlas/products/${b.products[0]}`,
      `/s/atlas/collections/${b.collections[0]}`,
      '/s/atlas/pages/no-such-page',
      '/s/atlas/nope/deeper',
      '/s/atlas/products/%3Cscript%3E',
    ]) {
      const missing = await get(url)
      t.equal(missing.statusCode, 404, `${url}: 404`)
      const dom = parse(missing.body)
      t.ok(textOf(dom).includes('Page not found'), 'the themed 404 page')
      t.equal(byTag(dom, 'header').length, 1, 'with the store’s header')
      t.match(missing.headers['content-security-policy'], /script-src 'none'/)
    }
    const noStore = await get('/s/no-such-store')
    t.equal(noStore.statusCode, 404)
    t.match(textOf(parse(noStore.body)), /Store not found/)
  })

  await t.test('the product page adds to the cart; the checkout needs a cart', async (t) => {
    const product = a.productRecords.find((p) => p.variants.length > 1 && p.variants[1]!.availableForSale)!
    const productPage = parse((await get(`/s/atlas/products/${product.handle}`)).body)
    const form = elements(productPage, (e) => e.name === 'form' && e.attribs.class === 'buy-form')[0]!
    t.equal(form.attribs.action, '/s/atlas/cart/add', 'the product page orders through the cart')
    t.equal(form.attribs.method, 'post')
    const empty = await get('/s/atlas/checkout')
    t.equal(empty.statusCode, 303, 'no cart: to the cart page')
    t.equal(empty.headers.location, '/s/atlas/cart')
    const cart = await get('/s/atlas/cart')
    t.equal(cart.statusCode, 200)
    t.match(textOf(parse(cart.body)), /Your cart is empty/)
    t.equal(cart.headers['cache-control'], 'private, no-store')
  })

  await t.test('a published theme goes live; the cache follows theme and catalog versions, per store', async (t) => {
    const before = await get('/s/atlas')
    t.equal(before.headers['x-storefront-cache'], 'hit', 'rendered once, then served from the cache')
    const themeId = await draftWithDocument(app, keyA, sampleDocument(a), 'Spring')
    t.notOk((await get('/s/atlas')).body.includes('Spring on the trail'), 'a draft is not live')
    await api(app, keyA, 'POST', `/api/v1/themes/${themeId}/publish`)
    const after = await get('/s/atlas')
    t.equal(after.headers['x-storefront-cache'], 'miss', 'a new theme version is a new key')
    t.ok(after.body.includes('Spring on the trail'), 'the published theme is live')
    t.equal((await get('/s/atlas/pages/about')).statusCode, 200, 'its published page too')
    t.equal((await get('/s/atlas/pages/lookbook')).statusCode, 404, 'but not its draft page')
    const lumen = await get('/s/lumen')
    t.notOk(lumen.body.includes('Spring on the trail'), 'the other store keeps its own theme')
    for (const p of a.productRecords) t.notOk(textOf(parse(lumen.body)).includes(p.title), 'and its own products')

    // A price change with a catalog version bump shows at once.
    const pick = a.productRecords[0]!
    const url = `/s/atlas/products/${pick.handle}`
    t.equal((await get(url)).headers['x-storefront-cache'], 'miss')
    t.equal((await get(url)).headers['x-storefront-cache'], 'hit')
    await db.updateTable('product_variants').set({ price_cents: 123456 }).where('product_id', '=', pick.id).execute()
    await db
      .updateTable('stores')
      .set({ catalog_version: sql`catalog_version + 1` })
      .where('store_id', '=', STORE_A)
      .execute()
    const repriced = await get(url)
    t.equal(repriced.headers['x-storefront-cache'], 'miss')
    t.ok(textOf(parse(repriced.body)).includes(formatPrice('fr-MA', 123456, 'MAD')), 'the new price')
    t.equal((await get('/s/lumen')).headers['x-storefront-cache'], 'hit', 'the other store’s cache is untouched')

    // Cached pages keep a gzip copy for clients that accept it.
    const zipped = await get(url, { 'accept-encoding': 'gzip, deflate, br' })
    t.equal(zipped.headers['content-encoding'], 'gzip')
    t.equal(zipped.headers.vary, 'accept-encoding')
    t.equal(gunzipSync(zipped.rawPayload).toString('utf8'), repriced.body, 'the same page, compressed')
    t.equal(
      (await get(url, { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'],
      undefined,
      'gzip refused with q=0',
    )

    // ETag revalidation.
    const etag = String(repriced.headers.etag)
    t.equal((await get(url, { 'if-none-match': etag })).statusCode, 304)

    // A product removed from the catalog: nothing rendered, reported in a header.
    const removed = a.products[1]!
    await db.deleteFrom('collection_products').where('product_id', '=', removed).execute()
    await db.deleteFrom('product_variants').where('product_id', '=', removed).execute()
    await db.deleteFrom('products').where('product_id', '=', removed).execute()
    await db
      .updateTable('stores')
      .set({ catalog_version: sql`catalog_version + 1` })
      .where('store_id', '=', STORE_A)
      .execute()
    const home = await get('/s/atlas')
    t.equal(home.statusCode, 200)
    t.equal(home.headers['x-missing-references'], `product:${removed}`)
    t.equal(
      elements(parse(home.body), (e) => e.attribs['data-section-id'] === 'home-picks').length,
      1,
      'the grid still renders',
    )
  })

  await t.test('a store without an active theme shows the default theme made from its own identity', async (t) => {
    await db.updateTable('live_themes').set({ theme_id: null }).where('store_id', '=', STORE_B).execute()
    const res = await get('/s/lumen')
    t.equal(res.statusCode, 200)
    const dom = parse(res.body)
    const text = textOf(dom)
    t.notOk(text.includes('Welcome to our store'), 'not the generic greeting')
    t.equal(textOf(byTag(dom, 'h1')[0]!), 'Lumen Home', 'the store’s name in the hero')
    t.ok(text.includes('Warm light, honest materials'), 'its tagline')
    t.ok(text.includes('Quiet, well-made things for the home'), 'its own About text')
    t.match(elements(dom, (e) => e.attribs.class === 'hero-media')[0]?.children.length, 1, 'a hero image')
    const brand = elements(dom, (e) => e.name === 'a' && e.attribs.class === 'brand')[0]!
    t.match(byTag(brand, 'img')[0]?.attribs.src, /^\/media\//, 'its logo')
    t.ok(
      b.productRecords.some((p) => text.includes(p.title)),
      'and its products',
    )
    for (const page of ['about', 'contact', 'shipping-returns', 'cash-on-delivery'])
      t.equal((await get(`/s/lumen/pages/${page}`)).statusCode, 200, `the footer's /pages/${page} exists`)
    const shipping = textOf(parse((await get('/s/lumen/pages/shipping-returns')).body))
    t.ok(shipping.includes('Colissimo'), 'shipping rates from the store’s checkout terms')
    const cod = textOf(parse((await get('/s/lumen/pages/cash-on-delivery')).body))
    t.match(cod, /Cash-on-delivery fee: 3,90/, 'the COD fee from its checkout terms')
  })

  await t.test('menus never lead to a page the theme does not have', async (t) => {
    const doc = sampleDocument(await storeRefs(app, keyA))
    doc.pages = doc.pages.filter((p) => p.slug !== 'about')
    doc.navigation = [...doc.navigation, { label: 'Gone', href: '/pages/gone' }]
    const themeId = await draftWithDocument(app, keyA, doc, 'No pages')
    await api(app, keyA, 'POST', `/api/v1/themes/${themeId}/publish`)
    const dom = parse((await get('/s/atlas')).body)
    const menus = [...byTag(dom, 'header'), ...byTag(dom, 'footer')]
    const hrefs = menus.flatMap((m) => byTag(m, 'a').map((e) => e.attribs.href ?? ''))
    t.notOk(
      hrefs.some((h) => h.startsWith('/s/atlas/pages/')),
      'no header or footer link to a missing page',
    )
    t.ok(hrefs.includes('/s/atlas/products'), 'other links stay')
  })
})
