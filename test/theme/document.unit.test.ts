import t from 'tap'
import {
  defaultThemeDocument,
  FONTS,
  LIMITS,
  TEMPLATE_NAMES,
  THEME_PRESETS,
  themeDocumentJsonSchema,
  themeDocumentSchema,
} from '../../src/theme/document.ts'
import {
  isSectionType,
  REQUIRED_TEMPLATE_SECTION,
  SECTION_CATALOGUE,
  SECTION_TYPES,
  sectionCatalogueJsonSchema,
  type SectionType,
} from '../../src/theme/sections.ts'
import { themeSchemaDescription } from '../../src/theme/schema-description.ts'
import { isCommerceKey, isUnsafeKey, validateSection, validateThemeDocument } from '../../src/theme/validate.ts'

const KNOWN = { productIds: new Set(['prod_1', 'prod_2']), collectionIds: new Set(['col_1']) }

t.test('the default theme document is valid, deterministic and fresh on every call', async (t) => {
  const doc = defaultThemeDocument()
  const result = validateThemeDocument(doc, { productIds: new Set(), collectionIds: new Set() })
  t.ok(result.ok, 'valid even for a store with an empty catalog')
  t.ok(themeDocumentSchema.safeParse(doc).success)
  t.same(defaultThemeDocument(), doc)
  t.not(defaultThemeDocument(), doc, 'a new object each call')
  t.equal(doc.version, 1)
  t.same(
    doc.templates.home.map((s) => [s.id, s.type]),
    [
      ['home-hero', 'hero'],
      ['home-products', 'product-grid'],
      ['home-about', 'rich-text'],
    ],
  )
  const grid = doc.templates.home[1]
  t.equal(grid?.type === 'product-grid' && grid.settings.source, 'newest', 'newest products, no invented ids')
  t.notMatch(JSON.stringify(doc), /productIds?"|collectionIds?"/, 'no references at all')
  t.same(
    doc.templates.product.map((s) => s.type),
    ['product-details'],
  )
  t.same(
    doc.templates.collection.map((s) => s.type),
    ['collection-products'],
  )
  t.same(
    doc.templates.blogPost.map((s) => s.type),
    ['article'],
  )
  t.same(doc.pages, [])
  t.ok(THEME_PRESETS.includes(doc.theme.theme))
  t.ok((FONTS as readonly string[]).includes(doc.theme.font))
})

t.test('published constants', async (t) => {
  t.same(LIMITS, {
    sectionsPerLayout: 25,
    blocksPerSection: 50,
    pagesPerTheme: 50,
    operationsPerBatch: 100,
    documentBytes: 524288,
    themesPerStore: 20,
  })
  t.same([...TEMPLATE_NAMES], ['home', 'product', 'collection', 'blogPost'])
  t.ok(FONTS.length >= 10)
  t.ok(THEME_PRESETS.length >= 5)
})

// One minimal valid instance per section type, to prove every type is usable.
const MINIMAL: Record<SectionType, { settings: Record<string, unknown>; blocks?: unknown[] }> = {
  hero: { settings: { heading: 'Hello' } },
  'product-grid': { settings: { source: 'manual', productIds: ['prod_1'], limit: 1 } },
  'rich-text': { settings: { body: '<p>x</p>' } },
  'featured-product': { settings: { productId: 'prod_2' } },
  'collection-list': { settings: { collectionIds: ['col_1'] } },
  'image-with-text': { settings: { image: { url: '/i.jpg', alt: '' } } },
  'image-banner': { settings: { image: { url: 'https://cdn.example.com/i.jpg', alt: 'Banner' } } },
  testimonials: {
    settings: {},
    blocks: [{ id: 't1', type: 'testimonial', settings: { quote: 'Great', author: 'Ana' } }],
  },
  faq: {
    settings: {},
    blocks: [{ id: 'q1', type: 'question', settings: { question: 'Why?', answer: '<p>Because.</p>' } }],
  },
  gallery: { settings: {}, blocks: [{ id: 'i1', type: 'image', settings: { image: { url: '/g.jpg', alt: 'G' } } }] },
  'announcement-bar': { settings: { text: 'Hi' } },
  'logo-list': { settings: {}, blocks: [{ id: 'l1', type: 'logo', settings: { image: { url: '/l.png', alt: 'L' } } }] },
  spacer: { settings: { height: 32 } },
  newsletter: { settings: { heading: 'Join' } },
  'product-details': { settings: {} },
  'collection-products': { settings: {} },
  article: { settings: {} },
}

t.test('the catalogue has every required section type, each usable where it is allowed', async (t) => {
  const required = [
    'hero',
    'product-grid',
    'rich-text',
    'featured-product',
    'collection-list',
    'image-with-text',
    'image-banner',
    'testimonials',
    'faq',
    'gallery',
    'announcement-bar',
    'logo-list',
    'spacer',
    'newsletter',
    'product-details',
    'collection-products',
    'article',
  ]
  t.same([...SECTION_TYPES].sort(), [...required].sort())
  t.ok(SECTION_TYPES.length >= 14)
  t.notOk(isSectionType('toString'), 'prototype keys are not section types')
  for (const type of SECTION_TYPES) {
    const entry = SECTION_CATALOGUE[type]
    t.ok(entry.description.length > 30, `${type} has a description`)
    t.ok(entry.templates.length > 0, `${type} has templates`)
    for (const where of entry.templates) {
      const result = validateSection({ id: `${type}-1`, type, ...MINIMAL[type] }, { path: 'x', template: where }, KNOWN)
      t.ok(result.ok, `${type} is valid in ${where}`, result.ok ? {} : { issues: result.issues })
    }
  }
  t.same(SECTION_CATALOGUE['product-details'].templates, ['product'])
  t.same(SECTION_CATALOGUE['collection-products'].templates, ['collection'])
  t.same(SECTION_CATALOGUE.article.templates, ['blogPost'])
  t.same(REQUIRED_TEMPLATE_SECTION, {
    product: 'product-details',
    collection: 'collection-products',
    blogPost: 'article',
  })
  t.same(Object.keys(SECTION_CATALOGUE.testimonials.blockSchemas), ['testimonial'])
  t.same(Object.keys(SECTION_CATALOGUE.faq.blockSchemas), ['question'])
  t.same(Object.keys(SECTION_CATALOGUE.gallery.blockSchemas), ['image'])
  t.same(Object.keys(SECTION_CATALOGUE['logo-list'].blockSchemas), ['logo'])
})

function propertyNames(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) propertyNames(item, out)
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) out.push(...Object.keys(value))
      propertyNames(value, out)
    }
  }
  return out
}

t.test('no setting anywhere is commerce data or a code carrier; references use the four exact keys', async (t) => {
  const names = new Set(propertyNames(themeDocumentJsonSchema()))
  t.ok(names.size > 40)
  for (const name of names) {
    t.notOk(isCommerceKey(name), `${name} is not a commerce key`)
    t.notOk(isUnsafeKey(name), `${name} is not an unsafe key`)
    if (/product|collection/i.test(name) && /id/i.test(name)) {
      t.ok(
        ['productId', 'productIds', 'collectionId', 'collectionIds'].includes(name),
        `${name} is a canonical reference key`,
      )
    }
  }
})

t.test('sectionCatalogueJsonSchema describes every type as plain JSON', async (t) => {
  const catalogue = sectionCatalogueJsonSchema()
  t.same(JSON.parse(JSON.stringify(catalogue)), catalogue, 'JSON round trip is lossless')
  t.same(
    catalogue.sections.map((s) => s.type),
    SECTION_TYPES,
  )
  for (const section of catalogue.sections) {
    t.equal(section.settingsSchema.type, 'object', `${section.type} settings are an object`)
    t.equal(section.settingsSchema.additionalProperties, false, `${section.type} settings are strict`)
    t.ok(section.description.length > 0)
    t.ok(section.templates.length > 0)
    for (const block of section.blocks) {
      t.equal(block.settingsSchema.type, 'object')
      t.equal(block.settingsSchema.additionalProperties, false)
    }
  }
  const blocks = Object.fromEntries(catalogue.sections.map((s) => [s.type, s.blocks.map((b) => b.type)]))
  t.same(blocks.testimonials, ['testimonial'])
  t.same(blocks.faq, ['question'])
  t.same(blocks.gallery, ['image'])
  t.same(blocks['logo-list'], ['logo'])
  t.same(blocks.hero, [])
  t.equal(catalogue.sections.find((s) => s.type === 'product-details')?.requiredIn, 'product')
  const richBody = (
    catalogue.sections.find((s) => s.type === 'rich-text')!.settingsSchema.properties as Record<
      string,
      Record<string, unknown>
    >
  ).body
  t.equal(richBody?.contentMediaType, 'text/html')
  t.match(String(richBody?.description), /blockquote/)
})

function refs(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) refs(item, out)
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') out.push(value)
      else refs(value, out)
    }
  }
  return out
}

t.test('themeDocumentJsonSchema is self-contained JSON Schema with every section type', async (t) => {
  const schema = themeDocumentJsonSchema()
  t.same(JSON.parse(JSON.stringify(schema)), schema)
  t.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema')
  t.same(schema.required, ['version', 'theme', 'navigation', 'templates', 'pages'])
  t.equal(schema.additionalProperties, false)
  const defs = schema.$defs as Record<string, unknown>
  for (const type of SECTION_TYPES) t.ok(defs[`section-${type}`], `$defs has ${type}`)
  for (const ref of refs(schema)) {
    const name = ref.replace('#/$defs/', '')
    t.ok(ref.startsWith('#/$defs/') && defs[name], `${ref} resolves`)
  }
  t.ok(JSON.stringify(schema).length < 80_000, 'small enough for an agent context')
})

t.test('themeSchemaDescription bundles everything the schema endpoint returns', async (t) => {
  const description = themeSchemaDescription()
  t.same(JSON.parse(JSON.stringify(description)), description)
  t.same(description.limits, LIMITS)
  t.equal(description.sections.length, SECTION_TYPES.length)
  t.ok(description.rules.richText.tags.includes('blockquote'))
  t.ok(description.reservedSlugs.includes('checkout'))
})
