import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../../db/database.ts'
import { compiledOnce, executeCompiled } from '../../db/prepared.ts'
import type { ThemeHeader } from '../../projections/themes-projection.ts'
import {
  refreshCatalogReadModels,
  type CollectionSummary,
  type Position,
  type ProductSummary,
} from '../commerce/catalog-read-models.ts'
import { COLLECTIONS_RESOURCE } from '../commerce/collections.ts'
import { PRODUCTS_RESOURCE } from '../commerce/products.ts'
import type { Store } from '../commerce/schemas.ts'
import { STORE_COLUMNS, toStore } from '../commerce/store.ts'
import { encodeCursor } from '../pagination.ts'
import type { ReadContext } from '../read-context.ts'

// What getContext is made of, read in one statement: the store profile (live: the platform owns it
// and gives it no version), the themes' headers (the themes projection, one row per theme, so
// commands on different themes never share a row) and the first page of products and collections
// (store_context, copied at stores.catalog_version; refreshed first when the version moved).

export type StoreContext = {
  store: Store
  products: { items: ProductSummary[]; nextCursor: string | null }
  collections: { items: CollectionSummary[]; nextCursor: string | null }
  // Not archived, oldest first (created_at, id), as listThemes.
  themes: ThemeHeader[]
}

// What does not move with theme commands: kept in memory per store by the service's cache, which
// the change feed empties when the store row (profile, catalog_version) changes.
export type CatalogPart = Omit<StoreContext, 'themes'>

// Timestamps as the API writes them (rowToThemeHeader's iso(): UTC, milliseconds).
const iso = (column: string) =>
  sql.raw(
    `case when t.${column} is null then null else to_char(t.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end`,
  )

// Keys in ThemeHeader's order; json (not jsonb) keeps them so.
const themeHeaders = (storeId: string | RawBuilder<unknown>) => sql<ThemeHeader[]>`(
  select coalesce(json_agg(json_build_object(
    'themeId', t.theme_id, 'storeId', t.store_id, 'name', t.name, 'provider', t.provider, 'status', t.status, 'version', t.version,
    'duplicatedFrom', t.duplicated_from, 'createdAt', ${iso('created_at')}, 'updatedAt', ${iso('updated_at')},
    'publishedAt', ${iso('published_at')}, 'archivedAt', ${iso('archived_at')}, 'lastPreviewAt', ${iso('last_preview_at')},
    'lastPreviewedVersion', t.last_previewed_version) order by t.created_at, t.theme_id), '[]')
  from themes t where t.store_id = ${storeId} and t.status <> 'archived')`

// A stamp of the store's themes: the sum of their rows' stream versions, archived rows included.
// The themes projection rewrites a row only with a higher stream version of its stream (and never
// deletes one; a rebuild swaps in equal rows), so every change to any row raises the sum and a
// later snapshot has the same sum only if no row changed: the headers, a function of the rows, are
// then the same. Archived rows count, or archiving a theme would lower the sum and later commands
// could bring it back to a value already held. A sum of one column instead of a sorted string of
// every theme's id and version: PostgreSQL answers the stamp alone half again as fast (pgbench, 8
// clients, ten themes: 55,500 against 37,000-39,000 statements/s).
const stampOfThemes = sql<string>`coalesce(sum(t.stream_version), 0)::text`
const themesStamp = sql<string>`(select ${stampOfThemes} from themes t where t.store_id = s.store_id)`

const read = compiledOnce((db: Kysely<Database>, v: { storeId: string; baseUrl: string }) =>
  db
    .selectFrom('stores as s')
    .leftJoin('store_context as c', 'c.store_id', 's.store_id')
    .select(STORE_COLUMNS.map((c) => `s.${c}` as const))
    .select(themeHeaders(sql.ref('s.store_id')).as('themes'))
    .select(themesStamp.as('themes_stamp'))
    .select(['c.products', 'c.products_after', 'c.collections', 'c.collections_after'])
    .select(
      sql<boolean>`c.catalog_version is not distinct from s.catalog_version and c.base_url is not distinct from ${v.baseUrl}`.as(
        'current',
      ),
    )
    .where('s.store_id', '=', v.storeId),
)

// The themes' stamp, and their headers unless the stamp is the one the caller holds. The store is
// not read: this runs only while its profile and catalogue part is held, which the change feed
// drops when the store's row changes.
const readThemes = compiledOnce((db: Kysely<Database>, v: { storeId: string; held: string }) =>
  db
    .selectFrom((eb) =>
      eb.selectFrom('themes as t').select(stampOfThemes.as('stamp')).where('t.store_id', '=', v.storeId).as('st'),
    )
    .select('st.stamp')
    .select(
      sql<ThemeHeader[] | null>`case when st.stamp = ${v.held}::text then null else ${themeHeaders(v.storeId)} end`.as(
        'themes',
      ),
    ),
)

async function readRow(ctx: ReadContext, storeId: string) {
  return (await executeCompiled(ctx.db, read(ctx.db, '', { storeId, baseUrl: ctx.baseUrl })))[0]
}

// getContext's read: the context, and its stamp (null while the change feed is not trusted): what,
// besides the caller's scopes, the response is a function of (the store's cache generation, the
// themes at their stream versions). A caller holding a response made at `held` gets `context`
// null when the stamp is still `held`. One statement either way: the whole context, or (the store
// and catalogue part held in memory) the themes' stamp and headers.
export type ContextRead = { stamp: string | null; context: StoreContext | null }

export async function readStoreContext(ctx: ReadContext, storeId: string, held?: string): Promise<ContextRead | null> {
  const cache = ctx.caches?.catalogParts
  if (!cache) {
    const read = await readWhole(ctx, storeId)
    return read && { stamp: null, context: read.context }
  }
  const generation = `${cache.generation(storeId)}|`
  let whole = null as { context: StoreContext; themesStamp: string } | null
  const part = await cache.get(
    storeId,
    async () => {
      whole = await readWhole(ctx, storeId)
      if (!whole) return null
      const { themes: _, ...rest } = whole.context
      return rest
    },
    () => storeId,
  )
  const stamp = (themesStamp: string) => (cache.trusted() ? generation + themesStamp : null)
  if (whole) return { stamp: stamp(whole.themesStamp), context: whole.context }
  if (!part) return null
  const heldThemes = held?.startsWith(generation) ? held.slice(generation.length) : '!'
  // An aggregate without GROUP BY: always one row, even for a store without themes.
  const row = (await executeCompiled(ctx.db, readThemes(ctx.db, '', { storeId, held: heldThemes })))[0]!
  if (row.themes === null) return { stamp: held!, context: null }
  return { stamp: stamp(row.stamp), context: { ...part, themes: row.themes } }
}

async function readWhole(
  ctx: ReadContext,
  storeId: string,
): Promise<{ context: StoreContext; themesStamp: string } | null> {
  let row = await readRow(ctx, storeId)
  if (row && !row.current) {
    // Written on the primary and read back there (a replica may not have the refresh yet).
    const primary = ctx.primary ?? ctx
    await refreshCatalogReadModels(primary, storeId)
    row = await readRow(primary, storeId)
  }
  if (!row) return null
  const themes = row.themes
  const cursor = (resource: string, after: unknown) =>
    after ? encodeCursor(ctx.cursorSecret, { resource, storeId }, after as Position) : null
  const context: StoreContext = {
    store: toStore(ctx.baseUrl, row),
    // Mapped field by field: jsonb keeps its own key order, the contract's is this one.
    products: {
      items: ((row.products ?? []) as ProductSummary[]).map((p) => ({
        id: p.id,
        title: p.title,
        handle: p.handle,
        status: p.status,
        image: p.image,
        inStock: p.inStock,
      })),
      nextCursor: cursor(PRODUCTS_RESOURCE, row.products_after),
    },
    collections: {
      items: ((row.collections ?? []) as CollectionSummary[]).map((c) => ({
        id: c.id,
        title: c.title,
        handle: c.handle,
        productCount: c.productCount,
      })),
      nextCursor: cursor(COLLECTIONS_RESOURCE, row.collections_after),
    },
    themes,
  }
  return { context, themesStamp: row.themes_stamp }
}
