import type { AppError, ErrorCode } from '../errors.ts'
import type { ValidationIssue } from '../theme/validate.ts'
import { errorCodeFor } from '../theme/validate.ts'

// What a decision returns: its events, or a refusal. Refusals are a narrowing of the service's
// error vocabulary (src/errors.ts); adapters map `code` to a status, the domain never knows
// about HTTP or JSON-RPC.
export type DomainErrorCode = Extract<
  ErrorCode,
  | 'VALIDATION_FAILED'
  | 'UNSAFE_CONTENT'
  | 'COMMERCE_DATA_FORBIDDEN'
  | 'INVALID_PRODUCT_REFERENCE'
  | 'INVALID_COLLECTION_REFERENCE'
  | 'LIMIT_EXCEEDED'
  | 'NOT_FOUND'
  | 'THEME_NOT_EDITABLE'
  | 'THEME_IS_ACTIVE'
  | 'VERSION_CONFLICT'
  | 'UNDO_CONFLICT'
  // Too many wrong passwords (a merchant's password change, under the sign-in throttle).
  | 'RATE_LIMITED'
>

export type BatchIssue = ValidationIssue | (Omit<ValidationIssue, 'code'> & { code: 'NOT_FOUND' | 'CONFLICT' })
export type LocatedIssue = BatchIssue & { operationIndex?: number }

export type DomainError = AppError<DomainErrorCode>

export type Result<T> = { ok: true; value: T } | { ok: false; error: DomainError }
export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = (
  code: DomainErrorCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: DomainError } => ({
  ok: false,
  error: details ? { code, message, details } : { code, message },
})

const hints: Partial<Record<DomainErrorCode, string>> = {
  INVALID_PRODUCT_REFERENCE:
    'Call listProducts (GET /api/v1/products) or the get_products MCP tool and use a real product id; never invent ids.',
  INVALID_COLLECTION_REFERENCE:
    'Call listCollections (GET /api/v1/collections) or the get_collections MCP tool and use a real collection id; never invent ids.',
}

// Every problem found goes into details.issues; the top-level code is the most specific one.
export function invalid(issues: LocatedIssue[]): { ok: false; error: DomainError } {
  const validation = issues.filter(
    (i): i is ValidationIssue & { operationIndex?: number } => i.code !== 'NOT_FOUND' && i.code !== 'CONFLICT',
  )
  const code: DomainErrorCode = validation.length > 0 ? errorCodeFor(validation) : 'VALIDATION_FAILED'
  const first = issues[0]
  const message =
    issues.length === 1 && first
      ? `${first.path ? `${first.path}: ` : ''}${first.message}`
      : `${issues.length} problems found; see details.issues`
  const hint = hints[code]
  return fail(code, message, { issues, ...(hint ? { hint } : {}) })
}
