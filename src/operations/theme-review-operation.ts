import { z } from 'zod'
import { describeDiffForMerchants } from '../aggregates/theme/diff-words.ts'
import { diffDocuments } from '../aggregates/theme/diff.ts'
import { resolveRef, type HistoryReader } from '../queries/themes/history.ts'
import { findTheme } from '../queries/themes/theme-queries.ts'
import type { Services } from '../services.ts'
import { defineOperation } from './operation.ts'
import { notFound } from './results.ts'

// What the merchant's review view (the MCP App of src/mcp/theme-review) shows beside a tool's
// result: the theme's name, its editor and publish pages, the live theme, and what publishing
// the theme now would change in the merchant's words. Not a contract operation: the MCP adapter
// attaches it to the results of the tools linked to the view, for hosts that render it.

const reader = (s: Services): HistoryReader => ({
  db: s.db,
  eventStore: s.eventStore,
  cursorSecret: s.read.cursorSecret,
})

const line = z.object({
  text: z.string(),
  colors: z.object({ old: z.string().nullable(), new: z.string().nullable() }).optional(),
})

export const themeReviewSchema = z.object({
  themeId: z.string(),
  name: z.string(),
  status: z.string(),
  version: z.int(),
  editorUrl: z.string(),
  publishUrl: z.string(),
  live: z.object({ themeId: z.string().nullable(), version: z.int().nullable() }),
  changes: z.array(z.object({ where: z.string(), lines: z.array(line) })),
})
export type ThemeReview = z.infer<typeof themeReviewSchema>

export const getThemeReviewOperation = defineOperation({
  operationId: 'getThemeReview',
  method: 'GET',
  path: '/mcp/theme-review/:id',
  scopes: ['themes:read'],
  tag: 'MCP App',
  summary: 'What the review view shows beside a theme',
  description: 'The theme, its pages in the dashboard, the live theme, and what publishing it would change.',
  params: z.object({ id: z.string().min(1).max(100) }),
  data: themeReviewSchema,
  successStatus: 200,
  idempotent: true,
  async run(input, caller, s) {
    const theme = await findTheme(s.read, caller.storeId, input.id)
    if (!theme) return notFound('theme')
    // The live side needs the theme only, not its history.
    const live = await resolveRef(reader(s), { theme, events: [] }, 'live')
    const diff = diffDocuments(live!.document, theme.document)
    const page = (suffix: string) => `${s.baseUrl}/dashboard/themes/${encodeURIComponent(theme.themeId)}${suffix}`
    return {
      ok: true,
      data: {
        themeId: theme.themeId,
        name: theme.name,
        status: theme.status,
        version: theme.version,
        editorUrl: `${s.baseUrl}/dashboard/themes/editor?themeId=${encodeURIComponent(theme.themeId)}`,
        publishUrl: page('/publish'),
        live: { themeId: live!.themeId, version: live!.version },
        changes: describeDiffForMerchants(diff, [...live!.document.pages, ...theme.document.pages]),
      },
    }
  },
})
