import type { Kysely, QueryCreator, Selectable } from 'kysely'
import { THEME_EVENT_TYPES, type ThemeEvent, themeStream } from '../aggregates/theme/events.ts'
import type { Snapshot } from '../commands/context.ts'
import type { Database, ThemesTable } from '../db/database.ts'
import type { ThemeDocument } from '../theme/document.ts'
import { evolve, initialThemeState, type Theme, type ThemeState } from '../aggregates/theme/state.ts'
import { byStream, defineProjection, iso } from './projection.ts'

export type ThemeRow = Selectable<ThemesTable>

export type ThemeHeader = Omit<Theme, 'document'>
type HeaderRow = Omit<ThemeRow, 'document' | 'document_bytes' | 'stream_version'>

export function rowToThemeHeader(row: HeaderRow): ThemeHeader {
  return {
    themeId: row.theme_id,
    storeId: row.store_id,
    name: row.name,
    provider: row.provider,
    status: row.status,
    version: row.version,
    duplicatedFrom: row.duplicated_from,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    publishedAt: iso(row.published_at),
    archivedAt: iso(row.archived_at),
    lastPreviewAt: iso(row.last_preview_at),
    lastPreviewedVersion: row.last_previewed_version,
  }
}

// The projection row holds the whole theme state, so it doubles as the command side's snapshot.
export const rowToTheme = (row: ThemeRow): Theme => ({
  ...rowToThemeHeader(row),
  document: row.document as ThemeDocument,
})

// The command side's snapshot of a theme: its row and its stream's current version, in one read.
export async function readThemeSnapshot(db: Kysely<Database>, themeId: string): Promise<Snapshot | null> {
  const row = await db
    .selectFrom('themes')
    .innerJoin('streams', (join) => join.on('streams.stream_id', '=', themeStream(themeId)))
    .selectAll('themes')
    .select('streams.version as current_version')
    .where('themes.theme_id', '=', themeId)
    .executeTakeFirst()
  return row
    ? {
        state: { exists: true, ...rowToTheme(row) },
        snapshotVersion: row.stream_version,
        streamVersion: Number(row.current_version),
      }
    : null
}

export const THEME_HEADER_COLUMNS = [
  'theme_id',
  'store_id',
  'name',
  'provider',
  'status',
  'version',
  'duplicated_from',
  'created_at',
  'updated_at',
  'published_at',
  'archived_at',
  'last_preview_at',
  'last_previewed_version',
] as const

function themeToRow(theme: Theme, streamVersion: number) {
  const document = JSON.stringify(theme.document)
  return {
    theme_id: theme.themeId,
    store_id: theme.storeId,
    name: theme.name,
    provider: theme.provider,
    status: theme.status,
    version: theme.version,
    stream_version: streamVersion,
    document,
    document_bytes: Buffer.byteLength(document),
    duplicated_from: theme.duplicatedFrom,
    created_at: theme.createdAt,
    updated_at: theme.updatedAt,
    published_at: theme.publishedAt,
    archived_at: theme.archivedAt,
    last_preview_at: theme.lastPreviewAt,
    last_previewed_version: theme.lastPreviewedVersion,
  }
}

// The prepared upsert (migration 0012): the row from the payload, its stream version from the appended events.
const PREPARED_UPSERT = 'select sfts_project_themes_upsert($1, $2, $3, $4)'

// The state a theme stream's events follow, when the append says it without a read: a new stream,
// or the state the writer decided on at the exact version it expects.
export function stateBefore(stream: { expected: unknown; state?: unknown } | undefined): ThemeState | null {
  if (!stream) return null
  if (stream.expected === 'no_stream' || stream.expected === 0) return initialThemeState
  if (
    typeof stream.expected === 'number' &&
    stream.state &&
    typeof stream.state === 'object' &&
    'exists' in stream.state
  )
    return stream.state as ThemeState
  return null
}

export const themesProjection = defineProjection<ThemeEvent>({
  name: 'themes',
  tables: ['themes'],
  handles: THEME_EVENT_TYPES,
  async apply(db: QueryCreator<Database>, events) {
    for (const [streamId, list] of byStream(events)) {
      const themeId = themeStream.idOf(streamId)!
      const row = await db.selectFrom('themes').selectAll().where('theme_id', '=', themeId).executeTakeFirst()
      let state: ThemeState = row ? { exists: true, ...rowToTheme(row) } : initialThemeState
      let streamVersion = row ? row.stream_version : 0
      for (const e of list) {
        if (e.streamVersion <= streamVersion) continue
        state = evolve(state, e)
        streamVersion = e.streamVersion
      }
      if (!state.exists || (row && streamVersion === row.stream_version)) continue
      const values = themeToRow(state, streamVersion)
      await db
        .insertInto('themes')
        .values(values)
        .onConflict((oc) =>
          oc
            .column('theme_id')
            .doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              status: eb.ref('excluded.status'),
              version: eb.ref('excluded.version'),
              stream_version: eb.ref('excluded.stream_version'),
              document: eb.ref('excluded.document'),
              document_bytes: eb.ref('excluded.document_bytes'),
              updated_at: eb.ref('excluded.updated_at'),
              published_at: eb.ref('excluded.published_at'),
              archived_at: eb.ref('excluded.archived_at'),
              last_preview_at: eb.ref('excluded.last_preview_at'),
              last_previewed_version: eb.ref('excluded.last_previewed_version'),
            }))
            .where('themes.stream_version', '<', (eb) => eb.ref('excluded.stream_version')),
        )
        .execute()
    }
  },
  prepare({ streams: appended, events }) {
    const writes = []
    for (const [streamId, list] of byStream(events)) {
      let state = stateBefore(appended.find((s) => s.streamId === streamId))
      if (!state) return null
      for (const e of list) state = evolve(state, e)
      if (!state.exists) continue
      // The document's JSON text is spliced in as it is: serialised once, for the row and its size.
      const { document, stream_version: _, ...row } = themeToRow(state, 0)
      writes.push({
        sql: PREPARED_UPSERT,
        payload: `${JSON.stringify({ ...row, ord: list.at(-1)!.ord }).slice(0, -1)},"document":${document}}`,
      })
    }
    return writes
  },
})
