import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// What every read query needs: the database, the public base URL (site-relative URLs such
// as /media/<sha256>.png are made absolute with it) and the secret that signs cursors.
export type ReadContext = { db: Kysely<Database>; baseUrl: string; cursorSecret: string }

// '/media/x.png' -> 'https://shop.example/media/x.png'. Absolute http(s) URLs pass through;
// anything else (no leading slash) is treated as relative to the site root.
export function absoluteUrl(baseUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl
  const base = baseUrl.replace(/\/+$/, '')
  return `${base}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`
}
