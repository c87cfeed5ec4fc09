// The theme document: everything a storefront theme is, defined once in zod.
// Types, validation and the published JSON Schema all derive from here.
import { z } from 'zod'
import {
  COLOR_PATTERN,
  FONTS,
  LIMITS,
  PAGE_STATUSES,
  RESERVED_SLUGS,
  SLUG_PATTERN,
  TEXT_LIMITS,
  THEME_DOCUMENT_VERSION,
  THEME_PRESETS,
} from './constants.ts'
import { sectionSchema, toJsonSchema, JSON_SCHEMA_DIALECT, type JsonSchema } from './sections.ts'
import { ALLOWED_KEYS_PREFIX, cappedArray, elementId, plainText, strictObject, url } from './sections/fields.ts'

export {
  FONTS,
  LIMITS,
  PAGE_STATUSES,
  RESERVED_SLUGS,
  TEMPLATE_NAMES,
  TEXT_LIMITS,
  THEME_DOCUMENT_VERSION,
  THEME_PRESETS,
} from './constants.ts'
export type { Font, Placement, TemplateName, ThemePreset } from './constants.ts'
export type { Block, Section, SectionType } from './sections.ts'

const color = (description: string) =>
  z
    .string()
    .regex(COLOR_PATTERN, { message: 'Colors are hex codes: #rgb or #rrggbb' })
    .meta({ description: `${description} Hex code, #rgb or #rrggbb.` })

export const themeTokensSchema = strictObject({
  theme: z
    .enum(THEME_PRESETS)
    .meta({ description: `Style preset: shapes, spacing and type scale. One of ${THEME_PRESETS.join(', ')}.` }),
  primaryColor: color('Main brand color: buttons, links, accents.'),
  secondaryColor: color('Second brand color: highlights and the announcement bar.'),
  font: z.enum(FONTS).meta({ description: `Font family for the whole storefront. One of ${FONTS.join(', ')}.` }),
  logo: url('Logo image URL, for example a media asset URL from listMedia (GET /api/v1/media).').nullable().meta({
    description: 'Logo image URL (https:// or a site-relative /path), or null to show the store name as text.',
  }),
}).meta({ description: 'Design tokens shared by every template and page.' })

const navigationLink = {
  label: plainText(TEXT_LIMITS.label, 'Link text.', { min: 1 }),
  href: url(
    'Link target: a storefront path such as /, /products/<id>, /collections/<id> or /pages/<slug>, or an https:// URL.',
  ),
}

const navigationChildSchema = z
  .strictObject(navigationLink, {
    error: (raw) => {
      if (raw.code !== 'unrecognized_keys') return undefined
      return raw.keys.includes('children')
        ? 'Navigation is at most two levels deep: a child entry cannot have children'
        : `${ALLOWED_KEYS_PREFIX}label, href`
    },
  })
  .meta({ description: 'A second-level navigation link (no further nesting).' })

export const navigationEntrySchema = strictObject({
  ...navigationLink,
  children: cappedArray(navigationChildSchema, TEXT_LIMITS.navigationChildren, 'child navigation entries')
    .meta({
      description: `Second-level links (at most ${TEXT_LIMITS.navigationChildren}); children cannot have children.`,
    })
    .optional(),
}).meta({ description: 'A top-level navigation link with optional children.' })

export const navigationSchema = cappedArray(
  navigationEntrySchema,
  TEXT_LIMITS.navigationEntries,
  'navigation entries',
).meta({
  description: `The theme's main menu (at most ${TEXT_LIMITS.navigationEntries} entries).`,
})

const layoutSchema = cappedArray(sectionSchema, LIMITS.sectionsPerLayout, 'sections in this layout').meta({
  description: `Ordered sections (at most ${LIMITS.sectionsPerLayout}). Section ids are unique across the whole theme.`,
})

const slugSchema = z
  .string()
  .max(TEXT_LIMITS.slug)
  .regex(SLUG_PATTERN, {
    message: 'Slugs are lowercase words of letters and digits joined by single hyphens, for example about-us',
  })
  .superRefine((slug, ctx) => {
    if ((RESERVED_SLUGS as readonly string[]).includes(slug)) {
      ctx.addIssue({
        code: 'custom',
        message: `Slug '${slug}' is reserved for the storefront's own pages`,
        params: { code: 'VALIDATION_FAILED', hint: `Reserved slugs: ${RESERVED_SLUGS.join(', ')}.` },
      })
    }
  })
  .meta({
    description: `Address of the page: /pages/<slug>. Lowercase words joined by hyphens, unique in the theme, at most ${TEXT_LIMITS.slug} characters. Reserved: ${RESERVED_SLUGS.join(', ')}.`,
  })

export const pageSchema = strictObject({
  id: elementId.meta({ description: 'Page id, unique in the theme.' }),
  slug: slugSchema,
  title: plainText(TEXT_LIMITS.pageTitle, 'Page title, shown in the browser tab and as the default heading.', {
    min: 1,
  }),
  layout: layoutSchema,
  status: z.enum(PAGE_STATUSES).meta({
    description:
      "'published' pages are reachable on the live storefront once the theme is published; 'draft' pages only in previews.",
  }),
}).meta({ description: 'A custom page such as About or Contact (not cart, checkout or product pages).' })

export const templatesSchema = strictObject({
  home: layoutSchema.meta({ description: 'The home page.' }),
  product: layoutSchema.meta({ description: 'Every product page; must contain exactly one product-details section.' }),
  collection: layoutSchema.meta({
    description: 'Every collection page; must contain exactly one collection-products section.',
  }),
  blogPost: layoutSchema.meta({ description: 'Every blog post page; must contain exactly one article section.' }),
}).meta({ description: 'Layouts of the built-in page types.' })

export const themeDocumentSchema = strictObject({
  version: z.literal(THEME_DOCUMENT_VERSION).meta({ description: 'Format version of this document.' }),
  theme: themeTokensSchema,
  navigation: navigationSchema,
  templates: templatesSchema,
  pages: cappedArray(pageSchema, LIMITS.pagesPerTheme, 'pages').meta({
    description: `Custom pages (at most ${LIMITS.pagesPerTheme}).`,
  }),
}).meta({
  title: 'Theme document',
  description: `A storefront theme. Products and collections are referenced by id only; price, stock and other commerce data are never stored in a theme. At most ${LIMITS.documentBytes} bytes as JSON.`,
})

export type ThemeDocument = z.infer<typeof themeDocumentSchema>
export type ThemeTokens = z.infer<typeof themeTokensSchema>
export type NavigationEntry = z.infer<typeof navigationEntrySchema>
export type Page = z.infer<typeof pageSchema>
export type PageStatus = Page['status']
export type Templates = ThemeDocument['templates']

export function themeDocumentJsonSchema(): JsonSchema {
  // Section schemas carry ids, so they land in $defs once instead of being
  // repeated in every layout: the schema stays small enough for an agent's context.
  return { $schema: JSON_SCHEMA_DIALECT, ...toJsonSchema(themeDocumentSchema) }
}

export { defaultThemeDocument, type StoreIdentity } from './default-theme.ts'
