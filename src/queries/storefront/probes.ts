import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'

// What the storefront checks before it serves a page from its cache (src/render/storefront.ts):
// the store, the versions of its catalog and menus, and the theme it shows with its version.
// One small statement each; a live probe is held in memory between change notifications.

export type StorefrontProbe = {
  storeId: string
  slug: string
  catalogVersion: number
  menusVersion: number
  themeId: string | null
  themeVersion: number | null
  themeStatus: string | null
  themeName: string | null
}

const menusVersion = sql<number>`coalesce((select max(n.stream_version) from navigation_menus n where n.store_id = s.store_id), 0)`
const PROBE_COLUMNS = [
  's.store_id',
  's.slug',
  's.catalog_version',
  't.theme_id',
  't.version',
  't.status',
  't.name',
  menusVersion.as('menus_version'),
] as const

type ProbeRow = {
  store_id: string
  slug: string
  catalog_version: number
  menus_version: number
  theme_id: string | null
  version: number | null
  status: string | null
  name: string | null
}

const toProbe = (row: ProbeRow): StorefrontProbe => ({
  storeId: row.store_id,
  slug: row.slug,
  catalogVersion: row.catalog_version,
  menusVersion: Number(row.menus_version),
  themeId: row.theme_id,
  themeVersion: row.version,
  themeStatus: row.status,
  themeName: row.name,
})

/** The store at this slug with its live theme, if it has one. */
export async function probeLiveStore(db: Kysely<Database>, slug: string): Promise<StorefrontProbe | null> {
  const row = await db
    .selectFrom('stores as s')
    .leftJoin('live_themes as lt', 'lt.store_id', 's.store_id')
    .leftJoin('themes as t', (join) =>
      join.onRef('t.theme_id', '=', 'lt.theme_id').onRef('t.store_id', '=', 's.store_id'),
    )
    .select(PROBE_COLUMNS)
    .where('s.slug', '=', slug)
    .executeTakeFirst()
  return row ? toProbe(row) : null
}

/** The store with one of its themes (any status), for previews. */
export async function probeStoreTheme(
  db: Kysely<Database>,
  storeId: string,
  themeId: string,
): Promise<StorefrontProbe | null> {
  const row = await db
    .selectFrom('stores as s')
    .innerJoin('themes as t', 't.store_id', 's.store_id')
    .select(PROBE_COLUMNS)
    .where('s.store_id', '=', storeId)
    .where('t.theme_id', '=', themeId)
    .executeTakeFirst()
  return row ? toProbe(row) : null
}

/** A theme's current document and version, in this store. */
export async function currentThemeDocument(
  db: Kysely<Database>,
  storeId: string,
  themeId: string,
): Promise<{ document: unknown; version: number } | undefined> {
  return db
    .selectFrom('themes')
    .select(['document', 'version'])
    .where('theme_id', '=', themeId)
    .where('store_id', '=', storeId)
    .executeTakeFirst()
}
