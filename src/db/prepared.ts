import { createHash } from 'node:crypto'
import { CompiledQuery, type Compilable, type Kysely } from 'kysely'
import type pg from 'pg'

// Prepared statements for the hot reads. A query run through executePrepared carries a marker;
// on PostgreSQL the pool's clients (connect.ts) send it as a named statement, so each connection
// parses and plans it once and then only binds and executes it (planning was a good part of the
// server's CPU for getContext, getTheme and listProducts). The name is a digest of the SQL text:
// only queries whose text depends on their shape alone (a bounded set) may use it. On PGlite the
// marker is a comment and the query runs as usual.
export const PREPARED_MARK = '/* prepared */ '

export async function executePrepared<R>(db: Kysely<any>, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile()
  const { rows } = await db.executeQuery<R>(CompiledQuery.raw(`${PREPARED_MARK}${compiled.sql}`, [...compiled.parameters]))
  return rows
}

const names = new Map<string, string>()
const nameOf = (text: string): string => {
  let name = names.get(text)
  if (name === undefined) {
    name = `sfts_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`
    if (names.size > 1000) names.clear()
    names.set(text, name)
  }
  return name
}

// Called for each new pool client: marked statements go out named.
export function preparedStatements(client: pg.PoolClient): void {
  const query = client.query
  client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
    if (typeof config === 'string' && config.startsWith(PREPARED_MARK)) return (query as Function).call(this, { name: nameOf(config), text: config, values }, callback)
    return (query as Function).call(this, config, values, callback)
  } as typeof client.query
}
