import type { FastifyRequest } from 'fastify'
import { validationError, type AppError } from '../errors.ts'

// If-Match on a theme change, for every HTTP adapter that takes one (REST, the editor): "3" or
// W/"3" becomes expectedVersion; absent or * expects nothing. A header that is no ETag, or one
// that disagrees with an expectedVersion in the body, is refused before anything runs.

function parseIfMatch(header: string | undefined): { ok: true; version: number | undefined } | { ok: false } {
  if (header === undefined || header.trim() === '*') return { ok: true, version: undefined }
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header)
  return match ? { ok: true, version: Number(match[1]) } : { ok: false }
}

export function ifMatchError(request: FastifyRequest, input: Record<string, unknown>): AppError | null {
  const ifMatch = parseIfMatch(request.headers['if-match'])
  if (!ifMatch.ok)
    return {
      code: 'VALIDATION_FAILED',
      message: 'If-Match must be an ETag returned by getTheme, like "3"',
      details: { issues: [{ path: 'If-Match', code: 'VALIDATION_FAILED', message: 'not an ETag' }] },
    }
  if (ifMatch.version === undefined) return null
  if (input.expectedVersion !== undefined && input.expectedVersion !== ifMatch.version) {
    return {
      code: 'VALIDATION_FAILED',
      message: 'If-Match and expectedVersion disagree',
      details: validationError([
        { path: 'expectedVersion', code: 'VALIDATION_FAILED', message: 'differs from If-Match' },
      ]).details,
    }
  }
  input.expectedVersion = ifMatch.version
  return null
}
