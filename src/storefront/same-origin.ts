import type { FastifyRequest } from 'fastify'

// The cart's forms carry no per-visitor token (they sit on publicly cached pages), so a post must
// come from a page of this site: a browser says so in Sec-Fetch-Site (sent by every current
// browser), else in Origin. Pages set `Referrer-Policy: no-referrer`, under which browsers send
// `Origin: null` with a form post: refused when it is all there is to go by. A client that sends
// neither header (a script, curl) carries no shopper's cookies to abuse.
export function fromAnotherSite(request: FastifyRequest, baseUrl: string): boolean {
  const site = request.headers['sec-fetch-site']
  if (typeof site === 'string') return site !== 'same-origin'
  const origin = request.headers.origin
  if (origin === undefined) return false
  if (origin === 'null') return true
  try {
    const from = new URL(origin)
    // The request's own origin, as a browser would spell it (a default port left out).
    const own = new URL(`${from.protocol}//${request.host}`)
    return from.host !== own.host && from.origin !== new URL(baseUrl).origin
  } catch {
    return true
  }
}
