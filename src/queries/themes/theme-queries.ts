import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import { compiledOnce, executeCompiled } from '../../db/prepared.ts'
import type { Theme } from '../../aggregates/theme/state.ts'
import { findSection } from '../../aggregates/theme/state.ts'
import {
  rowToTheme,
  rowToThemeHeader,
  THEME_HEADER_COLUMNS,
  type ThemeHeader,
} from '../../projections/themes-projection.ts'
import type { SectionTarget } from '../../aggregates/theme/events.ts'
import type { Page, Section } from '../../theme/document.ts'
import { readCache } from '../../metrics/registry.ts'
import type { ReadContext } from '../read-context.ts'
import type { ThemeSummary, ThemeView } from './schemas.ts'

// A theme without its document, as listThemes returns it.
export type { ThemeHeader }

export function themeSummary(theme: ThemeHeader, baseUrl: string): ThemeSummary {
  return {
    id: theme.themeId,
    name: theme.name,
    provider: theme.provider,
    status: theme.status,
    version: theme.version,
    createdAt: theme.createdAt,
    updatedAt: theme.updatedAt,
    publishedAt: theme.publishedAt,
    archivedAt: theme.archivedAt,
    duplicatedFrom: theme.duplicatedFrom,
    lastPreviewAt: theme.lastPreviewAt,
    lastPreviewedVersion: theme.lastPreviewedVersion,
    editorUrl: `${baseUrl}/dashboard/themes/editor?themeId=${encodeURIComponent(theme.themeId)}`,
  }
}

export const themeView = (theme: Theme, baseUrl: string): ThemeView => ({
  ...themeSummary(theme, baseUrl),
  document: theme.document,
})

// Oldest first (created_at, id): a stable order; a store has at most 20 themes that are not archived.
// Summaries only: the documents are not read.
export async function listThemes(
  ctx: ReadContext,
  storeId: string,
  opts: { includeArchived?: boolean } = {},
): Promise<ThemeHeader[]> {
  let q = ctx.db.selectFrom('themes').select(THEME_HEADER_COLUMNS).where('store_id', '=', storeId)
  if (!opts.includeArchived) q = q.where('status', '!=', 'archived')
  const rows = await q.orderBy('created_at').orderBy('theme_id').execute()
  return rows.map(rowToThemeHeader)
}

// getTheme's data as JSON text: the header from columns, the document as PostgreSQL's own text of
// it, spliced in without a parse and a re-serialisation. Same fields, same order as themeView. With
// the service's cache (theme-json-cache.ts) the columns come only when the stream moved since the
// version held (`known`; -1: none); otherwise they are null and the held text is the answer.
const unlessKnown = (known: number, column: string) =>
  sql`case when stream_version = ${known}::integer then null else ${sql.ref(column)} end`.as(column)

const themeJsonQuery = compiledOnce((db: Kysely<Database>, v: { themeId: string; storeId: string; known: number }) =>
  db
    .selectFrom('themes')
    .select(['stream_version', 'version'])
    .select(THEME_HEADER_COLUMNS.filter((c) => c !== 'version').map((c) => unlessKnown(v.known, c)))
    .select(
      sql<string | null>`case when stream_version = ${v.known}::integer then null else document::text end`.as(
        'document_text',
      ),
    )
    .where('theme_id', '=', v.themeId)
    .where('store_id', '=', v.storeId),
)

// Warm: from memory with no statement while the change feed is healthy; a write of the theme's
// row notifies every instance (`sfts_themes`), and the instance that took the write waits for its
// own notification before answering the command (services.ts), so its caller's next read is new.
export async function findThemeJson(
  ctx: ReadContext,
  storeId: string,
  themeId: string,
): Promise<{ version: number; json: string } | null> {
  const warm = ctx.caches?.warmThemes
  if (!warm) return readThemeJson(ctx, storeId, themeId)
  return warm.get(
    `${storeId}|${themeId}`,
    () => readThemeJson(ctx, storeId, themeId),
    () => themeId,
  )
}

async function readThemeJson(
  ctx: ReadContext,
  storeId: string,
  themeId: string,
): Promise<{ version: number; json: string } | null> {
  const cache = ctx.caches?.themeJson
  const known = cache ? cache.versionOf(storeId, themeId) : -1
  const [row] = await executeCompiled(ctx.db, themeJsonQuery(ctx.db, '', { themeId, storeId, known }))
  if (!row) return null
  if (row.document_text === null) {
    const held = cache?.at(storeId, themeId, row.stream_version)
    // Another read replaced the held version meanwhile (the stream moved again): read it whole.
    if (!held) return readThemeJson({ ...ctx, caches: {} }, storeId, themeId)
    readCache.inc({ cache: 'theme_json', result: 'hit' })
    return { version: held.version, json: held.json }
  }
  const header = rowToThemeHeader(row as unknown as Parameters<typeof rowToThemeHeader>[0])
  const json = `${JSON.stringify(themeSummary(header, ctx.baseUrl)).slice(0, -1)},"document":${row.document_text}}`
  if (cache) {
    cache.keep(themeId, { storeId, streamVersion: row.stream_version, version: header.version, json })
    readCache.inc({ cache: 'theme_json', result: 'miss' })
  }
  return { version: header.version, json }
}

export async function findTheme(ctx: ReadContext, storeId: string, themeId: string): Promise<Theme | null> {
  const row = await ctx.db
    .selectFrom('themes')
    .selectAll()
    .where('theme_id', '=', themeId)
    .where('store_id', '=', storeId)
    .executeTakeFirst()
  return row ? rowToTheme(row) : null
}

export type LocatedSection = { section: Section; location: SectionTarget; index: number }

export function sectionsOf(
  theme: Theme,
  filter: { template?: string | undefined; pageId?: string | undefined } = {},
): LocatedSection[] {
  const out: LocatedSection[] = []
  for (const [template, layout] of Object.entries(theme.document.templates) as [string, Section[]][]) {
    if (filter.pageId || (filter.template && filter.template !== template)) continue
    for (const [index, section] of layout.entries())
      out.push({ section, location: { template } as SectionTarget, index })
  }
  for (const page of theme.document.pages) {
    if (filter.template || (filter.pageId && filter.pageId !== page.id)) continue
    for (const [index, section] of page.layout.entries()) out.push({ section, location: { pageId: page.id }, index })
  }
  return out
}

export function locateSection(theme: Theme, sectionId: string): LocatedSection | null {
  const found = findSection(theme.document, sectionId)
  return found ? { section: found.section, location: found.target, index: found.index } : null
}

export const pageOf = (theme: Theme, pageId: string): Page | null =>
  theme.document.pages.find((p) => p.id === pageId) ?? null
