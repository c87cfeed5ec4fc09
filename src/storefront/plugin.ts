import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Services } from '../services.ts'
import { errorPage } from '../render/service-pages.ts'
import {
  framableByAnyOrigin,
  createStorefront,
  contentSecurityPolicy,
  type StorefrontOptions,
  type StorefrontResponse,
} from '../render/storefront.ts'
import { STOREFRONT_SECURITY, withSecurityHeaders } from '../web/security-headers.ts'
import { STYLESHEET, STYLESHEET_PATH } from '../render/styles.ts'
import { FAVICON_PATH, FAVICON_SVG } from '../web/favicon.ts'
import { preferredEncoding, textAsset, type TextAsset } from './assets.ts'

// Storefront and preview pages (issue 5), at the root, outside the rate-limited /api context.
//
// Addresses (the same ones `npm start` prints):
//   {base_url}/s/{slug}                     the store's live theme (its active theme, or the
//                                           plain default theme when none is active)
//   {base_url}/s/{slug}/products            all products           /products/{handle}     a product
//   {base_url}/s/{slug}/collections         all collections        /collections/{handle}  a collection
//                                           (/products/{id}, /collections/{id}: 301 to the handle address)
//   {base_url}/robots.txt, /sitemap.xml     for crawlers: robots.txt and the index of the stores' sitemaps
//   {base_url}/s/{slug}/sitemap.xml         a store's sitemap
//   {base_url}/s/{slug}/pages/{slug}        a published custom page
//   {base_url}/s/{slug}/blog/sample         the blog post template, with a sample post
//   {base_url}/s/{slug}/checkout?variant=…  the service's checkout summary (not themed)
//   POST {base_url}/s/{slug}/newsletter     the newsletter form's target: says sign-ups are not
//                                           collected yet (there is no subscriber list); stores nothing
//   {base_url}/preview/{token}[/path][?query]  the same pages for the token's theme (its current
//                                           version); draft custom pages too; the token is checked on
//                                           every request. A signed-in merchant previews without a
//                                           token at /dashboard/themes/{id}/preview (src/dashboard),
//                                           through the same storefront (services.storefront()).
// Query parameters: variant (product, checkout), quantity (checkout), page, sort, available,
// min, max (listings). Security headers are helmet's (src/web/security-headers.ts), on these routes
// only; the Content-Security-Policy is set per page.
export function createStorefrontPlugin(options: StorefrontOptions = {}) {
  return async function storefrontPlugin(app: FastifyInstance, services: Services): Promise<void> {
    const storefront =
      Object.keys(options).length === 0 ? await services.storefront() : createStorefront(services, options)
    app.addHook('onClose', async () => storefront.close())
    await app.register(async (site) => {
      // The newsletter form posts urlencoded data; the body is not read (nothing is stored).
      site.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 4096 },
        (_request, _body, done) => done(null, {}),
      )

      site.setErrorHandler(async (error, request, reply) => {
        const status = (error as { statusCode?: number }).statusCode
        if (status !== undefined && status >= 400 && status < 500) return send(reply, errorResponse(status))
        request.log.error({ err: error, requestId: request.id }, 'storefront page failed')
        return send(reply, errorResponse(500))
      })

      const asset = (path: string, body: TextAsset, headers: Record<string, string>) =>
        site.get(path, async (request, reply) => {
          const encoding = preferredEncoding(request.headers['accept-encoding'])
          const { bodies } = body
          reply.headers(secured(headers)).header('vary', 'accept-encoding')
          if (encoding !== 'identity' && bodies[encoding] !== bodies.identity)
            reply.header('content-encoding', encoding)
          return reply.send(bodies[encoding])
        })
      asset(STYLESHEET_PATH, stylesheet, STYLESHEET_HEADERS)
      asset(FAVICON_PATH, favicon, FAVICON_HEADERS)

      const live = async (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) => {
        const { subpath, search } = split(request.url, 3)
        const inm = request.headers['if-none-match']
        return send(
          reply,
          await storefront.live(request.params.slug, subpath, search, typeof inm === 'string' ? inm : undefined),
        )
      }
      const preview = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
        const { subpath, search } = split(request.url, 3)
        return send(
          reply,
          framableByAnyOrigin(await storefront.preview(request.params.token, subpath, search)),
          framable,
        )
      }
      // Crawlers (issue 35 B 6): robots.txt where they look for it, a sitemap index, one sitemap per store.
      site.get('/robots.txt', async (_request, reply) =>
        reply.headers(secured(TEXT_HEADERS)).send(await storefront.robots()),
      )
      site.get<{ Querystring: { page?: string } }>('/sitemap.xml', async (request, reply) => {
        const page = /^[1-9]\d{0,5}$/.test(request.query.page ?? '1') ? Number(request.query.page ?? '1') : 0
        const xml = page === 0 ? null : await storefront.sitemapIndex(page)
        if (xml === null) return reply.code(404).headers(secured(NOT_FOUND_HEADERS)).send('No such sitemap page.\n')
        return reply.headers(secured(XML_HEADERS)).send(xml)
      })
      site.get<{ Params: { slug: string } }>('/s/:slug/sitemap.xml', async (request, reply) => {
        const xml = await storefront.sitemap(request.params.slug)
        if (xml === null) return reply.code(404).headers(secured(NOT_FOUND_HEADERS)).send('No store at this address.\n')
        return reply.headers(secured(XML_HEADERS)).send(xml)
      })
      site.get('/s/:slug', live)
      site.get('/s/:slug/*', live)
      site.get('/preview/:token', preview)
      site.get('/preview/:token/*', preview)
      site.post('/s/:slug/newsletter', async (request: FastifyRequest<{ Params: { slug: string } }>, reply) =>
        send(reply, await storefront.newsletter({ slug: request.params.slug })),
      )
      site.post('/preview/:token/newsletter', async (request: FastifyRequest<{ Params: { token: string } }>, reply) =>
        send(reply, await storefront.newsletter({ token: request.params.token })),
      )
    })
  }
}

/** The storefront plugin with the default cache settings (registered by src/plugins.ts). */
export const storefrontPlugin = createStorefrontPlugin()

/** '/s/atlas/products/x?variant=y' -> subpath '/products/x', search 'variant=y' (after `skip` path segments). */
function split(url: string, skip: number): { subpath: string; search: string } {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const search = q === -1 ? '' : url.slice(q + 1)
  const parts = path.split('/')
  return { subpath: `/${parts.slice(skip).join('/')}`, search }
}

// gzip listed and not refused with q=0.
const ACCEPTS_GZIP = /(?:^|,)\s*gzip\s*(?:,|$|;\s*q=(?!0(?:\.0{0,3})?\s*(?:,|$)))/i

// helmet's headers on every response of these routes; the Content-Security-Policy is each page's own.
const secured = withSecurityHeaders(STOREFRONT_SECURITY)
// Token previews: the same without X-Frame-Options, which would still refuse other origins'
// frames (render/storefront.ts: framableByAnyOrigin).
const framable = withSecurityHeaders({ ...STOREFRONT_SECURITY, xFrameOptions: false })
const stylesheet = textAsset(STYLESHEET, 'text/css; charset=utf-8')
const favicon = textAsset(FAVICON_SVG, 'image/svg+xml')
// Public, immutable assets any page may load: a token preview framed inside a chat host's
// sandbox (an opaque origin) loads them too (docs/decisions/0170-token-previews-framable.md).
const ANY_ORIGIN = { 'cross-origin-resource-policy': 'cross-origin' }
const STYLESHEET_HEADERS = {
  'content-type': 'text/css; charset=utf-8',
  'cache-control': 'public, max-age=31536000, immutable',
  ...ANY_ORIGIN,
}
// Crawlers read these often: shared caches may keep them for an hour.
const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' }
const XML_HEADERS = { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' }
const NOT_FOUND_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }
const FAVICON_HEADERS = {
  'content-type': 'image/svg+xml',
  'cache-control': 'public, max-age=31536000, immutable',
  'content-security-policy': "default-src 'none'",
  ...ANY_ORIGIN,
}

// Clients send the same Accept-Encoding on every request: the last answer is kept.
let lastAccept = ''
let lastAcceptsGzip = false
function acceptsGzip(accept: string | undefined): boolean {
  if (accept === undefined) return false
  if (accept !== lastAccept) {
    lastAccept = accept
    lastAcceptsGzip = ACCEPTS_GZIP.test(accept)
  }
  return lastAcceptsGzip
}

function send(reply: FastifyReply, response: StorefrontResponse, headersOf = secured) {
  const gzip = response.gzipHeaders !== undefined && acceptsGzip(reply.request.headers['accept-encoding'])
  reply.code(response.status).headers(headersOf(gzip ? response.gzipHeaders! : response.headers))
  if (response.status === 304) return reply.send()
  return reply.send(gzip && response.gzip !== undefined ? response.gzip : response.html)
}

/** A service error page (404, 500 ...): not themed, not cached. */
function errorResponse(status: number): StorefrontResponse {
  const page = errorPage(status)
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy(page.styleHash),
    'cache-control': 'no-store',
  }
  return { status, html: page.html, headers, missingRefs: [], cache: 'none' }
}
