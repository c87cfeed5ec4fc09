import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { joinPath } from '../theme/issues.ts'

// Every code the API can answer with, and its status. One table for REST; MCP reuses the codes.
export const STATUS_OF: Record<string, number> = {
  VALIDATION_FAILED: 400,
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
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  THEME_NOT_EDITABLE: 409,
  THEME_IS_ACTIVE: 409,
  VERSION_CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
}

export type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown>; requestId: string } }

export function errorBody(request: FastifyRequest, code: string, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: { code, message, ...(details ? { details } : {}), requestId: request.id } }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, code: string, message: string, details?: Record<string, unknown>) {
  return reply.code(STATUS_OF[code] ?? 500).type('application/json; charset=utf-8').send(errorBody(request, code, message, details))
}

export type Issue = { path: string; code: string; message: string }

// zod issues as the contract's details.issues. Too many items in a list is a limit, not a typo.
export function zodIssues(error: z.ZodError, prefix = ''): Issue[] {
  return error.issues.map((i) => ({
    path: joinPath(prefix, i.path as (string | number)[]),
    code: i.code === 'too_big' && i.origin === 'array' ? 'LIMIT_EXCEEDED' : 'VALIDATION_FAILED',
    message: i.message,
  }))
}

export function validationError(issues: Issue[]): { code: string; message: string; details: { issues: Issue[] } } {
  const code = issues.length > 0 && issues.every((i) => i.code === 'LIMIT_EXCEEDED') ? 'LIMIT_EXCEEDED' : 'VALIDATION_FAILED'
  const first = issues[0]
  const message = issues.length === 1 && first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : `${issues.length} problems found; see details.issues`
  return { code, message, details: { issues } }
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', '53300'])

// Errors that escape a handler: framework errors get their contract code; anything else is a
// 500 (or 503 when a dependency is down) with a generic message, never a stack or SQL text.
export function classifyError(error: FastifyError & { code?: string }): { code: string; message: string; log: boolean } {
  switch (error.code) {
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
  if (error.code === '22021' || error.code === '22P05') return { code: 'VALIDATION_FAILED', message: 'the request contains text that cannot be stored (NUL or malformed Unicode)', log: true }
  if (error instanceof SyntaxError) return { code: 'VALIDATION_FAILED', message: 'the request body is not valid JSON', log: false }
  if (error.statusCode === 429) return { code: 'RATE_LIMITED', message: error.message || 'too many requests', log: false }
  if (error.statusCode === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large', log: false }
  if (error.statusCode === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type', log: false }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return { code: 'VALIDATION_FAILED', message: 'the request is malformed', log: false }
  if (error.code && UNAVAILABLE_CODES.has(error.code)) return { code: 'UNAVAILABLE', message: 'a dependency is unavailable; retry shortly', log: true }
  return { code: 'INTERNAL', message: 'internal error; quote the requestId when reporting it', log: true }
}
