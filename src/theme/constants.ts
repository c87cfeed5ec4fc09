// Published constants of the theme format. They live apart from the zod
// schemas so that sections, documents and the schema endpoint share one source
// without import cycles.

export const THEME_DOCUMENT_VERSION = 1

export const TEMPLATE_NAMES = ['home', 'product', 'collection', 'blogPost'] as const
export type TemplateName = (typeof TEMPLATE_NAMES)[number]

/** Where a section may be placed: one of the templates, or a custom page. */
export type Placement = TemplateName | 'page'
export const PLACEMENTS: readonly Placement[] = [...TEMPLATE_NAMES, 'page']

export const THEME_PRESETS = ['modern', 'classic', 'minimal', 'bold', 'playful'] as const
export type ThemePreset = (typeof THEME_PRESETS)[number]

export const FONTS = [
  'Inter',
  'Roboto',
  'Open Sans',
  'Lato',
  'Montserrat',
  'Poppins',
  'Playfair Display',
  'Merriweather',
  'Source Serif 4',
  'system-ui',
] as const
export type Font = (typeof FONTS)[number]

export const PAGE_STATUSES = ['draft', 'published'] as const

/** A theme's lifecycle (not part of its document): see themeStatusSchema for what each means. */
export const THEME_STATUSES = ['draft', 'private', 'active', 'archived'] as const
export type ThemeStatus = (typeof THEME_STATUSES)[number]

/** Limits from the contract (returned by the theme schema endpoint). */
export const LIMITS = {
  sectionsPerLayout: 25,
  blocksPerSection: 50,
  pagesPerTheme: 50,
  operationsPerBatch: 100,
  documentBytes: 524288,
  themesPerStore: 20,
} as const

/** Limits of our own choosing: field lengths (in characters) and list sizes. */
export const TEXT_LIMITS = {
  id: 64,
  slug: 64,
  label: 60,
  heading: 160,
  text: 600,
  longText: 2000,
  alt: 250,
  pageTitle: 120,
  richText: 20000,
  richTextNestingDepth: 16,
  url: 2048,
  navigationEntries: 20,
  navigationChildren: 20,
  referencesPerSection: 24,
} as const

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
export const REFERENCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** Storefront routes owned by the service; a custom page may not shadow them. */
export const RESERVED_SLUGS = [
  'cart',
  'checkout',
  'products',
  'collections',
  'account',
  'orders',
  'admin',
  'api',
  'preview',
] as const

/** Keys under which a theme references catalog records (by id only). */
export const REFERENCE_KEYS = {
  productId: 'product',
  productIds: 'product',
  collectionId: 'collection',
  collectionIds: 'collection',
} as const

export const PRODUCT_REFERENCE_HINT =
  'Call listProducts (GET /api/v1/products) or the get_products MCP tool and use a real product id; never invent ids.'
export const COLLECTION_REFERENCE_HINT =
  'Call listCollections (GET /api/v1/collections) or the get_collections MCP tool and use a real collection id; never invent ids.'
export const SCHEMA_HINT =
  'Call getThemeSchema (GET /api/v1/themes/schema) or the get_theme_schema MCP tool for the allowed section types and settings.'
