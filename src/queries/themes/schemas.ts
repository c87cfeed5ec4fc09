import { z } from 'zod'
import { THEME_STATUSES } from '../../theme/constants.ts'
import { pageSchema, themeDocumentSchema } from '../../theme/document.ts'
import { targetSchema } from '../../aggregates/theme/edits.ts'
import { sectionSchema } from '../../theme/sections.ts'

// Shapes of theme data as REST returns it in `data` and MCP in `structuredContent`.
const timestamp = z.string().meta({ description: 'ISO 8601 date-time (UTC).' })

export const themeStatusSchema = z.enum(THEME_STATUSES).meta({
  description:
    'draft: editable and private; private: not live and not editable (a former live theme or one set aside); active: live on the storefront; archived: retired.',
})

export const themeSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string().meta({ description: 'The kind of agent that created it (claude, chatgpt, cursor, ...).' }),
  status: themeStatusSchema,
  version: z.number().int().meta({
    description:
      'Grows with every applied change. Send it back as If-Match or expectedVersion to avoid overwriting a concurrent change.',
  }),
  createdAt: timestamp,
  updatedAt: timestamp,
  publishedAt: timestamp.nullable(),
  archivedAt: timestamp.nullable(),
  duplicatedFrom: z.string().nullable(),
  lastPreviewAt: timestamp.nullable(),
  lastPreviewedVersion: z.number().int().nullable(),
  editorUrl: z.string().meta({ description: "The merchant's visual editor for this theme." }),
})
export type ThemeSummary = z.output<typeof themeSummarySchema>

export const themeSchema = themeSummarySchema.extend({ document: themeDocumentSchema })
export type ThemeView = z.output<typeof themeSchema>

export const locatedSectionSchema = z.object({
  section: sectionSchema,
  location: targetSchema,
  index: z.number().int(),
})
export const themePageSchema = pageSchema
