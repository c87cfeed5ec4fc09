// helmet's security headers for a set of options, computed once. @fastify/helmet builds helmet's
// middleware anew on every request (two async hooks and fourteen middlewares that set raw headers);
// the headers do not depend on the request, so helmet decides them once here and each response
// gets the same frozen set (storefront pages are served at tens of thousands per second from memory).
import type { FastifyInstance } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

export type SecurityHeaders = Readonly<Record<string, string>>

// Never sent: X-XSS-Protection ("0" switches off the XSS filter of Internet Explorer and of older
// Chrome and Safari; no current browser has it) and X-Download-Options (Internet Explorer 8). No
// browser the service supports reads them; every answer would carry them for nothing (decision 0146).
const UNSENT = new Set(['x-xss-protection', 'x-download-options'])

/** Storefront answers (pages, forms, assets, errors): each page sets its own Content-Security-Policy. */
export const STOREFRONT_SECURITY = {
  contentSecurityPolicy: false,
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'no-referrer' },
} as const satisfies HelmetOptions

/** The headers helmet sets for `options`, by lower-case name. */
export function securityHeaders(options: Readonly<HelmetOptions>): SecurityHeaders {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number) {
      const key = name.toLowerCase()
      if (!UNSENT.has(key)) headers[key] = String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error
  })
  return Object.freeze(headers)
}

/** Every response of `context` (its routes, errors and 404s) carries helmet's headers for `options`. */
export function addSecurityHeaders(context: FastifyInstance, options: Readonly<HelmetOptions>): SecurityHeaders {
  const headers = securityHeaders(options)
  context.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
  return headers
}

/**
 * `headers` over helmet's set for `options`, merged once per headers object: a response served
 * from memory passes the same object every time, so its merged set is built once (a WeakMap, so
 * responses that are not kept take their merged set with them).
 */
export function withSecurityHeaders(options: Readonly<HelmetOptions>): (headers: object) => SecurityHeaders {
  const security = securityHeaders(options)
  const merged = new WeakMap<object, SecurityHeaders>()
  return (headers) => {
    let all = merged.get(headers)
    if (all === undefined) merged.set(headers, (all = Object.freeze({ ...security, ...headers })))
    return all
  }
}
