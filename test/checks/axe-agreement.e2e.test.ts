import { readFileSync } from 'node:fs'
import t from 'tap'
import { renderSubjects } from '../../src/queries/theme-checks.ts'
import { mulberry32 } from '../../src/seed/images.ts'
import { parseHex, relativeLuminance, toHex, type Rgb } from '../../src/theme/color.ts'
import { THEME_PRESETS } from '../../src/theme/constants.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { client, type Op } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// Issue 36: the contrast checks agree with a browser. 20 generated themes (token colours from a
// fixed seed, every section on a solid background: axe cannot judge text over images or
// gradients); for each, the checks report a contrast error on a template exactly when axe-core
// reports a color-contrast violation in Chromium on that template's preview at 390 or 1280 px
// (home, product and collection). The colours are drawn near the luminances where neither white
// nor near-black text reaches 4.5:1 on a fill, so both outcomes occur and the boundary is tested.
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')
const THEMES = 20
const WIDTHS = [390, 1280] as const
const TEMPLATES = ['home', 'product', 'collection'] as const

// A colour of random hue and saturation with a relative luminance near `target`.
function colourNear(random: () => number, target: number): string {
  const hue = random() * 360
  const sat = 0.3 + random() * 0.7
  const at = (light: number): Rgb => {
    const c = (1 - Math.abs(2 * light - 1)) * sat
    const x = c * (1 - Math.abs(((hue / 60) % 2) - 1))
    const m = light - c / 2
    const [r, g, b] =
      hue < 60
        ? [c, x, 0]
        : hue < 120
          ? [x, c, 0]
          : hue < 180
            ? [0, c, x]
            : hue < 240
              ? [0, x, c]
              : hue < 300
                ? [x, 0, c]
                : [c, 0, x]
    return [(r + m) * 255, (g + m) * 255, (b + m) * 255]
  }
  let lo = 0
  let hi = 1
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2
    if (relativeLuminance(parseHex(toHex(at(mid)))) < target) lo = mid
    else hi = mid
  }
  return toHex(at(lo))
}

t.test('contrast errors exactly where axe-core finds color-contrast violations', async (t) => {
  const app = await testApp(t)
  const api = client(app)
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' })
  const subjects = await renderSubjects(app.services.read, STORE_A)
  const products = (await api.call('GET', '/api/v1/products?limit=50&status=active')).body.data.products as {
    id: string
    compareAtPriceRange: unknown
    availableForSale: boolean
  }[]
  // Cards with a "Sale" and a "Sold out" badge where the catalogue has them.
  const picks = [
    products.find((p) => p.compareAtPriceRange !== null),
    products.find((p) => !p.availableForSale),
    ...products,
  ]
    .filter((p) => p !== undefined)
    .map((p) => p.id)
    .filter((id, i, all) => all.indexOf(id) === i)
    .slice(0, 4)
  const media = (await api.call('GET', '/api/v1/media')).body.data.media as { themeUrl: string }[]
  const browser = await launchChromium(t)
  if (browser === null) return
  const page = await browser.newPage({ viewport: { width: WIDTHS[0], height: 900 } })
  // axe in every page before its own scripts (the storefront has none); images are not needed to
  // judge text on solid backgrounds, and skipping them keeps the 60 page loads short.
  await page.addInitScript({ content: AXE })
  await page.route('**/media/**', (route) => route.abort())
  const random = mulberry32(3602)
  const outcomes: boolean[] = []

  const home: Op[] = [
    { id: 'bar', type: 'announcement-bar', settings: { text: 'Pay in cash on delivery' } },
    {
      id: 'story',
      type: 'image-with-text',
      settings: {
        image: { url: media[0]!.themeUrl, alt: 'Workshop' },
        heading: 'Our story',
        body: '<p>Made by hand. <a href="/products">See everything</a>.</p>',
        button: { label: 'Read more', href: '/products' },
      },
    },
    {
      id: 'picks',
      type: 'product-grid',
      settings: { heading: 'Picks', source: 'manual', productIds: picks, limit: 4 },
    },
    { id: 'spotlight', type: 'featured-product', settings: { heading: 'Spotlight', productId: picks[0] } },
    { id: 'letter', type: 'newsletter', settings: { heading: 'Letters', text: 'News, twice a season.' } },
  ]
  // One draft whose tokens change from theme to theme; one preview link shows its current version.
  const draft = await api.draft('Generated themes')
  const document = (await api.call('GET', `/api/v1/themes/${draft.id}`)).body.data.document
  await api.batch(draft.id, [
    // A short listing page: the same kinds of text, less for axe to walk.
    { op: 'updateSection', sectionId: 'collection-products', settings: { productsPerPage: 4 } },
    ...document.templates.home.map((s: { id: string }) => ({ op: 'deleteSection', sectionId: s.id })),
    ...home.map((section, index) => ({ op: 'createSection', target: { template: 'home' }, index, section })),
  ])
  const preview = (await api.call('POST', `/api/v1/themes/${draft.id}/preview-token`)).body.data.previewUrl as string
  const base = `${address}${new URL(preview).pathname}`
  const paths = {
    home: '',
    product: `/products/${subjects.productId}`,
    collection: `/collections/${subjects.collectionId}`,
  }

  for (let n = 0; n < THEMES; n++) {
    const preset = THEME_PRESETS[Math.floor(random() * THEME_PRESETS.length)]!
    const primaryColor = colourNear(random, 0.15 + random() * 0.08)
    const secondaryColor = colourNear(random, 0.15 + random() * 0.08)
    const scheme = (['primary', 'secondary', 'contrast'] as const)[Math.floor(random() * 3)]!
    await api.batch(draft.id, [
      { op: 'updateTokens', tokens: { theme: preset, primaryColor, secondaryColor } },
      { op: 'updateSection', sectionId: 'bar', settings: { colorScheme: scheme } },
    ])
    const checks = await api.rest(draft.id)
    for (const template of TEMPLATES) {
      const reported = checks.findings.filter(
        (f) => f.rule === 'contrast' && f.severity === 'error' && (f.template === template || f.template === 'theme'),
      )
      const found: string[] = []
      await page.setViewportSize({ width: WIDTHS[0], height: 900 })
      await page.goto(`${base}${paths[template]}`)
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 })
        const result = (await page.evaluate(
          'axe.run(document, { runOnly: ["color-contrast"], resultTypes: ["violations"] })',
        )) as {
          violations: { nodes: { target: string[]; any: { data?: { contrastRatio?: number } }[] }[] }[]
        }
        for (const v of result.violations)
          for (const node of v.nodes)
            found.push(`${width}px ${node.target.join(' ')} ${node.any[0]?.data?.contrastRatio}:1`)
      }
      const label = `theme ${n} (${preset}, primary ${primaryColor}, secondary ${secondaryColor}, bar ${scheme}), ${template}`
      t.equal(
        reported.length > 0,
        found.length > 0,
        `${label}: checks ${reported.map((f) => f.message).join(' | ') || 'none'}; axe ${found.join(', ') || 'none'}`,
      )
      outcomes.push(reported.length > 0)
    }
  }
  t.ok(outcomes.includes(true) && outcomes.includes(false), 'the generated themes give both outcomes')
})
