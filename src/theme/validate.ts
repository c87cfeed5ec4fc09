// Validation of theme documents and of their parts. Every problem is reported
// (not only the first), each with an API code and a path such as
// `templates.home[0].settings.heading`. Order: structure and field safety (zod),
// then key-level safety, then references, then whole-document rules.
import type { z } from 'zod'
import { LIMITS, type Placement, PLACEMENTS, SCHEMA_HINT, type TemplateName } from './constants.ts'
import {
  navigationSchema,
  pageSchema,
  themeDocumentSchema,
  themeTokensSchema,
  type NavigationEntry,
  type Page,
  type Section,
  type ThemeDocument,
  type ThemeTokens,
} from './document.ts'
import { jsonBytes, layoutRules, sectionRules, sizeIssue, wholeDocumentRules } from './document-rules.ts'
import { joinPath, type PathSegment } from '../errors.ts'
import { dedupeIssues, errorCodeFor, isPlainObject, issue, type IssueCode, type ValidationIssue } from './issues.ts'
import { nestingIssue, scanKeys, walk, type KnownReferences } from './key-rules.ts'
import { SECTION_TYPES, sectionSchema } from './sections.ts'
import { ALLOWED_KEYS_PREFIX, type IssueParams } from './sections/fields.ts'

export { errorCodeFor }
export { collectReferences, documentReferences, isCommerceKey, isUnsafeKey } from './key-rules.ts'
export type { IssueCode, KnownReferences, ValidationIssue }

type Failure = { ok: false; issues: ValidationIssue[] }

// --- zod issues ------------------------------------------------------------

function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let current = root
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[segment]
  }
  return current
}

function toSegments(path: readonly PropertyKey[]): PathSegment[] {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)))
}

function fromZod(
  error: z.ZodError,
  prefix: string,
  root: unknown,
  flaggedPaths: ReadonlySet<string>,
): ValidationIssue[] {
  const out: ValidationIssue[] = []
  for (const raw of error.issues) {
    const segments = toSegments(raw.path)
    const path = joinPath(prefix, segments)
    switch (raw.code) {
      case 'custom': {
        const params = (raw.params ?? {}) as Partial<IssueParams>
        out.push(issue(path, params.code ?? 'VALIDATION_FAILED', raw.message, params.hint))
        break
      }
      case 'unrecognized_keys': {
        const listsAllowed = raw.message.startsWith(ALLOWED_KEYS_PREFIX)
        for (const key of raw.keys) {
          const keyPath = joinPath(path, [key])
          if (flaggedPaths.has(keyPath)) continue // reported with a more specific code
          out.push(
            listsAllowed
              ? issue(keyPath, 'VALIDATION_FAILED', `Unknown key '${key}'`, raw.message)
              : issue(keyPath, 'VALIDATION_FAILED', raw.message),
          )
        }
        break
      }
      case 'invalid_union': {
        if ('note' in raw && raw.note === 'No matching discriminator') {
          const value = valueAt(root, raw.path)
          out.push(
            issue(
              path,
              'VALIDATION_FAILED',
              value === undefined ? 'Section type is missing' : `Unknown section type ${JSON.stringify(value)}`,
              `Section types: ${SECTION_TYPES.join(', ')}. ${SCHEMA_HINT}`,
            ),
          )
        } else out.push(issue(path, 'VALIDATION_FAILED', raw.message))
        break
      }
      case 'invalid_type': {
        const missing = valueAt(root, raw.path) === undefined
        out.push(issue(path, 'VALIDATION_FAILED', missing ? `Required ${raw.expected} is missing` : raw.message))
        break
      }
      case 'too_big': {
        const limit: IssueCode = raw.origin === 'array' || raw.origin === 'set' ? 'LIMIT_EXCEEDED' : 'VALIDATION_FAILED'
        out.push(issue(path, limit, raw.message))
        break
      }
      default:
        out.push(issue(path, 'VALIDATION_FAILED', raw.message))
    }
  }
  return out
}

/** Whole-document rules: size, counts, unique section ids across the theme, unique page ids and slugs, required template sections, placements. */
export function documentIssues(doc: ThemeDocument): ValidationIssue[] {
  return dedupeIssues(wholeDocumentRules(doc, jsonBytes(doc)))
}

// --- public validators -------------------------------------------------------

type Parsed<T> = { success: true; data: T } | { success: false; error: z.ZodError }

function finish<T>(parsed: Parsed<T>, issues: ValidationIssue[]): { ok: true; value: T } | Failure {
  const unique = dedupeIssues(issues)
  if (unique.length > 0) return { ok: false, issues: unique }
  if (!parsed.success) return { ok: false, issues: fromZod(parsed.error, '', undefined, new Set()) }
  return { ok: true, value: parsed.data }
}

function collect<T>(
  value: unknown,
  prefix: string,
  parsed: Parsed<T>,
  known: KnownReferences | null,
  extra: ValidationIssue[] = [],
) {
  const scan = scanKeys(value, prefix, known)
  const zodIssues = parsed.success ? [] : fromZod(parsed.error, prefix, value, scan.flaggedPaths)
  return finish(parsed, [...zodIssues, ...scan.issues, ...scan.references, ...extra])
}

// Bigger than this, the document is refused on size alone: validating it
// deeply would only spend time on something that can never be accepted.
const DEEP_VALIDATION_BYTES = LIMITS.documentBytes * 4

export function validateThemeDocument(
  doc: unknown,
  known: KnownReferences,
): { ok: true; document: ThemeDocument } | Failure {
  if (!isPlainObject(doc))
    return { ok: false, issues: [issue('', 'VALIDATION_FAILED', 'The theme document must be a JSON object')] }
  // Checked before serializing: absurd nesting would overflow JSON.stringify's stack.
  const tooDeep = walk(doc, () => undefined)
  if (tooDeep !== null) return { ok: false, issues: [nestingIssue(joinPath('', tooDeep))] }
  const bytes = jsonBytes(doc)
  if (bytes === null)
    return {
      ok: false,
      issues: [
        issue(
          '',
          'VALIDATION_FAILED',
          'The theme document is not JSON data (it is cyclic or holds values JSON cannot represent)',
        ),
      ],
    }
  if (bytes > DEEP_VALIDATION_BYTES) return { ok: false, issues: [sizeIssue(bytes)] }
  const result = collect(doc, '', themeDocumentSchema.safeParse(doc), known, wholeDocumentRules(doc, bytes))
  return result.ok ? { ok: true, document: result.value } : result
}

export function validateSection(
  section: unknown,
  where: { path: string; template: TemplateName | 'page' },
  known: KnownReferences,
): { ok: true; section: Section } | Failure {
  const placement: Placement = PLACEMENTS.includes(where.template) ? where.template : 'page'
  const result = collect(
    section,
    where.path,
    sectionSchema.safeParse(section),
    known,
    sectionRules(section, where.path, placement),
  )
  return result.ok ? { ok: true, section: result.value } : result
}

export function validatePage(page: unknown, path: string, known: KnownReferences): { ok: true; page: Page } | Failure {
  const layout = isPlainObject(page) ? page.layout : undefined
  const rules = layoutRules(layout, joinPath(path, ['layout']), 'page', new Map())
  const result = collect(page, path, pageSchema.safeParse(page), known, rules)
  return result.ok ? { ok: true, page: result.value } : result
}

export function validateTokens(tokens: unknown, path: string): { ok: true; tokens: ThemeTokens } | Failure {
  const result = collect(tokens, path, themeTokensSchema.safeParse(tokens), null)
  return result.ok ? { ok: true, tokens: result.value } : result
}

export function validateNavigation(nav: unknown, path: string): { ok: true; navigation: NavigationEntry[] } | Failure {
  const result = collect(nav, path, navigationSchema.safeParse(nav), null)
  return result.ok ? { ok: true, navigation: result.value } : result
}
