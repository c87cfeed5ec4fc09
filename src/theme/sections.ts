// The section catalogue: every section type an agent may use, its settings,
// blocks and where it may be placed. The schema endpoint publishes it verbatim.
import { z } from 'zod'
import type { Placement } from './constants.ts'
import type { BlockDefinition } from './sections/fields.ts'
import {
  announcementBar,
  collectionList,
  faq,
  featuredProduct,
  gallery,
  hero,
  imageBanner,
  imageWithText,
  logoList,
  newsletter,
  productGrid,
  richTextSection,
  spacer,
  testimonials,
} from './sections/general.ts'
import { article, collectionProducts, productDetails, REQUIRED_TEMPLATE_SECTION } from './sections/template-specific.ts'

export { REQUIRED_TEMPLATE_SECTION }

export type SectionCatalogueEntry = {
  description: string
  templates: readonly Placement[]
  settingsSchema: z.ZodType
  blockSchemas?: Readonly<Record<string, BlockDefinition>> | undefined
  /** The whole section (`{ id, type, settings, blocks? }`) for this type. */
  schema: z.ZodType
}

export const SECTION_CATALOGUE = {
  hero,
  'product-grid': productGrid,
  'rich-text': richTextSection,
  'featured-product': featuredProduct,
  'collection-list': collectionList,
  'image-with-text': imageWithText,
  'image-banner': imageBanner,
  testimonials,
  faq,
  gallery,
  'announcement-bar': announcementBar,
  'logo-list': logoList,
  spacer,
  newsletter,
  'product-details': productDetails,
  'collection-products': collectionProducts,
  article,
} as const satisfies Record<string, SectionCatalogueEntry>

export type SectionType = keyof typeof SECTION_CATALOGUE

export const SECTION_TYPES = Object.keys(SECTION_CATALOGUE) as SectionType[]

export function isSectionType(value: unknown): value is SectionType {
  return typeof value === 'string' && Object.hasOwn(SECTION_CATALOGUE, value)
}

export const sectionSchema = z.discriminatedUnion('type', [
  hero.schema,
  productGrid.schema,
  richTextSection.schema,
  featuredProduct.schema,
  collectionList.schema,
  imageWithText.schema,
  imageBanner.schema,
  testimonials.schema,
  faq.schema,
  gallery.schema,
  announcementBar.schema,
  logoList.schema,
  spacer.schema,
  newsletter.schema,
  productDetails.schema,
  collectionProducts.schema,
  article.schema,
])

export type Section = z.infer<typeof sectionSchema>

export type Block =
  | z.infer<typeof testimonials.blockSchema>
  | z.infer<typeof faq.blockSchema>
  | z.infer<typeof gallery.blockSchema>
  | z.infer<typeof logoList.blockSchema>

export type JsonSchema = Record<string, unknown>

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'

/** JSON Schema of a zod schema without the per-schema `$schema` line (the dialect is stated once by the caller). */
export function toJsonSchema(schema: z.ZodType, reused: 'inline' | 'ref' = 'inline'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    reused,
  }) as JsonSchema
  return rest
}

export type SectionCatalogueJson = {
  jsonSchemaDialect: string
  sections: Array<{
    type: SectionType
    description: string
    templates: Placement[]
    /** The template this section must appear in exactly once, if any. */
    requiredIn: string | null
    settingsSchema: JsonSchema
    blocks: Array<{ type: string; description: string; settingsSchema: JsonSchema }>
  }>
}

export function sectionCatalogueJsonSchema(): SectionCatalogueJson {
  const requiredIn = new Map<string, string>(
    Object.entries(REQUIRED_TEMPLATE_SECTION).map(([template, type]) => [type, template]),
  )
  return {
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    sections: SECTION_TYPES.map((type) => {
      const entry: SectionCatalogueEntry = SECTION_CATALOGUE[type]
      return {
        type,
        description: entry.description,
        templates: [...entry.templates],
        requiredIn: requiredIn.get(type) ?? null,
        settingsSchema: toJsonSchema(entry.settingsSchema),
        blocks: Object.values(entry.blockSchemas ?? {}).map((block) => ({
          type: block.type,
          description: block.description,
          settingsSchema: toJsonSchema(block.settingsSchema),
        })),
      }
    }),
  }
}
