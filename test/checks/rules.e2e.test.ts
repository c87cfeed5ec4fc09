import t from 'tap'
import sharp from 'sharp'
import { mulberry32 } from '../../src/seed/images.ts'
import { testApp } from '../support/app.ts'
import { client, rulesOf, type Op } from './support.ts'

// Issue 36: each rule, a fixture that trips it and one that does not, over REST and MCP. Every
// case starts from a new draft (the default document, which has no findings), applies the near
// miss (`clean`) and checks that its rule is absent, then applies the change that trips it and
// checks that the rule is reported, over REST and over MCP; where the trip is a theme change, the
// clean version is checked again by `version`, which must still be clean.

type Case = {
  rule: string
  clean: Op[]
  trip: Op[]
  // A change of the catalogue instead of (or with) the theme.
  tripCatalogue?: () => Promise<void>
}

t.test('each rule: a fixture that trips it and one that does not, over REST and MCP', async (t) => {
  const app = await testApp(t)
  const api = client(app)
  const db = app.services.db
  const products = (await api.call('GET', '/api/v1/products?limit=50&status=active')).body.data.products as {
    id: string
    handle: string
  }[]
  const collections = (await api.call('GET', '/api/v1/collections')).body.data.collections as { id: string }[]
  const banners = ((await api.call('GET', '/api/v1/media')).body.data.media as { themeUrl: string; width: number }[])
    .filter((m) => m.width >= 1000)
    .map((m) => m.themeUrl)
  const [p0, p1, p2, p3] = products
  // Photograph-sized images that compress badly (noise): about 1 MB each as PNG. A phone gets
  // each at the width its slot needs (a 480 px copy, about half of it), so it takes three of them
  // on one page to pass 800 KB.
  const random = mulberry32(36)
  const heavyUrls: string[] = []
  for (let i = 0; i < 3; i++) {
    const noise = Buffer.alloc(640 * 520 * 3, 0).map(() => Math.floor(random() * 256))
    const heavy = await sharp(noise, { raw: { width: 640, height: 520, channels: 3 } })
      .png()
      .toBuffer()
    const uploaded = await api.call('POST', '/api/v1/media', {
      dataBase64: heavy.toString('base64'),
      alt: 'Noise',
    })
    t.equal(uploaded.status, 201, 'a heavy image uploaded')
    heavyUrls.push(uploaded.body.data.themeUrl as string)
  }

  const bumpCatalogue = () =>
    db
      .updateTable('stores')
      .set((eb) => ({ catalog_version: eb('catalog_version', '+', 1) }))
      .where('store_id', '=', 'st_demo_atlas')
      .execute()
  const section = (id: string, type: string, settings: Record<string, unknown>, blocks?: unknown[]): Op => ({
    op: 'createSection',
    target: { template: 'home' },
    section: { id, type, settings, ...(blocks ? { blocks } : {}) },
  })
  const update = (sectionId: string, settings: Record<string, unknown>, blocks?: unknown[]): Op => ({
    op: 'updateSection',
    sectionId,
    settings,
    ...(blocks ? { blocks } : {}),
  })
  const spacers = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `gap-${i}`, type: 'spacer', settings: { height: 16 } }))

  const cases: Case[] = [
    {
      rule: 'contrast',
      clean: [section('bar', 'announcement-bar', { text: 'Cash on delivery', colorScheme: 'primary' })],
      // White and near-black both read below 4.5:1 on this grey.
      trip: [{ op: 'updateTokens', tokens: { primaryColor: '#777777' } }],
    },
    {
      rule: 'contrast-over-image',
      clean: [
        section('banner', 'image-banner', {
          image: { url: banners[0], alt: 'Mountains' },
          heading: 'Into the hills',
          text: 'Tents, packs and boots for every trail.',
          overlayOpacity: 70,
        }),
      ],
      trip: [update('banner', { overlayOpacity: 0 })],
    },
    {
      rule: 'image-alt',
      clean: [
        section('story', 'image-with-text', {
          image: { url: banners[1], alt: 'Dunes at sunset' },
          heading: 'Our story',
          body: '<p>Tested on Moroccan trails.</p>',
        }),
      ],
      trip: [update('story', { image: { url: banners[1], alt: '' } })],
    },
    {
      rule: 'catalogue-image-alt',
      clean: [section('spotlight', 'featured-product', { productId: p0!.id })],
      trip: [],
      tripCatalogue: async () => {
        await db
          .updateTable('products')
          .set({ images: JSON.stringify([{ url: '/media/x.png', alt: ' ', width: 10, height: 10 }]) })
          .where('product_id', '=', p0!.id)
          .execute()
        await bumpCatalogue()
      },
    },
    {
      rule: 'broken-link',
      clean: [
        section('story', 'image-with-text', {
          image: { url: banners[1], alt: 'Dunes' },
          body: `<p>See <a href="/collections/${collections[0]!.id}">the collection</a>.</p>`,
          // The handle form of a product link.
          button: { label: 'Our tent', href: `/products/${p1!.handle}` },
        }),
      ],
      trip: [update('story', { button: { label: 'Our tent', href: '/products/no-such-tent' } })],
    },
    {
      rule: 'unavailable-link',
      clean: [
        {
          op: 'createPage',
          page: { id: 'sizes', slug: 'sizes', title: 'Sizes', status: 'published', layout: [] },
        },
        section('hero', 'hero', { heading: 'Gear', primaryButton: { label: 'Size guide', href: '/pages/sizes' } }),
      ],
      trip: [{ op: 'updatePage', pageId: 'sizes', changes: { status: 'draft' } }],
    },
    {
      rule: 'empty-link',
      clean: [section('words', 'rich-text', { body: '<p><a href="/products">Shop everything</a></p>' })],
      trip: [update('words', { body: '<p><a href="/products"> </a></p>' })],
    },
    {
      rule: 'button-label',
      clean: [section('hero', 'hero', { heading: 'Gear', primaryButton: { label: 'Shop', href: '/products' } })],
      trip: [update('hero', { primaryButton: { label: '   ', href: '/products' } })],
    },
    {
      rule: 'missing-reference',
      clean: [section('picks', 'product-grid', { source: 'manual', productIds: [p2!.id, p3!.id], limit: 4 })],
      trip: [],
      tripCatalogue: async () => {
        await db.updateTable('products').set({ status: 'archived' }).where('product_id', '=', p3!.id).execute()
        await bumpCatalogue()
      },
    },
    {
      rule: 'empty-section',
      clean: [
        section('faq', 'faq', { heading: 'Questions' }, [
          { id: 'q1', type: 'question', settings: { question: 'How do I pay?', answer: '<p>In cash.</p>' } },
        ]),
      ],
      trip: [update('faq', {}, [])],
    },
    {
      rule: 'page-weight',
      clean: [
        section('pictures', 'gallery', { heading: 'On the trail' }, [
          { id: 'g1', type: 'image', settings: { image: { url: banners[2], alt: 'Foothills' } } },
        ]),
      ],
      trip: [
        update(
          'pictures',
          {},
          heavyUrls.map((url, i) => ({ id: `g${i + 1}`, type: 'image', settings: { image: { url, alt: 'Noise' } } })),
        ),
      ],
    },
    {
      rule: 'section-count',
      clean: [
        {
          op: 'createPage',
          page: { id: 'long', slug: 'long', title: 'Long', status: 'published', layout: spacers(15) },
        },
      ],
      trip: [
        {
          op: 'createSection',
          target: { pageId: 'long' },
          section: { id: 'gap-15', type: 'spacer', settings: { height: 16 } },
        },
      ],
    },
  ]

  for (const c of cases) {
    const draft = await api.draft(`Checks: ${c.rule}`)
    const base = await api.rest(draft.id)
    t.same(base.findings, [], `${c.rule}: the default document has no findings`)
    const clean = await api.batch(draft.id, c.clean)
    const cleanVersion = clean.theme.version
    t.notOk(
      rulesOf(await api.rest(draft.id)).includes(c.rule as never),
      `${c.rule}: the near miss does not trip it (REST)`,
    )
    t.notOk(
      rulesOf(await api.mcp(draft.id)).includes(c.rule as never),
      `${c.rule}: the near miss does not trip it (MCP)`,
    )
    if (c.trip.length > 0) await api.batch(draft.id, c.trip)
    await c.tripCatalogue?.()
    const rest = await api.rest(draft.id)
    const mcp = await api.mcp(draft.id)
    t.ok(rulesOf(rest).includes(c.rule as never), `${c.rule}: tripped (REST)`)
    t.ok(rulesOf(mcp).includes(c.rule as never), `${c.rule}: tripped (MCP)`)
    t.same(mcp, rest, `${c.rule}: MCP and REST report the same`)
    const finding = rest.findings.find((f) => f.rule === c.rule)!
    t.ok(finding.message.length > 0 && finding.fix.length > 0, `${c.rule}: says what is wrong and how to fix it`)
    t.equal(rest.summary[finding.severity] > 0, true, `${c.rule}: counted in the summary`)
    if (c.trip.length > 0 && !c.tripCatalogue) {
      t.notOk(
        rulesOf(await api.rest(draft.id, cleanVersion)).includes(c.rule as never),
        `${c.rule}: ?version= still clean`,
      )
      t.notOk(
        rulesOf(await api.mcp(draft.id, cleanVersion)).includes(c.rule as never),
        `${c.rule}: version argument still clean`,
      )
    }
  }
})
