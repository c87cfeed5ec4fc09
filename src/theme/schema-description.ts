// The payload of the theme schema endpoint (GET /api/v1/themes/schema and the
// get_theme_schema MCP tool): one call gives an agent everything it needs to
// write a valid theme, so it never has to guess.
import {
  FONTS,
  LIMITS,
  PAGE_STATUSES,
  RESERVED_SLUGS,
  TEMPLATE_NAMES,
  TEXT_LIMITS,
  THEME_DOCUMENT_VERSION,
  THEME_PRESETS,
} from './constants.ts'
import { themeDocumentJsonSchema } from './document.ts'
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from './rich-text.ts'
import { JSON_SCHEMA_DIALECT, REQUIRED_TEMPLATE_SECTION, sectionCatalogueJsonSchema } from './sections.ts'

export function themeSchemaDescription() {
  return {
    documentVersion: THEME_DOCUMENT_VERSION,
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    limits: { ...LIMITS },
    textLimits: { ...TEXT_LIMITS },
    templates: [...TEMPLATE_NAMES],
    requiredTemplateSections: { ...REQUIRED_TEMPLATE_SECTION },
    themePresets: [...THEME_PRESETS],
    fonts: [...FONTS],
    pageStatuses: [...PAGE_STATUSES],
    reservedSlugs: [...RESERVED_SLUGS],
    rules: {
      references:
        'Products and collections are referenced by id only (productId, productIds, collectionId, collectionIds). Take ids from listProducts/get_products and listCollections/get_collections; never invent them.',
      commerceData:
        'Price, compare-at price, stock, inventory, quantity, SKU and availability are never stored in a theme; the storefront reads them from the catalog at render time.',
      urls: 'Every URL is an https:// URL or a site-relative path starting with a single /. http:, //host, backslashes, whitespace, javascript:, data:, vbscript: and file: are refused.',
      plainText: 'Plain-text fields are rendered as text; any HTML in them is refused.',
      richText: {
        tags: [...RICH_TEXT_TAGS],
        attributes: { ...RICH_TEXT_ATTRIBUTES },
        hrefs: 'https://, mailto:, tel: or a site-relative /path',
      },
      ids: 'Section ids are unique across the theme; block ids are unique within their section.',
    },
    sections: sectionCatalogueJsonSchema().sections,
    document: themeDocumentJsonSchema(),
  }
}
