import type { MerchantLine } from '../aggregates/merchant-line.ts'
import type { RefusalIssue } from '../aggregates/refusals/events.ts'
import { humanize, settingPathLabel } from '../theme/merchant-texts.ts'

// An activity row as the merchant reads it: a headline (the first lines of what the command did,
// or what was refused and why) and the details (every line, every problem at its field). The
// dashboard draws these parts (swatches, theme names in bold); the CSV and the editor's conflict
// banner write them as text with lineText. Theme names are looked up when shown: a row names
// the theme as the merchant knows it now.

export type ThemeNames = ReadonlyMap<string, string>

type Row = {
  action: string
  outcome: 'applied' | 'rejected'
  error_code: string | null
  summary: string
  lines: MerchantLine[] | null
  issues: RefusalIssue[] | null
  issue_count: number | null
}

// What an operation attempts, for a refused row: "Publish", "Edit", "Share a preview link".
const ATTEMPTS: Record<string, string> = {
  applyThemeBatch: 'Edit',
  updateTheme: 'Edit',
  createThemeSection: 'Add a section',
  updateThemeSection: 'Edit a section',
  deleteThemeSection: 'Remove a section',
  createThemePage: 'Add a page',
  updateThemePage: 'Edit a page',
  deleteThemePage: 'Delete a page',
  publishTheme: 'Publish',
  revertTheme: 'Revert',
  duplicateTheme: 'Copy the theme',
  archiveTheme: 'Archive',
  createTheme: 'Create a theme',
  createThemePreviewToken: 'Share a preview link',
  uploadMedia: 'Upload an image',
  updateNavigation: 'Change the menus',
}
export const attemptOf = (action: string) => ATTEMPTS[action] ?? humanize(action)

// Why, in a few words, by error code; the problems themselves are listed at their fields.
const REASONS: Record<string, string> = {
  VALIDATION_FAILED: 'the content has problems',
  UNSAFE_CONTENT: 'unsafe content',
  COMMERCE_DATA_FORBIDDEN: 'shop data a theme may not hold',
  INVALID_PRODUCT_REFERENCE: 'a product that does not exist',
  INVALID_COLLECTION_REFERENCE: 'a collection that does not exist',
  LIMIT_EXCEEDED: 'over a limit',
  INSUFFICIENT_SCOPE: 'the app is not allowed to do this',
  THEME_NOT_EDITABLE: 'only drafts can be changed',
  THEME_IS_ACTIVE: 'the live theme cannot be archived',
  VERSION_CONFLICT: 'the theme had changed since the app read it',
  UNDO_CONFLICT: 'later changes touched the same things',
  RATE_LIMITED: 'too many requests',
}
export const reasonOf = (code: string | null, message: string) => (code && REASONS[code]) || message

export type Headline =
  | { refused: false; lines: MerchantLine[]; more: number }
  | { refused: true; attempt: string; reason: string; problems: number | null }

const SHOWN = 2

export function headlineOf(row: Row): Headline {
  if (row.outcome === 'rejected')
    return {
      refused: true,
      attempt: attemptOf(row.action),
      reason: reasonOf(row.error_code, row.summary.replace(/^Refused: [A-Z_]+: /, '')),
      problems: row.issue_count,
    }
  // A row written before the lines existed (until a rebuild) shows its summary.
  const lines = row.lines ?? [{ text: row.summary }]
  if (lines.length === 0) return { refused: false, lines: [{ text: 'No visible change' }], more: 0 }
  // A revert or undo says what it did in its first line; the edits it was made of are details.
  const shown = row.action === 'revertTheme' && lines.length > 1 ? 1 : SHOWN
  return { refused: false, lines: lines.slice(0, shown), more: Math.max(0, lines.length - shown) }
}

export const themeName = (id: string, names: ThemeNames) => names.get(id) ?? 'a theme that no longer exists'

// "Hero › Heading: “Welcome” → “Hello”", "Copied from “Spring”".
export function lineText(line: MerchantLine, names: ThemeNames): string {
  let text = line.text
  if (line.theme) text += ` “${themeName(line.theme, names)}”`
  if (line.from && line.to) text += `: ${line.from.text} → ${line.to.text}`
  else if (line.to) text += `: now ${line.to.text}`
  return text
}

export function headlineText(h: Headline, names: ThemeNames): string {
  if (h.refused)
    return `Refused: ${h.attempt}, ${h.reason}${h.problems ? ` (${h.problems} problem${h.problems === 1 ? '' : 's'})` : ''}`
  const shown = h.lines.map((l) => lineText(l, names)).join('; ')
  return h.more > 0 ? `${shown}; and ${h.more} more` : shown
}

// A problem's field as the merchant reads it: "operations[0].section.settings.heading" →
// "Heading"; "…settings.primaryButton.href" → "Main button › Link"; "name" → "Name".
export function issueField(path: string): string {
  const parts = path.split(/[.[\]]+/).filter(Boolean)
  const at = parts.lastIndexOf('settings')
  const tail = at >= 0 ? parts.slice(at + 1) : parts.filter((p) => !/^\d+$/.test(p)).slice(-1)
  const label = tail.length > 0 ? settingPathLabel(tail) : ''
  return label || 'The request'
}

// "Heading: scripts are not allowed".
export const issueText = (i: RefusalIssue) => `${issueField(i.path)}: ${i.message}`
