import { z } from 'zod'
import { LIMITS, TEMPLATE_NAMES } from '../../theme/document.ts'

// Edit operations on a draft theme. A batch is a list of these; each single-edit endpoint
// (create page, update section, ...) is a batch of one, so both paths share every rule.
// Section and block contents are loose here on purpose: the theme validator checks them
// against the section catalogue and reports precise codes (UNSAFE_CONTENT, INVALID_PRODUCT_REFERENCE...).

const id = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    'letters, digits, "_" and "-", at most 64, starting with a letter or digit',
  )

export const targetSchema = z
  .union([z.strictObject({ template: z.enum(TEMPLATE_NAMES) }), z.strictObject({ pageId: id })])
  .meta({
    description:
      'Where a section lives: a template layout ({ "template": "home" }) or a page layout ({ "pageId": "..." }).',
  })

const settings = z
  .record(z.string(), z.unknown())
  .meta({ description: 'Settings of the section type, as listed by the theme schema (GET /api/v1/themes/schema).' })

export const blockInputSchema = z.strictObject({
  id: id.optional().meta({ description: 'Generated when omitted; unique within its section.' }),
  type: z.string().min(1).max(64),
  settings: settings.default({}),
})

export const sectionInputSchema = z.strictObject({
  id: id.optional().meta({ description: 'Generated when omitted; unique within the theme.' }),
  type: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'A section type from the theme schema, e.g. hero, product-grid, rich-text.' }),
  settings: settings.default({}),
  blocks: z.array(blockInputSchema).optional(),
})

const pageFields = {
  slug: z.string().min(1).max(64),
  title: z.string().min(1).max(200),
  status: z.enum(['draft', 'published']),
  layout: z.array(sectionInputSchema),
}

export const pageInputSchema = z.strictObject({
  id: id.optional().meta({ description: 'Generated when omitted.' }),
  slug: pageFields.slug,
  title: pageFields.title,
  status: pageFields.status.default('draft'),
  layout: pageFields.layout.default([]),
})

export const pageChangesSchema = z
  .strictObject({
    slug: pageFields.slug.optional(),
    title: pageFields.title.optional(),
    status: pageFields.status.optional(),
    layout: pageFields.layout.optional(),
  })
  .refine((c) => Object.keys(c).length > 0, 'give at least one of slug, title, status, layout')

export const tokenChangesSchema = z
  .strictObject({
    theme: z.string().optional(),
    primaryColor: z.string().optional(),
    secondaryColor: z.string().optional(),
    font: z.string().optional(),
    logo: z.string().nullable().optional(),
  })
  .refine((c) => Object.keys(c).length > 0, 'give at least one token')
  .meta({ description: 'Design tokens to change; others keep their value.' })

export const navigationInputSchema = z
  .array(z.unknown())
  .meta({ description: 'The theme navigation: [{ label, href, children? }].' })

const index = z
  .number()
  .int()
  .min(0)
  .meta({ description: 'Zero-based position in the layout; omitted means at the end.' })

export const editSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('createPage'), page: pageInputSchema }),
  z.strictObject({ op: z.literal('updatePage'), pageId: id, changes: pageChangesSchema }),
  z.strictObject({ op: z.literal('deletePage'), pageId: id }),
  z.strictObject({
    op: z.literal('createSection'),
    target: targetSchema,
    index: index.optional(),
    section: sectionInputSchema,
  }),
  z.strictObject({
    op: z.literal('updateSection'),
    sectionId: id,
    settings: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Merged into the current settings; a key set to null is removed.' }),
    blocks: z.array(blockInputSchema).optional().meta({ description: 'Replaces the blocks.' }),
  }),
  z.strictObject({ op: z.literal('deleteSection'), sectionId: id }),
  z.strictObject({ op: z.literal('moveSection'), sectionId: id, target: targetSchema.optional(), index }),
  z.strictObject({ op: z.literal('updateTokens'), tokens: tokenChangesSchema }),
  z.strictObject({ op: z.literal('setNavigation'), navigation: navigationInputSchema }),
])

// One entry of a batch: an edit (a contract operation is something else, see src/operations).
export type Edit = z.output<typeof editSchema>
export type SectionInput = z.output<typeof sectionInputSchema>
export type PageInput = z.output<typeof pageInputSchema>
export type Target = z.output<typeof targetSchema>

export const expectedVersionSchema = z.number().int().min(0).meta({
  description:
    'The theme version this change was based on; a stale one is refused with 409 VERSION_CONFLICT. Same as the If-Match header.',
})

export const batchRequestSchema = z.strictObject({
  operations: z.array(editSchema).min(1).max(LIMITS.operationsPerBatch),
  expectedVersion: expectedVersionSchema.optional(),
  dryRun: z
    .boolean()
    .default(false)
    .meta({ description: 'Validate and return the resulting theme without applying anything.' }),
})
export type BatchRequest = z.output<typeof batchRequestSchema>
