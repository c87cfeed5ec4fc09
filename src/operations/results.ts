import { createHash } from 'node:crypto'
import { notFoundError, type ErrorCode } from '../errors.ts'
import type { Result } from '../aggregates/result.ts'
import type { Outcome, Pagination } from './operation.ts'

export const notFound = (what: string): Outcome<never> => ({ ok: false, error: notFoundError(what) })

// A refusal of the input itself, in the same shape as a zod validation failure.
export const invalidInput = (path: string, message: string, code: ErrorCode = 'VALIDATION_FAILED'): Outcome<never> => ({
  ok: false,
  error: { code, message: path ? `${path}: ${message}` : message, details: { issues: [{ path, code, message }] } },
})

export function fromResult<T, O>(
  result: Result<T>,
  map: (value: T) => O,
  extra: { status?: 200 | 201; etag?: (value: T) => string } = {},
): Outcome<O> {
  if (!result.ok) return result
  return {
    ok: true,
    data: map(result.value),
    ...(extra.status ? { status: extra.status } : {}),
    ...(extra.etag ? { etag: extra.etag(result.value) } : {}),
  }
}

export const themeEtag = (version: number) => `"${version}"`

// A weak validator for data with no version of its own (getContext: store profile, themes,
// catalogue and the caller's scopes all shape it): a digest of its JSON text.
export const contentEtag = (json: string): string =>
  `W/"${createHash('sha1').update(json).digest('base64url').slice(0, 22)}"`

// A success whose data the read returned as JSON text: `json` for adapters that send it on, `data`
// (parsed once, on first use) for those that need the object, as MCP's structuredContent.
export function jsonOutcome<T>(json: string, extra: { pagination?: Pagination; etag?: string } = {}): Outcome<T> {
  let parsed: T | undefined
  return {
    ok: true,
    json,
    get data(): T {
      if (parsed === undefined) parsed = JSON.parse(json) as T
      return parsed
    },
    ...extra,
  }
}
