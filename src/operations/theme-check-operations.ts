// Theme checks (v1.2): what hurts a design before it goes live, for any version of any theme of
// the store, and the findings an edit introduced, which the edit operations add to their results.
// Findings never refuse anything.
import { z } from 'zod'
import type { Theme } from '../aggregates/theme/state.ts'
import { themeAt } from '../aggregates/theme/history.ts'
import { themeChecker } from '../checks/checker.ts'
import { checksResultSchema, findingSchema, introducedFindings, published, summarize } from '../checks/finding.ts'
import { readThemeHistory } from '../queries/themes/history.ts'
import { findTheme } from '../queries/themes/theme-queries.ts'
import type { Services } from '../services.ts'
import { defineOperation } from './operation.ts'
import { notFound } from './results.ts'

const digits = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : v)

/** The `findings` field edit results carry. */
export const introducedField = z
  .array(findingSchema)
  .meta({ description: 'Check findings this change introduced (never a refusal); check_theme lists all.' })

/** What a change from `before` to `after` introduced. `stored`: `after` is a stored version (not a dry run). */
export async function findingsIntroduced(
  s: Services,
  storeId: string,
  before: Theme | null,
  after: Theme,
  stored: boolean,
): Promise<z.output<typeof introducedField>> {
  const checker = themeChecker(s)
  return published(
    await checker.safely(async () => {
      const [old, now] = await Promise.all([
        before
          ? checker.findings(storeId, before.document, { themeId: before.themeId, version: before.version })
          : Promise.resolve([]),
        checker.findings(
          storeId,
          after.document,
          stored ? { themeId: after.themeId, version: after.version } : undefined,
        ),
      ])
      return introducedFindings(old, now)
    }),
  )
}

/** All findings of a theme's current version. */
export async function versionFindings(s: Services, storeId: string, theme: Theme) {
  const checker = themeChecker(s)
  return published(
    await checker.safely(() =>
      checker.findings(storeId, theme.document, { themeId: theme.themeId, version: theme.version }),
    ),
  )
}

export const getThemeChecksOperation = defineOperation({
  operationId: 'getThemeChecks',
  method: 'GET',
  path: '/api/v1/themes/:id/checks',
  scopes: ['themes:read'],
  tag: 'Themes',
  summary: 'Check a theme for what hurts its design',
  description:
    'Findings for a theme version (default: the current one; any theme of the store, draft, private, live or archived), computed from the document, the catalogue and the media: text contrast (WCAG 2.2 AA, also over images), alternative text, links to missing products, collections or pages, empty sections, page weight on a phone (390 px) and section counts. Each finding names its rule, severity, template, section and setting, and how to fix it. Findings never refuse a change; fix errors before asking the merchant to publish. Rules: docs/theme-checks.md.',
  params: z.object({ id: z.string().min(1).max(100).meta({ description: 'Theme id.' }) }),
  query: z.object({
    version: z
      .preprocess(digits, z.int().min(1))
      .optional()
      .meta({ description: 'A theme version (default: the current one).' }),
  }),
  data: checksResultSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'check_theme',
    title: 'Check theme',
    description:
      'Unreadable text, missing alt text, dead links, empty sections, heavy pages: each finding says where and how to fix it. Fix errors before asking the merchant to publish.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    const current = await findTheme(s.read, caller.storeId, input.id)
    if (!current) return notFound('theme')
    let theme: Theme | null = current
    if (input.version !== undefined && input.version !== current.version) {
      const history = await readThemeHistory(
        { db: s.db, eventStore: s.eventStore, cursorSecret: s.read.cursorSecret },
        caller.storeId,
        input.id,
      )
      theme = history ? themeAt(history.events, input.version) : null
      if (!theme) return notFound(`version ${input.version}`)
    }
    const findings = await versionFindings(s, caller.storeId, theme)
    return { ok: true, data: { findings, summary: summarize(findings) } }
  },
})
