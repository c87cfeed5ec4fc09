// The one error vocabulary of the service. Every refusal any layer produces has one of these
// codes; adapters map a code to their own form (an HTTP status in src/web/errors.ts, a tool result
// on MCP). This file imports nothing, so every layer can depend on it.

export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_REQUEST',
  'UNSAFE_CONTENT',
  'COMMERCE_DATA_FORBIDDEN',
  'INVALID_PRODUCT_REFERENCE',
  'INVALID_COLLECTION_REFERENCE',
  'LIMIT_EXCEEDED',
  'INVALID_CURSOR',
  'INVALID_IDEMPOTENCY_KEY',
  'UNSUPPORTED_PROTOCOL_VERSION',
  'UNSUPPORTED_GRANT_TYPE',
  'UNAUTHENTICATED',
  'INSUFFICIENT_SCOPE',
  'FORBIDDEN_ORIGIN',
  'CSRF_TOKEN_INVALID',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'THEME_NOT_EDITABLE',
  'THEME_IS_ACTIVE',
  'VERSION_CONFLICT',
  'UNDO_CONFLICT',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

// A refusal, as every layer hands it up: the envelope's error without the request id.
export type AppError<C extends ErrorCode = ErrorCode> = {
  code: C
  message: string
  details?: Record<string, unknown> | undefined
}

// One problem of an input, as listed in details.issues. Batch issues also use NOT_FOUND and
// CONFLICT (a duplicate id or slug), which are issue codes only.
export type Issue = { path: string; code: ErrorCode | 'CONFLICT'; message: string; hint?: string }

export type ErrorEnvelope = {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown>; requestId: string }
}

// The contract's envelope: { error: { code, message, details?, requestId } }.
export function errorEnvelope(error: AppError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      requestId,
    },
  }
}

export const notFoundError = (what: string): AppError<'NOT_FOUND'> => ({
  code: 'NOT_FOUND',
  message: `${what} not found`,
})

export type PathSegment = string | number

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

// A zod error as the contract's details.issues (structurally typed, so this file needs no zod).
// Too many items in a list is a limit, not a typo.
type ZodLikeError = {
  issues: readonly { code: string; origin?: unknown; path: readonly PropertyKey[]; message: string }[]
}
export function zodIssues(error: ZodLikeError, prefix = ''): Issue[] {
  return error.issues.map((i) => ({
    path: joinPath(prefix, i.path as (string | number)[]),
    code: i.code === 'too_big' && i.origin === 'array' ? 'LIMIT_EXCEEDED' : 'VALIDATION_FAILED',
    message: i.message,
  }))
}

export function validationError(
  issues: Issue[],
): AppError<'VALIDATION_FAILED' | 'LIMIT_EXCEEDED'> & { details: { issues: Issue[] } } {
  const code =
    issues.length > 0 && issues.every((i) => i.code === 'LIMIT_EXCEEDED') ? 'LIMIT_EXCEEDED' : 'VALIDATION_FAILED'
  const first = issues[0]
  const message =
    issues.length === 1 && first
      ? `${first.path ? `${first.path}: ` : ''}${first.message}`
      : `${issues.length} problems found; see details.issues`
  return { code, message, details: { issues } }
}

// A body whose bytes are not well-formed UTF-8 (RFC 8259 §8.1): refused, never stored as U+FFFD.
export const invalidUtf8Body: AppError<'VALIDATION_FAILED'> = {
  code: 'VALIDATION_FAILED',
  message: 'the request body is not valid UTF-8 (a malformed byte sequence)',
  details: {
    issues: [
      { path: '', code: 'VALIDATION_FAILED', message: 'malformed UTF-8 byte sequence; send JSON encoded as UTF-8' },
    ],
  },
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  '53300',
])
// node-postgres reports a lost or unreachable server partly without a code: these messages mean
// "the database is not there right now" (503), not a bug.
const UNAVAILABLE_MESSAGES =
  /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)/

export type Thrown = { code?: string | undefined; statusCode?: number | undefined; message?: string | undefined }

// Errors that escape a handler: framework errors get their contract code; anything else is a
// 500 (or 503 when a dependency is down) with a generic message, never a stack or SQL text.
export function classifyError(error: Thrown): AppError & { log: boolean } {
  switch (error.code) {
    case 'INVALID_UTF8_BODY':
      return { ...invalidUtf8Body, log: false }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'VALIDATION_FAILED', message: 'the request body is not valid JSON', log: false }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large', log: false }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type; send application/json', log: false }
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return { code: 'VALIDATION_FAILED', message: 'the request is malformed', log: false }
  }
  // Text PostgreSQL cannot store; inputs are checked for it first, this is the safety net.
  if (error.code === '22021' || error.code === '22P05')
    return {
      code: 'VALIDATION_FAILED',
      message: 'the request contains text that cannot be stored (NUL or malformed Unicode)',
      log: true,
    }
  if (error instanceof SyntaxError)
    return { code: 'VALIDATION_FAILED', message: 'the request body is not valid JSON', log: false }
  if (error.statusCode === 429)
    return { code: 'RATE_LIMITED', message: error.message || 'too many requests', log: false }
  if (error.statusCode === 413)
    return { code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large', log: false }
  if (error.statusCode === 415)
    return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type', log: false }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return { code: 'VALIDATION_FAILED', message: 'the request is malformed', log: false }
  if (
    (error.code && UNAVAILABLE_CODES.has(error.code)) ||
    (typeof error.message === 'string' && UNAVAILABLE_MESSAGES.test(error.message))
  )
    return { code: 'UNAVAILABLE', message: 'a dependency is unavailable; retry shortly', log: true }
  return { code: 'INTERNAL', message: 'internal error; quote the requestId when reporting it', log: true }
}
