// robots.txt and the sitemaps (issue 35 B 6), as text. /robots.txt keeps crawlers out of previews,
// carts, checkouts and the service's own pages and points at /sitemap.xml, an index of one
// sitemap per store, so robots.txt stays a few lines at 10,000 stores. A store's sitemap lists
// its home page, listings, products, collections and the live theme's published pages.

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!)

/** Paths crawlers are asked to leave alone: previews, carts and checkouts, forms, the service's own pages. */
export const DISALLOWED_PATHS = [
  '/preview/',
  '/s/*/cart',
  '/s/*/checkout',
  '/s/*/newsletter',
  '/dashboard/',
  '/api/',
  '/oauth/',
] as const

/** robots.txt: what crawlers may read, and where the sitemap index is (one line per 50,000 stores). */
export function robotsTxt(baseUrl: string, indexPages: number): string {
  const sitemaps = Array.from({ length: Math.max(1, indexPages) }, (_, i) =>
    i === 0 ? `Sitemap: ${baseUrl}/sitemap.xml` : `Sitemap: ${baseUrl}/sitemap.xml?page=${i + 1}`,
  )
  return `User-agent: *\n${DISALLOWED_PATHS.map((p) => `Disallow: ${p}`).join('\n')}\nAllow: /\n\n${sitemaps.join('\n')}\n`
}

/** The sitemap index: one sitemap per store. */
export function sitemapIndexXml(baseUrl: string, slugs: readonly string[]): string {
  const entries = slugs.map(
    (slug) => `<sitemap><loc>${escapeXml(`${baseUrl}/s/${encodeURIComponent(slug)}/sitemap.xml`)}</loc></sitemap>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`
}

export type SitemapUrl = { loc: string; lastmod?: Date | undefined }

/** A store's sitemap (at most 50,000 addresses, the caller's page). */
export function sitemapXml(urls: readonly SitemapUrl[]): string {
  const entries = urls.map(
    (u) =>
      `<url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : ''}</url>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`
}
