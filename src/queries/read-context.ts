import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { StoreScopedCache } from '../notifications/store-scoped-cache.ts'
import type { Page } from './pagination.ts'
import type { CatalogPart } from './context/store-context.ts'
import type { ContextJsonCache } from './context/context-json-cache.ts'
import type { ThemeJsonCache } from './themes/theme-json-cache.ts'

// What every read query needs: the database, the public base URL (site-relative URLs such
// as /media/<sha256>.png are made absolute with it) and the secret that signs cursors; the
// service's in-process read caches where it has them (tools and tests mostly read without).
export type ReadContext = {
  db: Kysely<Database>
  baseUrl: string
  cursorSecret: string
  caches?: ReadCaches
  // Set when `db` is a read replica (src/db/replicas.ts): the primary's context, for what a read
  // must write (a catalogue read model found behind) and read back.
  primary?: ReadContext
}

export type ReadCaches = {
  /** listProducts' pages, by store and arguments (product-cards.ts). */
  productPages?: StoreScopedCache<Page<string>> | undefined
  /** getContext's store profile and catalogue part, by store (store-context.ts). */
  catalogParts?: StoreScopedCache<CatalogPart> | undefined
  /** getContext's responses, by store and scopes, with the stamp they were made at (context-json-cache.ts). */
  contextJson?: ContextJsonCache | undefined
  /** getTheme's data as JSON text, by theme and stream version (theme-queries.ts). */
  themeJson?: ThemeJsonCache | undefined
  /**
   * Warm reads with no statement while the change feed is healthy: getTheme's text by theme
   * (dropped by `sfts_themes`), getContext's responses by store and scopes (dropped by the store's
   * and its themes' notifications), and the other catalogue reads by store (catalog-reads.ts).
   */
  warmThemes?: StoreScopedCache<{ version: number; json: string }> | undefined
  warmContexts?: StoreScopedCache<{ json: string; etag: string }> | undefined
  catalogReads?: StoreScopedCache<{ value: unknown }> | undefined
}

// '/media/x.png' -> 'https://shop.example/media/x.png'. Absolute http(s) URLs pass through;
// anything else (no leading slash) is treated as relative to the site root.
export function absoluteUrl(baseUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl
  const base = baseUrl.replace(/\/+$/, '')
  return `${base}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`
}
