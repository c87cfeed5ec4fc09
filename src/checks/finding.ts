// What a check reports: one finding per problem, where it is (template, section, block,
// setting) and how to fix it. The zod schemas are the contract's shape (v1.2: theme checks);
// REST, OpenAPI and the MCP tools take them from here.
import { z } from 'zod'
import { RULE_IDS, type RuleId } from './rules.ts'

export const SEVERITIES = ['error', 'warning', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export const findingSchema = z
  .object({
    rule: z.enum(RULE_IDS).meta({ description: 'Stable rule id (docs/theme-checks.md).' }),
    severity: z.enum(SEVERITIES),
    template: z.string().meta({
      description: 'home, product, collection, blogPost, page:<pageId>, or theme (header, footer, navigation, tokens).',
    }),
    sectionId: z.string().optional(),
    blockId: z.string().optional(),
    setting: z.string().optional().meta({
      description: 'Path in the section (or block) settings; theme.* and navigation* are document paths.',
    }),
    message: z.string(),
    fix: z.string(),
  })
  .meta({ id: 'ThemeCheckFinding', description: 'A problem a theme check found; findings never refuse a change.' })

export type Finding = z.output<typeof findingSchema>

export const summarySchema = z.object({ error: z.int(), warning: z.int(), info: z.int() })
export type Summary = z.output<typeof summarySchema>

export const checksResultSchema = z.object({ findings: z.array(findingSchema), summary: summarySchema })
export type ChecksResult = z.output<typeof checksResultSchema>

// What rules return: a finding and, where one place can hold several problems of one rule (two
// colour pairs in one section), the subject that tells them apart. The subject is never sent; it
// is what makes "the same finding" in two versions of a theme (introducedFindings).
export type Found = Finding & { subject?: string }

export const identity = (f: Found): string =>
  [f.rule, f.template, f.sectionId ?? '', f.blockId ?? '', f.setting ?? '', f.subject ?? ''].join('\u0000')

export function summarize(findings: readonly Finding[]): Summary {
  const summary: Summary = { error: 0, warning: 0, info: 0 }
  for (const f of findings) summary[f.severity]++
  return summary
}

const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 }

/** Errors first, then by rule, template and section; the subject dropped. */
export function published(found: readonly Found[]): Finding[] {
  return [...found]
    .sort(
      (a, b) =>
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        RULE_IDS.indexOf(a.rule) - RULE_IDS.indexOf(b.rule) ||
        a.template.localeCompare(b.template) ||
        (a.sectionId ?? '').localeCompare(b.sectionId ?? ''),
    )
    .map(({ subject: _subject, ...finding }) => finding)
}

/** The findings of `after` that `before` did not have (what a change introduced). */
export function introducedFindings(before: readonly Found[], after: readonly Found[]): Found[] {
  const known = new Set(before.map(identity))
  return after.filter((f) => !known.has(identity(f)))
}

export type { RuleId }
