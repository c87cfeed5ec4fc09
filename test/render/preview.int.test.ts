import t, { type Test } from 'tap'
import { SignJWT } from 'jose'
import { issuePreviewToken } from '../../src/preview/tokens.ts'
import { STORE_A, STORE_B, testApp } from '../support/app.ts'
import {
  activeContent,
  api,
  byTag,
  draftWithDocument,
  elements,
  formatPrice,
  parse,
  previewPath,
  sampleDocument,
  storeRefs,
  textOf,
} from './support.ts'

const HERO = 'Spring on the trail'

t.test('signed previews of a draft', async (t) => {
  const { app, services, keyA, keyB } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const b = await storeRefs(app, keyB)
  const doc = sampleDocument(a)
  const themeId = await draftWithDocument(app, keyA, doc, 'Spring draft')
  const { path, token, expiresAt } = await previewPath(app, keyA, themeId)
  const secret = services.signingSecret
  const get = (url: string) => app.inject({ method: 'GET', url })

  const expectRejected = async (t: Test, url: string, reason: RegExp) => {
    const res = await get(url)
    t.equal(res.statusCode, 401, `${url.slice(0, 60)}…: 401`)
    t.match(res.headers['content-type'], /^text\/html/, 'an HTML page')
    t.match(textOf(parse(res.body)), reason)
    t.notOk(res.body.includes(HERO), 'never the theme')
    t.equal(res.headers['x-robots-tag'], 'noindex, nofollow')
    t.equal(res.headers['cache-control'], 'private, no-store')
    t.match(res.headers['content-security-policy'], /script-src 'none'/)
    return res
  }

  await t.test('a valid token renders the draft, marked as a preview', async (t) => {
    const res = await get(path)
    t.equal(res.statusCode, 200)
    const dom = parse(res.body)
    t.ok(textOf(dom).includes(HERO), 'the draft’s hero')
    const banner = elements(dom, (e) => e.attribs.class === 'preview-banner')[0]
    t.ok(banner, 'a visible preview banner')
    t.match(textOf(banner!), /Preview of Spring draft, version \d+ — not live/)
    t.ok(byTag(banner!, 'time')[0]?.attribs.datetime === new Date(expiresAt).toISOString(), 'with the expiry')
    t.equal(res.headers['x-robots-tag'], 'noindex, nofollow')
    t.equal(res.headers['cache-control'], 'private, no-store')
    t.match(res.headers['content-security-policy'], /script-src 'none'/)
    t.notMatch(res.headers['content-security-policy'], /unsafe-inline/)
    t.equal(res.headers['referrer-policy'], 'no-referrer', 'the token never leaks through Referer')
    t.ok(
      elements(dom, (e) => e.name === 'meta' && e.attribs.name === 'robots' && /noindex/.test(e.attribs.content ?? ''))
        .length === 1,
    )
    for (const link of byTag(dom, 'a')) {
      const href = link.attribs.href ?? ''
      if (href.startsWith('/'))
        t.ok(
          href.startsWith(`/preview/${token}`) || href.startsWith('/media/'),
          `internal link ${href.slice(0, 40)}… stays in the preview`,
        )
    }
    for (const form of byTag(dom, 'form'))
      t.ok(form.attribs.action?.startsWith(`/preview/${token}/`), 'forms stay in the preview')
    const price = formatPrice('fr-MA', a.productRecords[0]!.priceRange!.min.cents, 'MAD')
    t.ok(textOf(dom).includes(price), `a real price (${price})`)
    for (const p of b.productRecords) t.notOk(textOf(dom).includes(p.title), 'nothing of the other store')
    t.same(activeContent(res.body), [])
    t.ok((await get(`${path}/`)).body.includes(HERO), 'trailing slash')
  })

  await t.test('paths are appended to the preview URL and the query is kept', async (t) => {
    const product = a.productRecords.find((p) => p.variants.filter((v) => v.availableForSale).length > 1)!
    const second = product.variants.filter((v) => v.availableForSale)[1]!
    const res = await get(`${path}/products/${product.handle}?variant=${second.id}&utm_source=agent`)
    t.equal(res.statusCode, 200)
    const dom = parse(res.body)
    t.equal(textOf(byTag(dom, 'h1')[0]!), product.title)
    const checked = elements(dom, (e) => e.name === 'input' && e.attribs.name === 'variant' && 'checked' in e.attribs)
    t.equal(checked[0]?.attribs.value, second.id, 'the variant from the query is selected')
    t.ok(textOf(dom).includes('Order now, pay on delivery'), 'the draft’s product template')
    const collection = await get(`${path}/collections/${a.collectionRecords[0]!.handle}?sort=price-desc&page=1`)
    t.equal(collection.statusCode, 200)
    t.equal(
      elements(parse(collection.body), (e) => e.name === 'option' && 'selected' in e.attribs)[0]?.attribs.value,
      'price-desc',
      'sort kept',
    )
    t.equal((await get(`${path}/pages/lookbook`)).statusCode, 200, 'draft pages are previewed')
    t.equal((await get(`${path}/pages/about`)).statusCode, 200)
    t.equal((await get(`${path}/blog/sample`)).statusCode, 200)
    const missing = await get(`${path}/products/prod_nope`)
    t.equal(missing.statusCode, 404)
    t.ok(textOf(parse(missing.body)).includes('Page not found'), 'the theme’s 404 page, in the preview')
    t.ok(missing.body.includes('preview-banner'))
    const added = await app.inject({
      method: 'POST',
      url: `${path}/cart/add`,
      payload: `variant=${second.id}&quantity=2`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    })
    t.equal(added.statusCode, 303, 'added to the preview’s cart')
    const cartCookie = String(added.headers['set-cookie']).split(';')[0]!
    const checkout = await app.inject({ method: 'GET', url: `${path}/checkout`, headers: { cookie: cartCookie } })
    t.equal(checkout.statusCode, 200)
    t.ok(
      textOf(parse(checkout.body)).includes(formatPrice('fr-MA', second.price.cents * 2, 'MAD')),
      'checkout: the subtotal of two',
    )
    t.ok(checkout.body.includes('preview-banner'), 'checkout in a preview is marked too')
    t.equal(checkout.headers['cache-control'], 'private, no-store')
    const newsletter = await app.inject({
      method: 'POST',
      url: `${path}/newsletter`,
      payload: 'email=a%40b.example',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    t.equal(newsletter.statusCode, 200)
    t.match(textOf(parse(newsletter.body)), /not stored/)
  })

  await t.test('edits to the draft show on reload', async (t) => {
    await api(app, keyA, 'POST', `/api/v1/themes/${themeId}/batch`, {
      operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: 'Summer on the trail' } }],
    })
    const res = await get(path)
    t.ok(res.body.includes('Summer on the trail'), 'the new version renders')
    t.notOk(res.body.includes(HERO))
    await api(app, keyA, 'POST', `/api/v1/themes/${themeId}/batch`, {
      operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: HERO } }],
    })
  })

  await t.test('expired, tampered, other-purpose and malformed tokens get the 401 page', async (t) => {
    const past = await issuePreviewToken(secret, {
      storeId: STORE_A,
      themeId,
      themeVersion: 1,
      now: new Date(Date.now() - 16 * 60 * 1000),
    })
    await expectRejected(t, `/preview/${past.token}`, /expired/)
    await expectRejected(t, `/preview/${past.token}/products/${a.products[0]}`, /expired/)
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11)
    await expectRejected(t, `/preview/${header}.${payload}.${flipped}`, /not valid/)
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), theme: 'thm_other' }),
    ).toString('base64url')
    await expectRejected(t, `/preview/${header}.${forgedPayload}.${signature}`, /not valid/)
    const otherPurpose = await new SignJWT({ purpose: 'password_reset', store: STORE_A, theme: themeId, ver: 1 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('storefront-theme-service')
      .setAudience('storefront-preview')
      .setJti('x')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(`preview:${secret}`))
    await expectRejected(t, `/preview/${otherPurpose}`, /not valid/)
    const otherKey = await issuePreviewToken('another-secret-of-at-least-32-characters!', {
      storeId: STORE_A,
      themeId,
      themeVersion: 1,
      now: new Date(),
    })
    await expectRejected(t, `/preview/${otherKey.token}`, /not valid/)
    await expectRejected(t, '/preview/not-a-token', /not valid/)
    await expectRejected(t, '/preview/a.b.c/products', /not valid/)
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`
    await expectRejected(t, `/preview/${none}`, /not valid/)
  })

  await t.test('a token is bound to its store and theme', async (t) => {
    const crossed = await issuePreviewToken(secret, { storeId: STORE_B, themeId, themeVersion: 1, now: new Date() })
    await expectRejected(t, `/preview/${crossed.token}`, /no longer available/)
    const ghost = await issuePreviewToken(secret, {
      storeId: STORE_A,
      themeId: 'thm_missing',
      themeVersion: 1,
      now: new Date(),
    })
    await expectRejected(t, `/preview/${ghost.token}`, /no longer available/)
    // Store B's own draft previews store B's catalog, never A's.
    const themeB = await draftWithDocument(app, keyB, sampleDocument(b), 'Lumen draft')
    const previewB = await previewPath(app, keyB, themeB)
    const resB = await get(previewB.path)
    t.equal(resB.statusCode, 200)
    const textB = textOf(parse(resB.body))
    for (const p of a.productRecords) t.notOk(textB.includes(p.title), `B's preview shows no A product (${p.title})`)
    t.ok(
      b.productRecords.slice(0, 3).every((p) => textB.includes(p.title)),
      'B’s own products',
    )
    const crossProduct = await get(`${previewB.path}/products/${a.products[0]}`)
    t.equal(crossProduct.statusCode, 404, "A's product through B's preview is not found")
    const crossCart = await app.inject({
      method: 'POST',
      url: `${previewB.path}/cart/add`,
      payload: `variant=${a.productRecords[0]!.variants[0]!.id}&quantity=1`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    })
    t.equal(crossCart.statusCode, 400, "A's variant cannot go into B's cart")
  })

  await t.test('an archived theme can no longer be previewed', async (t) => {
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/v1/themes/${themeId}`,
      headers: { authorization: `Bearer ${keyA}` },
    })
    t.equal(res.statusCode, 200, res.body)
    await expectRejected(t, path, /no longer available/)
    await expectRejected(t, `${path}/products/${a.products[0]}`, /no longer available/)
  })
})
