import { createHash } from 'node:crypto'

// Revalidation of GET responses that carry an ETag (RFC 9110 §13.1.2): If-None-Match with the
// current tag (weak comparison, a list, or "*") is answered 304 with no body.
export function notModified(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const current = opaque(etag)
  return header.split(',').some((tag) => opaque(tag) === current)
}

// A weak validator for a body with no version of its own (getContext: store profile, themes,
// catalogue and the caller's scopes all shape it): a digest of the bytes sent.
export const contentEtag = (body: string): string => `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`
