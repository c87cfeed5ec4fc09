import { createHmac, timingSafeEqual } from 'node:crypto'
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Database } from '../db/database.ts'
import { z } from 'zod'

// Keyset pagination with opaque, tamper-evident cursors.
//
// A cursor is `<payload>.<signature>`, both base64url. The payload is JSON:
//   { v: 1, r: <resource>, s: <storeId>, k: [<createdAt, UTC, microseconds>, <id>] }
// (the keyset position of the last item of the page, plus what list and store it belongs to).
// The signature is HMAC-SHA256 over a domain-separated string with the cursor secret.
// A forged, truncated, other-resource or other-store cursor throws CursorError
// (code INVALID_CURSOR; the HTTP layer answers 400). No OFFSET anywhere: the next page
// is "rows strictly after (createdAt, id)" in the list's order.

export const DEFAULT_LIMIT = 20
export const MIN_LIMIT = 1
export const MAX_LIMIT = 100
export const MAX_CURSOR_LENGTH = 1024

// Query-string values arrive as strings: plain decimal digits are read as numbers,
// anything else ('1e1', ' 5', '5.0', '') stays a string and fails as not an integer.
const decimalToNumber = (v: unknown): unknown => (typeof v === 'string' && /^[0-9]{1,6}$/.test(v) ? Number(v) : v)

export const limitSchema = z
  .preprocess(decimalToNumber, z.int().min(MIN_LIMIT).max(MAX_LIMIT))
  .default(DEFAULT_LIMIT)
  .meta({
    description: `Page size, ${MIN_LIMIT} to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}). A value outside the range is rejected, not clamped.`,
  })

export const cursorSchema = z
  .string()
  .min(1)
  .max(MAX_CURSOR_LENGTH)
  .meta({ description: 'Opaque cursor from the previous page (pagination.nextCursor). Omit for the first page.' })

// The one definition of the pagination query: HTTP (query string) and MCP (JSON arguments)
// both derive from it. Parsed output: { limit: number (default 20), cursor?: string }.
export const paginationQuerySchema = z.object({ limit: limitSchema, cursor: cursorSchema.optional() })
export type PaginationQuery = z.output<typeof paginationQuerySchema>

export const paginationSchema = z
  .object({
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass back as `cursor` for the next page; null on the last page.' }),
    hasMore: z.boolean(),
    limit: z.int().meta({ description: 'Page size applied.' }),
  })
  .meta({ description: 'Keyset pagination state.' })
export type Pagination = z.output<typeof paginationSchema>

export type Page<T> = { items: T[]; pagination: Pagination }

export type PageArgs = { limit?: number | undefined; cursor?: string | undefined }

export type CursorErrorReason = 'malformed' | 'bad_signature' | 'wrong_resource' | 'wrong_store'

export class CursorError extends Error {
  readonly code = 'INVALID_CURSOR' as const
  readonly reason: CursorErrorReason
  constructor(reason: CursorErrorReason) {
    super('The cursor is not valid for this list. Start again from the first page without a cursor.')
    this.name = 'CursorError'
    this.reason = reason
  }
}

export const isCursorError = (e: unknown): e is CursorError => e instanceof CursorError

// Which list a cursor belongs to.
export type CursorScope = { resource: string; storeId: string }
// createdAt: 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (UTC, microseconds, as PostgreSQL stores it).
export type KeysetPosition = { createdAt: string; id: string }

const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const B64URL_RE = /^[A-Za-z0-9_-]+$/

const payloadSchema = z.strictObject({
  v: z.literal(1),
  r: z.string(),
  s: z.string(),
  k: z.tuple([z.string().regex(TIMESTAMP_RE), z.string().min(1).max(200)]),
})

function sign(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`storefront.cursor.v1\n${payload}`).digest()
}

export function encodeCursor(secret: string, scope: CursorScope, position: KeysetPosition): string {
  const payload = Buffer.from(
    JSON.stringify({ v: 1, r: scope.resource, s: scope.storeId, k: [position.createdAt, position.id] }),
  ).toString('base64url')
  return `${payload}.${sign(secret, payload).toString('base64url')}`
}

export function decodeCursor(secret: string, scope: CursorScope, cursor: string): KeysetPosition {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH)
    throw new CursorError('malformed')
  const parts = cursor.split('.')
  if (parts.length !== 2) throw new CursorError('malformed')
  const [payload, signature] = parts as [string, string]
  if (!B64URL_RE.test(payload) || !B64URL_RE.test(signature)) throw new CursorError('malformed')
  const given = Buffer.from(signature, 'base64url')
  const expected = sign(secret, payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new CursorError('bad_signature')
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    throw new CursorError('malformed')
  }
  const parsed = payloadSchema.safeParse(json)
  if (!parsed.success) throw new CursorError('malformed')
  if (parsed.data.r !== scope.resource) throw new CursorError('wrong_resource')
  if (parsed.data.s !== scope.storeId) throw new CursorError('wrong_store')
  return { createdAt: parsed.data.k[0], id: parsed.data.k[1] }
}

// Callers validate with paginationQuerySchema first; a bad limit reaching a query is a bug.
export function resolveLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < MIN_LIMIT || limit > MAX_LIMIT)
    throw new RangeError(`limit must be an integer from ${MIN_LIMIT} to ${MAX_LIMIT}`)
  return limit
}

// --- SQL helpers (PostgreSQL and PGlite alike) ---

// The exact stored instant, as text with microseconds: a cursor built from a JS Date
// (milliseconds) would skip or repeat rows whose timestamps carry microseconds.
export function cursorTimestamp(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
}

// Rows strictly after the position in the list's order: (createdAt, id) ascending or descending.
export function keysetAfter(
  createdAtColumn: string,
  idColumn: string,
  direction: 'asc' | 'desc',
  position: KeysetPosition,
): RawBuilder<boolean> {
  const op = direction === 'asc' ? sql.raw('>') : sql.raw('<')
  return sql<boolean>`(${sql.ref(createdAtColumn)}, ${sql.ref(idColumn)}) ${op} (${position.createdAt}::timestamptz, ${position.id}::text)`
}

// rows: up to limit + 1 rows in list order (the extra one only says there is more).
export function toPage<R, T>(
  rows: R[],
  limit: number,
  opts: { secret: string; scope: CursorScope; position: (row: R) => KeysetPosition; map: (row: R) => T },
): Page<T> {
  const hasMore = rows.length > limit
  const pageRows = hasMore ? rows.slice(0, limit) : rows
  const last = pageRows[pageRows.length - 1]
  return {
    items: pageRows.map(opts.map),
    pagination: {
      nextCursor: hasMore && last !== undefined ? encodeCursor(opts.secret, opts.scope, opts.position(last)) : null,
      hasMore,
      limit,
    },
  }
}

// The one keyset list: a query of one store's rows, read in (createdAt, id) order after the
// cursor's position, a page plus one row (that says there is more).
export async function paginate<R extends { cursor_ts: string }, T>(
  ctx: { cursorSecret: string },
  args: PageArgs,
  list: {
    scope: CursorScope
    // biome-ignore lint/suspicious/noExplicitAny: any table set; the row type R is what matters
    query: SelectQueryBuilder<Database, any, R>
    keys: { createdAt: string; id: string; direction: 'asc' | 'desc'; idOf: (row: R) => string }
    map: (row: R) => T
  },
): Promise<Page<T>> {
  const limit = resolveLimit(args.limit)
  const { keys } = list
  const after = args.cursor === undefined ? null : decodeCursor(ctx.cursorSecret, list.scope, args.cursor)
  const query = after ? list.query.where(keysetAfter(keys.createdAt, keys.id, keys.direction, after)) : list.query
  const rows = await query
    .orderBy(sql.ref(keys.createdAt), keys.direction)
    .orderBy(sql.ref(keys.id), keys.direction)
    .limit(limit + 1)
    .execute()
  return toPage(rows as R[], limit, {
    secret: ctx.cursorSecret,
    scope: list.scope,
    position: (r) => ({ createdAt: r.cursor_ts, id: keys.idOf(r) }),
    map: list.map,
  })
}
