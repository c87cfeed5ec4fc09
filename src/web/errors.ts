import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorEnvelope, type AppError, type ErrorCode } from '../errors.ts'

// The HTTP half of the error vocabulary, shared by every HTTP adapter (REST, MCP, dashboard,
// OAuth): the status of every code. A total map, so a code added to
// src/errors.ts without a status here (or a misspelt one) does not compile.
export const STATUS_OF: { readonly [C in ErrorCode]: number } = {
  VALIDATION_FAILED: 400,
  MALFORMED_REQUEST: 400,
  UNSAFE_CONTENT: 400,
  COMMERCE_DATA_FORBIDDEN: 400,
  INVALID_PRODUCT_REFERENCE: 400,
  INVALID_COLLECTION_REFERENCE: 400,
  LIMIT_EXCEEDED: 400,
  INVALID_CURSOR: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  UNSUPPORTED_PROTOCOL_VERSION: 400,
  UNSUPPORTED_GRANT_TYPE: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN_ORIGIN: 403,
  CSRF_TOKEN_INVALID: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  THEME_NOT_EDITABLE: 409,
  THEME_IS_ACTIVE: 409,
  VERSION_CONFLICT: 409,
  UNDO_CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
) {
  return sendAppError(request, reply, { code, message, details })
}

export function sendAppError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  return reply
    .code(STATUS_OF[error.code])
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(error, request.id))
}
