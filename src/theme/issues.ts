// Issue vocabulary shared by every validator. Codes double as the API error
// codes (contract: 400 VALIDATION_FAILED, UNSAFE_CONTENT, ...).

export type IssueCode =
  | 'VALIDATION_FAILED'
  | 'UNSAFE_CONTENT'
  | 'INVALID_PRODUCT_REFERENCE'
  | 'INVALID_COLLECTION_REFERENCE'
  | 'LIMIT_EXCEEDED'
  | 'COMMERCE_DATA_FORBIDDEN'

export type ValidationIssue = { path: string; code: IssueCode; message: string; hint?: string }

export type PathSegment = string | number

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

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** Appends segments to a path string: `a.b[0].c`; odd keys are quoted so paths stay unambiguous. */
export function joinPath(prefix: string, segments: readonly PathSegment[]): string {
  let path = prefix
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`
    else if (IDENTIFIER.test(segment)) path += path === '' ? segment : `.${segment}`
    else path += `[${JSON.stringify(segment)}]`
  }
  return path
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
