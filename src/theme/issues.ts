import type { ErrorCode } from '../errors.ts'

// Issue vocabulary shared by every validator: the 400 codes of the service's error vocabulary.

export type IssueCode = Extract<
  ErrorCode,
  | 'VALIDATION_FAILED'
  | 'UNSAFE_CONTENT'
  | 'INVALID_PRODUCT_REFERENCE'
  | 'INVALID_COLLECTION_REFERENCE'
  | 'LIMIT_EXCEEDED'
  | 'COMMERCE_DATA_FORBIDDEN'
>

export type ValidationIssue = { path: string; code: IssueCode; message: string; hint?: string }

// Most specific first: the top-level code tells the agent what to fix first.
const PRECEDENCE: readonly IssueCode[] = [
  'UNSAFE_CONTENT',
  'COMMERCE_DATA_FORBIDDEN',
  'INVALID_PRODUCT_REFERENCE',
  'INVALID_COLLECTION_REFERENCE',
  'LIMIT_EXCEEDED',
  'VALIDATION_FAILED',
]

export function errorCodeFor(issues: readonly ValidationIssue[]): IssueCode {
  for (const code of PRECEDENCE) {
    if (issues.some((issue) => issue.code === code)) return code
  }
  return 'VALIDATION_FAILED'
}

export function issue(path: string, code: IssueCode, message: string, hint?: string): ValidationIssue {
  return hint === undefined ? { path, code, message } : { path, code, message, hint }
}

/** Drops exact repeats: overlapping rules (schema and whole-document limits) must not report the same thing twice. */
export function dedupeIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>()
  const out: ValidationIssue[] = []
  for (const item of issues) {
    const key = `${item.code}\u0000${item.path}\u0000${item.message}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(item)
  }
  return out
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
