import t from 'tap'
import { defaultThemeDocument, FONTS, type ThemeDocument } from '../../src/theme/document.ts'
import { evolveDocument } from '../../src/aggregates/theme/state.ts'
import {
  collectReferences,
  documentIssues,
  documentReferences,
  errorCodeFor,
  isCommerceKey,
  isUnsafeKey,
  validateNavigation,
  validatePage,
  validateSection,
  validateThemeDocument,
  validateTokens,
  type IssueCode,
  type ValidationIssue,
} from '../../src/theme/validate.ts'

const KNOWN = { productIds: new Set(['prod_1', 'prod_2']), collectionIds: new Set(['col_1']) }

// Test documents are mutated freely, so they are handled as loose JSON.
type Json = Record<string, any>
const fresh = (): Json => structuredClone(defaultThemeDocument()) as Json

function issuesOf(result: { ok: true } | { ok: false; issues: ValidationIssue[] }): ValidationIssue[] {
  return result.ok ? [] : result.issues
}

const brief = (issues: ValidationIssue[]) => issues.map((i) => `${i.code} ${i.path}`)

function hasIssue(t: any, issues: ValidationIssue[], code: IssueCode, path: string, message?: RegExp) {
  const found = issues.find(
    (i) => i.code === code && i.path === path && (message === undefined || message.test(i.message)),
  )
  t.ok(found, `${code} at ${path}`, found ? {} : { found: brief(issues) })
  return found
}

const section = (type: string, settings: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: `s-${type}`,
  type,
  settings,
  ...extra,
})
const home = { path: 'templates.home[0]', template: 'home' as const }

t.test('errorCodeFor picks the most specific code', async (t) => {
  const of = (...codes: IssueCode[]) => errorCodeFor(codes.map((code) => ({ path: '', code, message: '' })))
  t.equal(of(), 'VALIDATION_FAILED')
  t.equal(of('VALIDATION_FAILED'), 'VALIDATION_FAILED')
  t.equal(of('VALIDATION_FAILED', 'LIMIT_EXCEEDED'), 'LIMIT_EXCEEDED')
  t.equal(of('LIMIT_EXCEEDED', 'INVALID_COLLECTION_REFERENCE'), 'INVALID_COLLECTION_REFERENCE')
  t.equal(of('INVALID_COLLECTION_REFERENCE', 'INVALID_PRODUCT_REFERENCE'), 'INVALID_PRODUCT_REFERENCE')
  t.equal(of('INVALID_PRODUCT_REFERENCE', 'COMMERCE_DATA_FORBIDDEN'), 'COMMERCE_DATA_FORBIDDEN')
  t.equal(of('COMMERCE_DATA_FORBIDDEN', 'UNSAFE_CONTENT', 'VALIDATION_FAILED'), 'UNSAFE_CONTENT')
})

t.test('structure errors are VALIDATION_FAILED at the zod path', async (t) => {
  t.same(issuesOf(validateThemeDocument('nope', KNOWN)), [
    { path: '', code: 'VALIDATION_FAILED', message: 'The theme document must be a JSON object' },
  ])
  const doc = fresh()
  delete doc.navigation
  doc.extra = 1
  doc.templates.home[0].settings.heading = 42
  doc.templates.home[1].settings.limit = 0
  doc.templates.home[2].settings.width = 'huge'
  const issues = issuesOf(validateThemeDocument(doc, KNOWN))
  hasIssue(t, issues, 'VALIDATION_FAILED', 'navigation', /Required array is missing/)
  hasIssue(t, issues, 'VALIDATION_FAILED', 'extra', /Unknown key 'extra'/)
  hasIssue(t, issues, 'VALIDATION_FAILED', 'templates.home[0].settings.heading', /expected string/)
  hasIssue(t, issues, 'VALIDATION_FAILED', 'templates.home[1].settings.limit')
  hasIssue(t, issues, 'VALIDATION_FAILED', 'templates.home[2].settings.width')
  t.equal(issues.length, 5, 'each problem once')
})

t.test('unknown keys name the allowed keys in the hint', async (t) => {
  const issues = issuesOf(validateSection(section('spacer', { height: 10, colour: 'red' }), home, KNOWN))
  const found = hasIssue(t, issues, 'VALIDATION_FAILED', 'templates.home[0].settings.colour', /Unknown key 'colour'/)
  t.equal(found?.hint, 'Allowed keys: height, showDivider')
})

t.test('every problem is reported, not only the first', async (t) => {
  const doc = fresh()
  doc.theme.primaryColor = 'blue'
  doc.theme.font = 'Papyrus'
  doc.templates.home[0].settings.heading = '<b>Hi</b>'
  doc.templates.home[0].settings.price = 3
  doc.templates.home.push(section('featured-product', { productId: 'made_up' }))
  doc.templates.home.push({ ...section('spacer', { height: 10 }), id: 'home-hero' })
  const issues = issuesOf(validateThemeDocument(doc, KNOWN))
  t.same(brief(issues).sort(), [
    'COMMERCE_DATA_FORBIDDEN templates.home[0].settings.price',
    'INVALID_PRODUCT_REFERENCE templates.home[3].settings.productId',
    'UNSAFE_CONTENT templates.home[0].settings.heading',
    'VALIDATION_FAILED templates.home[4].id',
    'VALIDATION_FAILED theme.font',
    'VALIDATION_FAILED theme.primaryColor',
  ])
  t.equal(errorCodeFor(issues), 'UNSAFE_CONTENT')
  // zod first, then key safety, then references, then whole-document rules
  t.same(
    issues.map((i) => i.code),
    [
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'UNSAFE_CONTENT',
      'COMMERCE_DATA_FORBIDDEN',
      'INVALID_PRODUCT_REFERENCE',
      'VALIDATION_FAILED',
    ],
  )
})

t.test('plain-text fields refuse markup and control characters', async (t) => {
  const check = (settings: Record<string, unknown>) => issuesOf(validateSection(section('hero', settings), home, KNOWN))
  for (const payload of [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<Foo />',
    '<!-- x -->',
    '<iframe>',
    '<svg onload=alert(1)>',
  ]) {
    hasIssue(t, check({ heading: payload }), 'UNSAFE_CONTENT', 'templates.home[0].settings.heading', /HTML markup/)
  }
  t.same(check({ heading: 'Tom & Jerry <3 — 50% off, a < b' }), [], 'ordinary text passes')
  hasIssue(
    t,
    check({ heading: 'two\nlines' }),
    'VALIDATION_FAILED',
    'templates.home[0].settings.heading',
    /line breaks/,
  )
  t.same(check({ heading: 'x', subheading: 'two\nlines' }), [], 'multi-line fields keep line breaks')
  hasIssue(
    t,
    check({ heading: 'x', subheading: 'nul\u0000' }),
    'VALIDATION_FAILED',
    'templates.home[0].settings.subheading',
    /control/,
  )
  hasIssue(t, check({ heading: 'x'.repeat(161) }), 'VALIDATION_FAILED', 'templates.home[0].settings.heading', /<=160/)
  hasIssue(t, check({ heading: '' }), 'VALIDATION_FAILED', 'templates.home[0].settings.heading')
  const both = check({ heading: `<script>${'x'.repeat(200)}</script>` })
  t.same(brief(both).sort(), [
    'UNSAFE_CONTENT templates.home[0].settings.heading',
    'VALIDATION_FAILED templates.home[0].settings.heading',
  ])
})

t.test('rich-text fields use the rich-text allowlist', async (t) => {
  const check = (body: string) => issuesOf(validateSection(section('rich-text', { body }), home, KNOWN))
  t.same(check('<h2>Hi</h2><p>Text with <a href="/about">a link</a>.</p>'), [])
  const issues = check('<p onclick="x">a</p><script>b</script>')
  t.equal(issues.length, 2)
  t.ok(issues.every((i) => i.code === 'UNSAFE_CONTENT' && i.path === 'templates.home[0].settings.body'))
  hasIssue(t, check(`<p>${'x'.repeat(20001)}</p>`), 'VALIDATION_FAILED', 'templates.home[0].settings.body')
})

t.test('URL fields: dangerous schemes are unsafe, other bad URLs invalid', async (t) => {
  const check = (href: string) =>
    issuesOf(validateSection(section('hero', { heading: 'x', primaryButton: { label: 'Go', href } }), home, KNOWN))
  const path = 'templates.home[0].settings.primaryButton.href'
  for (const href of [
    'javascript:alert(1)',
    'data:text/html,x',
    'vbscript:x',
    'file:///x',
    'java&#x73;cript:x',
    ' JAVASCRIPT:x',
    'java\tscript:x',
  ]) {
    hasIssue(t, check(href), 'UNSAFE_CONTENT', path)
  }
  for (const href of ['http://example.com', '//evil.example', '/\\evil', '/a b', 'https://u:p@x.example']) {
    const found = hasIssue(t, check(href), 'VALIDATION_FAILED', path)
    t.match(found?.hint ?? '', /https:\/\//)
  }
  t.same(check('https://example.com/x'), [])
  t.same(check('/collections/col_1'), [])
})

t.test('theme tokens: presets, hex colors, fonts, logo', async (t) => {
  const base = defaultThemeDocument().theme
  t.ok(validateTokens(base, 'theme').ok)
  for (const color of ['#abc', '#ABCDEF', '#0a0B0c'])
    t.ok(validateTokens({ ...base, primaryColor: color }, 'theme').ok, color)
  for (const color of ['red', '#abcd', '#12345g', 'rgb(0,0,0)', '#fff;x', '', 'abc']) {
    hasIssue(
      t,
      issuesOf(validateTokens({ ...base, secondaryColor: color }, 'theme')),
      'VALIDATION_FAILED',
      'theme.secondaryColor',
    )
  }
  for (const font of FONTS) t.ok(validateTokens({ ...base, font }, 'theme').ok, font)
  hasIssue(t, issuesOf(validateTokens({ ...base, font: 'inter' }, 'theme')), 'VALIDATION_FAILED', 'theme.font')
  hasIssue(t, issuesOf(validateTokens({ ...base, theme: 'weird' }, 'theme')), 'VALIDATION_FAILED', 'theme.theme')
  t.ok(validateTokens({ ...base, logo: '/media/logo.svg' }, 'theme').ok)
  t.ok(validateTokens({ ...base, logo: 'https://cdn.example.com/logo.png' }, 'theme').ok)
  hasIssue(
    t,
    issuesOf(validateTokens({ ...base, logo: 'javascript:alert(1)' }, 'theme')),
    'UNSAFE_CONTENT',
    'theme.logo',
  )
  hasIssue(t, issuesOf(validateTokens({ ...base, logo: undefined }, 'theme')), 'VALIDATION_FAILED', 'theme.logo')
  const result = validateTokens({ ...base, primaryColor: '#000' }, 'ops[0].tokens')
  t.same(result.ok && result.tokens, { ...base, primaryColor: '#000' })
  hasIssue(
    t,
    issuesOf(validateTokens({ ...base, primaryColor: 1 }, 'ops[0].tokens')),
    'VALIDATION_FAILED',
    'ops[0].tokens.primaryColor',
  )
})

t.test('commerce data is refused anywhere with its own code', async (t) => {
  for (const key of [
    'price',
    'Price',
    'compareAtPrice',
    'compare_at_price',
    'compare-at-price',
    'cost',
    'inventory',
    'inventory_quantity',
    'stock',
    'inStock',
    'quantity',
    'qty',
    'sku',
    'SKU',
    'available',
    'availableQuantity',
    'availablequantity',
    'compareatprice',
    'priceCents',
    'salePrice',
  ]) {
    t.ok(isCommerceKey(key), key)
  }
  for (const key of [
    'productsPerPage',
    'showDescription',
    'heading',
    'costume',
    'stockholm',
    'skull',
    'productId',
    'columns',
    'caption',
  ]) {
    t.notOk(isCommerceKey(key), key)
  }
  const settings = { heading: 'x', price: 1, image: { url: '/a.jpg', alt: 'a', stock: 2 } }
  const issues = issuesOf(validateSection(section('hero', settings), home, KNOWN))
  t.same(brief(issues).sort(), [
    'COMMERCE_DATA_FORBIDDEN templates.home[0].settings.image.stock',
    'COMMERCE_DATA_FORBIDDEN templates.home[0].settings.price',
  ])
  t.match(issues[0]?.hint ?? '', /productId/)
  const onBlock = issuesOf(
    validateSection(
      section(
        'faq',
        {},
        { blocks: [{ id: 'a', type: 'question', settings: { question: 'q', answer: 'a', sku: 'X' } }] },
      ),
      home,
      KNOWN,
    ),
  )
  t.same(brief(onBlock), ['COMMERCE_DATA_FORBIDDEN templates.home[0].blocks[0].settings.sku'])
})

t.test('keys that carry code are unsafe', async (t) => {
  for (const key of [
    'onclick',
    'onError',
    'onmouseover',
    'dangerouslySetInnerHTML',
    'innerHTML',
    'html',
    'script',
    'style',
    'srcdoc',
    'custom_css',
  ])
    t.ok(isUnsafeKey(key), key)
  for (const key of ['one', 'heading', 'body', 'overlayOpacity', 'colorScheme']) t.notOk(isUnsafeKey(key), key)
  const issues = issuesOf(
    validateSection(
      { ...section('spacer', { height: 8, onload: 'x' }), dangerouslySetInnerHTML: { __html: '<b>' } },
      home,
      KNOWN,
    ),
  )
  t.same(brief(issues).sort(), [
    'UNSAFE_CONTENT templates.home[0].dangerouslySetInnerHTML',
    'UNSAFE_CONTENT templates.home[0].settings.onload',
  ])
})

// scanKeys keeps what each key is (key-rules.ts): a key seen before, as a section key, a block
// key or a token, is judged the same the second time, and past the memo's bound.
t.test('a key is judged the same every time it is seen', async (t) => {
  const judged = () =>
    brief(issuesOf(validateSection(section('hero', { heading: 'x', price: 1, onload: 'y' }), home, KNOWN))).sort()
  const first = judged()
  t.same(first, [
    'COMMERCE_DATA_FORBIDDEN templates.home[0].settings.price',
    'UNSAFE_CONTENT templates.home[0].settings.onload',
  ])
  t.same(judged(), first, 'again')
  for (let i = 0; i < 5000; i++) validateSection(section('hero', { heading: 'x', [`extra${i}`]: 1 }), home, KNOWN)
  t.same(judged(), first, 'after thousands of other keys')
})

t.test('references must be real ids, with a hint to list them', async (t) => {
  const grid = section('product-grid', { source: 'manual', productIds: ['prod_1', 'ghost', 'prod_2'], limit: 3 })
  const issues = issuesOf(validateSection(grid, home, KNOWN))
  const found = hasIssue(t, issues, 'INVALID_PRODUCT_REFERENCE', 'templates.home[0].settings.productIds[1]', /'ghost'/)
  t.equal(
    found?.hint,
    'Call listProducts (GET /api/v1/products) or the get_products MCP tool and use a real product id; never invent ids.',
  )
  const collection = issuesOf(validateSection(section('collection-list', { collectionIds: ['nope'] }), home, KNOWN))
  const c = hasIssue(t, collection, 'INVALID_COLLECTION_REFERENCE', 'templates.home[0].settings.collectionIds[0]')
  t.equal(
    c?.hint,
    'Call listCollections (GET /api/v1/collections) or the get_collections MCP tool and use a real collection id; never invent ids.',
  )
  const malformed = issuesOf(validateSection(section('featured-product', { productId: '<script>' }), home, KNOWN))
  t.same(
    brief(malformed),
    ['VALIDATION_FAILED templates.home[0].settings.productId'],
    'a malformed id is a format error only',
  )
  t.ok(validateSection(section('featured-product', { productId: 'prod_2' }), home, KNOWN).ok)
})

t.test('collectReferences walks any JSON for the four reference keys', async (t) => {
  const refs = collectReferences({
    a: [{ productId: 'p1' }, { nested: { productIds: ['p2', 3, 'p3'] } }],
    collectionId: 'c1',
    deep: { deeper: [{ collectionIds: ['c2', 'c1'] }] },
    productID: 'ignored',
    productId: 42,
  })
  t.same([...refs.productIds].sort(), ['p1', 'p2', 'p3'])
  t.same([...refs.collectionIds].sort(), ['c1', 'c2'])
  t.same(collectReferences(null), { productIds: new Set(), collectionIds: new Set() })
  t.same([...collectReferences(defaultThemeDocument()).productIds], [])
})

t.test('documentReferences finds what collectReferences finds, and follows a replaced section', async (t) => {
  const doc = fresh()
  doc.templates.home.push(
    section('product-grid', { source: 'manual', productIds: ['prod_1', 'prod_2'] }, { id: 'grid' }),
  )
  doc.templates.collection.push(section('collection-list', { collectionIds: ['col_1'] }, { id: 'cols' }))
  doc.pages.push({
    id: 'page-a',
    slug: 'a',
    title: 'A',
    seo: { productId: 'prod_seo' },
    layout: [section('featured-product', { productId: 'prod_3' }, { id: 'feat' })],
  })
  doc.navigation.push({ label: 'Sale', collectionId: 'col_nav' })
  const sorted = (refs: { productIds: Set<string>; collectionIds: Set<string> }) => ({
    products: [...refs.productIds].sort(),
    collections: [...refs.collectionIds].sort(),
  })
  t.same(sorted(documentReferences(doc as ThemeDocument)), sorted(collectReferences(doc)))
  t.same(sorted(documentReferences(doc as ThemeDocument)), {
    products: ['prod_1', 'prod_2', 'prod_3', 'prod_seo'],
    collections: ['col_1', 'col_nav'],
  })
  // Asked again (the sections' references are kept), the answer is the same.
  t.same(sorted(documentReferences(doc as ThemeDocument)), sorted(collectReferences(doc)))

  // An edit replaces one section and shares the rest: the new document's references follow it,
  // the old document's stay what they were.
  const grid = doc.templates.home.at(-1)
  const edited = evolveDocument(
    doc as ThemeDocument,
    {
      type: 'SectionUpdated',
      data: {
        sectionId: 'grid',
        target: { template: 'home' },
        section: { ...grid, settings: { source: 'manual', productIds: ['prod_9'] } },
        changed: ['settings.productIds'],
        at: '2026-01-01T00:00:00.000Z',
      },
    } as never,
  )
  t.equal(edited.templates.collection, doc.templates.collection, 'the untouched layout is shared')
  t.same(sorted(documentReferences(edited)), {
    products: ['prod_3', 'prod_9', 'prod_seo'],
    collections: ['col_1', 'col_nav'],
  })
  t.same(sorted(documentReferences(edited)), sorted(collectReferences(edited)))
  t.same(sorted(documentReferences(doc as ThemeDocument)).products, ['prod_1', 'prod_2', 'prod_3', 'prod_seo'])
  // The sets handed out are the caller's own: adding to them changes no later answer.
  documentReferences(edited).productIds.add('prod_added')
  t.notOk(documentReferences(edited).productIds.has('prod_added'))
  // A command's references join the document's, for that answer only.
  const withCommand = documentReferences(edited, {
    op: 'updateSection',
    settings: { productIds: ['prod_cmd'], collectionId: 'col_cmd' },
  })
  t.same(sorted(withCommand), {
    products: ['prod_3', 'prod_9', 'prod_cmd', 'prod_seo'],
    collections: ['col_1', 'col_cmd', 'col_nav'],
  })
  t.notOk(documentReferences(edited).productIds.has('prod_cmd'))
})

t.test('product-grid source decides which references are needed', async (t) => {
  const check = (settings: Record<string, unknown>) =>
    brief(issuesOf(validateSection(section('product-grid', { limit: 4, ...settings }), home, KNOWN)))
  t.same(check({ source: 'newest' }), [])
  t.same(check({ source: 'collection', collectionId: 'col_1' }), [])
  t.same(check({ source: 'manual', productIds: ['prod_1'] }), [])
  t.same(check({ source: 'collection' }), ['VALIDATION_FAILED templates.home[0].settings.collectionId'])
  t.same(check({ source: 'manual', productIds: [] }), ['VALIDATION_FAILED templates.home[0].settings.productIds'])
  t.same(check({ source: 'newest', productIds: ['prod_1'] }), [
    'VALIDATION_FAILED templates.home[0].settings.productIds',
  ])
  t.same(check({ source: 'manual', productIds: ['prod_1', 'prod_1'] }), [
    'VALIDATION_FAILED templates.home[0].settings.productIds[1]',
  ])
  const many = Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? 'prod_1' : 'prod_2'))
  t.ok(check({ source: 'manual', productIds: many }).includes('LIMIT_EXCEEDED templates.home[0].settings.productIds'))
})

t.test('validateSection: types, placement, blocks, prefixes', async (t) => {
  const unknown = issuesOf(validateSection(section('marquee', {}), home, KNOWN))
  const found = hasIssue(t, unknown, 'VALIDATION_FAILED', 'templates.home[0].type', /Unknown section type "marquee"/)
  t.match(found?.hint ?? '', /product-grid.*getThemeSchema/)
  hasIssue(
    t,
    issuesOf(validateSection({ id: 'x', settings: {} }, home, KNOWN)),
    'VALIDATION_FAILED',
    'templates.home[0].type',
    /missing/,
  )
  hasIssue(t, issuesOf(validateSection('x', home, KNOWN)), 'VALIDATION_FAILED', 'templates.home[0]')
  hasIssue(
    t,
    issuesOf(validateSection({ ...section('spacer', { height: 8 }), id: 'bad id!' }, home, KNOWN)),
    'VALIDATION_FAILED',
    'templates.home[0].id',
  )

  const details = section('product-details', {})
  t.ok(validateSection(details, { path: 'p', template: 'product' }, KNOWN).ok)
  const misplaced = hasIssue(
    t,
    issuesOf(validateSection(details, { path: 'p', template: 'page' }, KNOWN)),
    'VALIDATION_FAILED',
    'p.type',
    /custom pages/,
  )
  t.match(misplaced?.hint ?? '', /product template/)
  hasIssue(
    t,
    issuesOf(validateSection(section('article', {}), home, KNOWN)),
    'VALIDATION_FAILED',
    'templates.home[0].type',
  )

  t.ok(
    validateSection(section('hero', { heading: 'x' }, { blocks: [] }), home, KNOWN).ok,
    'empty blocks are fine on any section',
  )
  hasIssue(
    t,
    issuesOf(validateSection(section('hero', { heading: 'x' }, { blocks: [{}] }), home, KNOWN)),
    'VALIDATION_FAILED',
    'templates.home[0].blocks',
    /no blocks/,
  )

  const question = (id: string) => ({ id, type: 'question', settings: { question: 'q', answer: 'a' } })
  const dup = issuesOf(
    validateSection(section('faq', {}, { blocks: [question('a'), question('b'), question('a')] }), home, KNOWN),
  )
  t.same(brief(dup), ['VALIDATION_FAILED templates.home[0].blocks[2].id'])
  const wrongBlock = issuesOf(
    validateSection(section('faq', {}, { blocks: [{ id: 'x', type: 'testimonial', settings: {} }] }), home, KNOWN),
  )
  hasIssue(t, wrongBlock, 'VALIDATION_FAILED', 'templates.home[0].blocks[0].type')
  const many = issuesOf(
    validateSection(
      section('faq', {}, { blocks: Array.from({ length: 51 }, (_, i) => question(`q${i}`)) }),
      home,
      KNOWN,
    ),
  )
  t.same(brief(many), ['LIMIT_EXCEEDED templates.home[0].blocks'])
  const manyAndBad = issuesOf(
    validateSection(
      section(
        'faq',
        {},
        {
          blocks: [
            ...Array.from({ length: 50 }, (_, i) => question(`q${i}`)),
            { id: 'z', type: 'question', settings: { question: '<b>', answer: 'a' } },
          ],
        },
      ),
      home,
      KNOWN,
    ),
  )
  t.same(
    brief(manyAndBad).sort(),
    ['LIMIT_EXCEEDED templates.home[0].blocks', 'UNSAFE_CONTENT templates.home[0].blocks[50].settings.question'],
    'limits do not hide other problems',
  )

  const ok = validateSection(section('spacer', { height: 12 }), { path: '', template: 'collection' }, KNOWN)
  t.same(ok.ok && ok.section, section('spacer', { height: 12 }))
})

t.test('validatePage: slug rules, layout and placement', async (t) => {
  const page = {
    id: 'about',
    slug: 'about-us',
    title: 'About us',
    status: 'published',
    layout: [section('rich-text', { body: '<p>Hi</p>' })],
  }
  const ok = validatePage(page, 'page', KNOWN)
  t.same(ok.ok && ok.page, page)
  for (const slug of ['cart', 'checkout', 'products', 'collections', 'account', 'orders', 'admin', 'api', 'preview']) {
    const found = hasIssue(
      t,
      issuesOf(validatePage({ ...page, slug }, 'page', KNOWN)),
      'VALIDATION_FAILED',
      'page.slug',
      /reserved/,
    )
    t.match(found?.hint ?? '', /checkout/)
  }
  for (const slug of ['About', 'about us', '-about', 'about-', 'a--b', '', 'a'.repeat(65), '../admin']) {
    hasIssue(t, issuesOf(validatePage({ ...page, slug }, 'page', KNOWN)), 'VALIDATION_FAILED', 'page.slug')
  }
  hasIssue(t, issuesOf(validatePage({ ...page, status: 'live' }, 'page', KNOWN)), 'VALIDATION_FAILED', 'page.status')
  hasIssue(
    t,
    issuesOf(validatePage({ ...page, title: '<script>x</script>' }, 'page', KNOWN)),
    'UNSAFE_CONTENT',
    'page.title',
  )
  hasIssue(
    t,
    issuesOf(validatePage({ ...page, layout: [section('product-details', {})] }, 'page', KNOWN)),
    'VALIDATION_FAILED',
    'page.layout[0].type',
  )
  const twice = issuesOf(
    validatePage(
      { ...page, layout: [section('spacer', { height: 8 }), section('spacer', { height: 9 })] },
      'page',
      KNOWN,
    ),
  )
  t.same(brief(twice), ['VALIDATION_FAILED page.layout[1].id'])
  const many = issuesOf(
    validatePage(
      { ...page, layout: Array.from({ length: 26 }, (_, i) => ({ ...section('spacer', { height: 8 }), id: `s${i}` })) },
      'page',
      KNOWN,
    ),
  )
  t.same(brief(many), ['LIMIT_EXCEEDED page.layout'])
  hasIssue(
    t,
    issuesOf(validatePage({ ...page, layout: [section('featured-product', { productId: 'nope' })] }, 'page', KNOWN)),
    'INVALID_PRODUCT_REFERENCE',
    'page.layout[0].settings.productId',
  )
})

t.test('validateNavigation: two levels, limits, URLs', async (t) => {
  const nav = [{ label: 'Shop', href: '/products', children: [{ label: 'Mugs', href: '/collections/col_1' }] }]
  const ok = validateNavigation(nav, 'navigation')
  t.same(ok.ok && ok.navigation, nav)
  const deep = issuesOf(
    validateNavigation([{ label: 'a', href: '/', children: [{ label: 'b', href: '/b', children: [] }] }], 'nav'),
  )
  hasIssue(t, deep, 'VALIDATION_FAILED', 'nav[0].children[0].children', /two levels/)
  t.same(
    brief(
      issuesOf(
        validateNavigation(
          Array.from({ length: 21 }, () => ({ label: 'x', href: '/' })),
          'nav',
        ),
      ),
    ),
    ['LIMIT_EXCEEDED nav'],
  )
  const children = Array.from({ length: 21 }, () => ({ label: 'x', href: '/' }))
  t.same(brief(issuesOf(validateNavigation([{ label: 'x', href: '/', children }], 'nav'))), [
    'LIMIT_EXCEEDED nav[0].children',
  ])
  hasIssue(
    t,
    issuesOf(validateNavigation([{ label: 'x', href: 'javascript:alert(1)' }], 'nav')),
    'UNSAFE_CONTENT',
    'nav[0].href',
  )
  hasIssue(t, issuesOf(validateNavigation([{ label: '<b>x</b>', href: '/' }], 'nav')), 'UNSAFE_CONTENT', 'nav[0].label')
  hasIssue(t, issuesOf(validateNavigation({}, 'nav')), 'VALIDATION_FAILED', 'nav')
})

t.test('documentIssues: whole-document rules on a typed document', async (t) => {
  t.same(documentIssues(defaultThemeDocument()), [])
  const doc = fresh()
  doc.templates.home.push({ ...section('spacer', { height: 8 }), id: 'product-details' })
  doc.pages.push({
    id: 'a',
    slug: 'a',
    title: 'A',
    status: 'draft',
    layout: [{ ...section('spacer', { height: 8 }), id: 'home-hero' }],
  })
  doc.pages.push({ id: 'a', slug: 'a', title: 'A2', status: 'draft', layout: [] })
  doc.templates.collection.push({ ...section('collection-products', {}), id: 'second-listing' })
  doc.templates.blogPost = []
  const issues = documentIssues(doc as ThemeDocument)
  t.same(brief(issues).sort(), [
    'VALIDATION_FAILED pages[0].layout[0].id',
    'VALIDATION_FAILED pages[1].id',
    'VALIDATION_FAILED pages[1].slug',
    'VALIDATION_FAILED templates.blogPost',
    'VALIDATION_FAILED templates.collection',
    'VALIDATION_FAILED templates.product[0].id',
  ])
  const dupe = issues.find((i) => i.path === 'templates.product[0].id')
  t.match(dupe?.message ?? '', /already used at templates\.home\[3\]/)
  t.match(
    issues.find((i) => i.path === 'templates.collection')?.message ?? '',
    /exactly one 'collection-products' section \(found 2\)/,
  )

  const big = fresh()
  for (let i = 0; i < 26; i++) big.templates.home.push({ ...section('spacer', { height: 8 }), id: `sp-${i}` })
  for (let i = 0; i < 51; i++) big.pages.push({ id: `p${i}`, slug: `p${i}`, title: 'P', status: 'draft', layout: [] })
  big.templates.home[3].type = 'faq'
  big.templates.home[3].settings = {}
  big.templates.home[3].blocks = Array.from({ length: 51 }, (_, i) => ({
    id: `b${i}`,
    type: 'question',
    settings: { question: 'q', answer: 'a' },
  }))
  t.same(brief(documentIssues(big as ThemeDocument)).sort(), [
    'LIMIT_EXCEEDED pages',
    'LIMIT_EXCEEDED templates.home',
    'LIMIT_EXCEEDED templates.home[3].blocks',
  ])
})

t.test('document size is limited to 512 KiB of JSON', async (t) => {
  const doc = fresh()
  const body = `<p>${'é'.repeat(12000)}</p>` // two bytes per character: the limit is in bytes
  doc.pages.push({
    id: 'long',
    slug: 'long',
    title: 'Long',
    status: 'draft',
    layout: Array.from({ length: 25 }, (_, i) => ({ id: `long-${i}`, type: 'rich-text', settings: { body } })),
  })
  t.ok(JSON.stringify(doc).length < 524288 && new TextEncoder().encode(JSON.stringify(doc)).length > 524288)
  const issues = issuesOf(validateThemeDocument(doc, KNOWN))
  t.same(brief(issues), ['LIMIT_EXCEEDED '])
  t.match(issues[0]?.message ?? '', /bytes as JSON; the limit is 524288/)
  t.same(brief(documentIssues(doc as ThemeDocument)), ['LIMIT_EXCEEDED '])

  const huge = fresh()
  huge.templates.home[2].settings.body = 'x'.repeat(3_000_000)
  huge.templates.home[0].settings.heading = '<script>'
  t.same(brief(issuesOf(validateThemeDocument(huge, KNOWN))), ['LIMIT_EXCEEDED '], 'far too big: refused on size alone')
})

t.test('hostile shapes do not crash validation', async (t) => {
  let deep: unknown = 'x'
  for (let i = 0; i < 5000; i++) deep = [deep]
  const doc = fresh()
  doc.templates.home[0].settings.nested = deep
  const issues = issuesOf(validateThemeDocument(doc, KNOWN))
  t.equal(issues.length, 1)
  t.ok(issues[0]?.path.startsWith('templates.home[0].settings.nested[0][0]'))
  t.match(issues[0]?.message ?? '', /nested more than 32 levels/)
  const inSection = issuesOf(validateSection(section('spacer', { height: 8, nested: deep }), home, KNOWN))
  t.ok(inSection.some((i) => /nested more than 32 levels/.test(i.message)))

  const cyclic: Json = fresh()
  cyclic.self = cyclic
  hasIssue(t, issuesOf(validateThemeDocument(cyclic, KNOWN)), 'VALIDATION_FAILED', '', /cyclic/)
  t.notOk(validateSection({ ...cyclic.templates.home[0], loop: cyclic }, home, KNOWN).ok)

  const proto = JSON.parse('{"__proto__": {"price": 1}, "constructor": "x"}')
  const protoIssues = issuesOf(validateThemeDocument({ ...fresh(), ...proto }, KNOWN))
  t.ok(protoIssues.length > 0)
  t.equal(({} as Json).price, undefined, 'no prototype pollution')
})

t.test('paths are prefixed for callers that validate parts', async (t) => {
  const issues = issuesOf(
    validateSection(section('hero', { heading: '<b>' }), { path: 'operations[2].section', template: 'home' }, KNOWN),
  )
  t.same(brief(issues), ['UNSAFE_CONTENT operations[2].section.settings.heading'])
  const odd = issuesOf(validateSection(section('spacer', { height: 8, 'weird key': 1 }), home, KNOWN))
  t.same(brief(odd), ['VALIDATION_FAILED templates.home[0].settings["weird key"]'])
})
