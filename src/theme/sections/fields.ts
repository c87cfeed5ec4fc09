// Field schemas shared by every section. Safety rules live here, as zod
// refinements, so a field is checked the same way wherever it appears; each
// custom issue carries its API code in `params` for validate.ts.
import { z } from 'zod'
import { ID_PATTERN, LIMITS, type Placement, REFERENCE_ID_PATTERN, TEXT_LIMITS } from '../constants.ts'
import type { IssueCode } from '../issues.ts'
import { findMarkup, RICH_TEXT_DESCRIPTION, validateRichText } from '../rich-text.ts'
import { urlProblem } from '../url.ts'

export type IssueParams = { code: IssueCode; hint?: string }

/** Prefix of the message zod reports for unknown keys; validate.ts turns it into a hint. */
export const ALLOWED_KEYS_PREFIX = 'Allowed keys: '

type Ctx = z.RefinementCtx

function addIssue(ctx: Ctx, code: IssueCode, message: string, hint?: string): void {
  const params: IssueParams = hint === undefined ? { code } : { code, hint }
  ctx.addIssue({ code: 'custom', message, params })
}

/** A strict object whose unknown-key error lists the keys that are allowed. */
export function strictObject<S extends z.core.$ZodLooseShape>(shape: S) {
  const allowed = Object.keys(shape).join(', ') || '(none)'
  return z.strictObject(shape, {
    error: (raw) => (raw.code === 'unrecognized_keys' ? `${ALLOWED_KEYS_PREFIX}${allowed}` : undefined),
  })
}

/**
 * An array with a size limit that is reported as LIMIT_EXCEEDED while the
 * elements are still validated: zod's own `.max()` stops at the size and would
 * hide every other problem in the list.
 */
export function cappedArray<T extends z.ZodType>(item: T, max: number, noun: string) {
  return z
    .array(item)
    .superRefine(
      (items, ctx) => {
        if (Array.isArray(items) && items.length > max) {
          addIssue(ctx, 'LIMIT_EXCEEDED', `Too many ${noun}: ${items.length}; the limit is ${max}`)
        }
      },
      { when: () => true },
    )
    .meta({ maxItems: max })
}

const SINGLE_LINE_CONTROLS = /[\u0000-\u001f\u007f]/
const MULTI_LINE_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f]/
const PLAIN_TEXT_HINT = 'Write plain text without tags; formatting is only possible in rich-text fields.'

function checkPlainText(value: string, ctx: Ctx, multiline: boolean): void {
  const markup = findMarkup(value)
  if (markup !== null) {
    addIssue(
      ctx,
      'UNSAFE_CONTENT',
      `Plain-text field contains HTML markup (${markup}); markup is not allowed here`,
      PLAIN_TEXT_HINT,
    )
  }
  if ((multiline ? MULTI_LINE_CONTROLS : SINGLE_LINE_CONTROLS).test(value)) {
    addIssue(
      ctx,
      'VALIDATION_FAILED',
      multiline ? 'Text contains control characters' : 'Text contains line breaks or control characters',
    )
  }
}

type TextOptions = { min?: number; multiline?: boolean }

export function plainText(max: number, description: string, options: TextOptions = {}) {
  const multiline = options.multiline === true
  const base = options.min === undefined ? z.string() : z.string().min(options.min)
  return base
    .max(max)
    .superRefine((value, ctx) => checkPlainText(value, ctx, multiline))
    .meta({
      description: `${description} Plain text, at most ${max} characters${multiline ? ' (line breaks allowed)' : ''}; HTML is rejected.`,
    })
}

export function richText(max: number, description: string) {
  return z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      for (const found of validateRichText(value, '')) addIssue(ctx, found.code, found.message, found.hint)
    })
    .meta({
      description: `${description} At most ${max} characters. ${RICH_TEXT_DESCRIPTION}`,
      contentMediaType: 'text/html',
    })
}

export function url(description: string) {
  return z
    .string()
    .max(TEXT_LIMITS.url)
    .superRefine((value, ctx) => {
      const problem = urlProblem(value)
      if (problem !== null) addIssue(ctx, problem.code, problem.message, problem.hint)
    })
    .meta({
      description: `${description} An https:// URL or a site-relative path starting with a single / (no http:, //host, javascript: or data:).`,
      format: 'uri-reference',
    })
}

export const image = strictObject({
  url: url('Image URL, for example a media asset URL from listMedia (GET /api/v1/media) or get_media.'),
  alt: plainText(
    TEXT_LIMITS.alt,
    'Alternative text describing the image for screen readers; empty only for decorative images.',
  ),
}).meta({ description: 'An image: its URL and alternative text.' })

export const button = strictObject({
  label: plainText(TEXT_LIMITS.label, 'Button text.', { min: 1 }),
  href: url('Where the button leads.'),
}).meta({ description: 'A call-to-action button.' })

export const elementId = z
  .string()
  .regex(ID_PATTERN, {
    message: 'Ids are 1-64 characters of letters, digits, _ and -, starting with a letter or digit',
  })
  .meta({ pattern: ID_PATTERN.source })

function uniqueStrings(items: readonly string[], ctx: Ctx, noun: string): void {
  const seen = new Set<string>()
  items.forEach((item, index) => {
    if (seen.has(item))
      ctx.addIssue({
        code: 'custom',
        message: `Duplicate ${noun} '${item}'`,
        path: [index],
        params: { code: 'VALIDATION_FAILED' },
      })
    seen.add(item)
  })
}

const REFERENCE_MESSAGE = 'Ids are 1-64 characters of letters, digits, _ and -'

export const productId = z.string().regex(REFERENCE_ID_PATTERN, { message: REFERENCE_MESSAGE }).meta({
  description:
    'Id of an existing product, taken from listProducts (GET /api/v1/products) or get_products; never invented. Price, stock and other commerce data are read from the catalog at render time.',
})

export const collectionId = z.string().regex(REFERENCE_ID_PATTERN, { message: REFERENCE_MESSAGE }).meta({
  description:
    'Id of an existing collection, taken from listCollections (GET /api/v1/collections) or get_collections; never invented.',
})

export const productIds = cappedArray(productId, TEXT_LIMITS.referencesPerSection, 'product ids')
  .superRefine((items, ctx) => uniqueStrings(items, ctx, 'product id'))
  .meta({ description: 'Ids of existing products, in display order.' })

export const collectionIds = cappedArray(collectionId, TEXT_LIMITS.referencesPerSection, 'collection ids')
  .superRefine((items, ctx) => uniqueStrings(items, ctx, 'collection id'))
  .meta({ description: 'Ids of existing collections, in display order.' })

export const alignment = z
  .enum(['left', 'center', 'right'])
  .meta({ description: 'Horizontal alignment of the content.' })

export function columns(min: number, max: number) {
  return z
    .int()
    .min(min)
    .max(max)
    .meta({ description: `Number of columns on wide screens (${min}-${max}); small screens stack.` })
}

// Sections without blocks still accept `blocks: []`, so an agent can send every
// section in the same generic shape.
const noBlocks = z
  .array(z.unknown())
  .superRefine((items, ctx) => {
    if (items.length > 0) addIssue(ctx, 'VALIDATION_FAILED', 'This section type has no blocks; omit blocks or send []')
  })
  .meta({ maxItems: 0, description: 'This section type has no blocks.' })

type SettingsSchema = z.ZodType<Record<string, unknown>>

export type BlockDefinition<T extends string = string, S extends SettingsSchema = SettingsSchema> = {
  type: T
  description: string
  settingsSchema: S
}

export function defineBlock<T extends string, S extends SettingsSchema>(
  type: T,
  description: string,
  settingsSchema: S,
) {
  const definition: BlockDefinition<T, S> = { type, description, settingsSchema }
  return definition
}

function blockSchema<T extends string, S extends SettingsSchema>(block: BlockDefinition<T, S>) {
  return strictObject({
    id: elementId.meta({ description: 'Block id, unique within its section.' }),
    type: z.literal(block.type),
    settings: block.settingsSchema,
  }).meta({
    description: block.description,
  })
}

type SectionInput<S extends SettingsSchema> = { description: string; templates: readonly Placement[]; settings: S }

const sectionIdField = elementId.meta({
  description:
    'Section id, unique across the whole theme (all templates and pages). Lowercase words joined by - read best, for example home-hero.',
})

// Names the section in the `$defs` of the published document schema.
function sectionSchemaId(type: string): string {
  return `section-${type}`
}

export function defineSection<T extends string, S extends SettingsSchema>(type: T, input: SectionInput<S>) {
  return {
    type,
    description: input.description,
    templates: input.templates,
    settingsSchema: input.settings,
    blockSchemas: undefined,
    schema: strictObject({
      id: sectionIdField,
      type: z.literal(type),
      settings: input.settings,
      blocks: noBlocks.optional(),
    }).meta({
      id: sectionSchemaId(type),
      description: input.description,
    }),
  }
}

export function defineSectionWithBlocks<
  T extends string,
  S extends SettingsSchema,
  BT extends string,
  BS extends SettingsSchema,
>(type: T, input: SectionInput<S> & { block: BlockDefinition<BT, BS> }) {
  const block = blockSchema(input.block)
  const blocks = cappedArray(block, LIMITS.blocksPerSection, 'blocks in this section').meta({
    description: `Ordered ${input.block.type} blocks (at most ${LIMITS.blocksPerSection}); block ids are unique within the section.`,
  })
  return {
    type,
    description: input.description,
    templates: input.templates,
    settingsSchema: input.settings,
    blockSchemas: { [input.block.type]: input.block } as Record<BT, BlockDefinition<BT, BS>>,
    blockSchema: block,
    schema: strictObject({
      id: sectionIdField,
      type: z.literal(type),
      settings: input.settings,
      blocks: blocks.optional(),
    }).meta({
      id: sectionSchemaId(type),
      description: input.description,
    }),
  }
}
