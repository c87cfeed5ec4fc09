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
