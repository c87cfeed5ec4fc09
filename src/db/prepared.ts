import { createHash } from 'node:crypto'
import { CompiledQuery, type Compilable, type Kysely } from 'kysely'
import pg from 'pg'

// Prepared statements for the hot reads. A query compiled by compiledOnce (below) carries a marker;
// on PostgreSQL the pool's clients (connect.ts) send it as a named statement, so each connection
// parses and plans it once and then only binds and executes it (planning was a good part of the
// server's CPU for getContext, getTheme and listProducts). The name is a digest of the SQL text:
// only queries whose text depends on their shape alone (a bounded set) may use it. On PGlite the
// marker is a comment and the query runs as usual.
export const PREPARED_MARK = '/* prepared */ '

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

// Called for each new pool client: marked statements go out named. The Query is built from the
// text and named afterwards: given a config object, pg copies it property by property on every
// query (normalizeQueryConfig): 3 to 7 µs per query under load (bench:mcp profiles).
export function preparedStatements(client: pg.PoolClient): void {
  const query = client.query as (...args: unknown[]) => unknown
  client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
    // The service's marked statements come through kysely, as a promise; any other call is pg's own
    // (a marked one then runs unnamed: the mark is a comment).
    if (
      typeof config !== 'string' ||
      !config.startsWith(PREPARED_MARK) ||
      typeof values === 'function' ||
      callback !== undefined
    )
      return query.call(this, config, values, callback)
    // pg reads both fields when it runs the query (@types/pg does not declare them).
    const named = new pg.Query(config, values as unknown[] | undefined) as unknown as {
      name: string
      callback?: unknown
    }
    named.name = nameOf(config)
    // What pg does for a query without a callback: the result as a promise. (pg also re-captures a
    // failure's stack; kysely already appends its caller's stack to the error, so that is not redone.)
    return new Promise((resolve, reject) => {
      named.callback = (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result))
      query.call(this, named)
    })
  } as typeof client.query
}

// Building and compiling a kysely query costs more server CPU than the hot reads' own work. Their
// SQL text depends only on the shape of the call (which filters are present), so each shape is
// compiled once, with placeholders for the values, and later calls put the values in their places.
// Every value that ends up a parameter must come in `values` (computed beforehand: a LIKE pattern,
// limit + 1), and whatever changes the SQL text must be in `shape`.
const SLOT = '\u0000slot:'

export function compiledOnce<V extends Record<string, unknown>, R>(
  // biome-ignore lint/suspicious/noExplicitAny: the builder is typed by its caller; here only compiled
  build: (db: Kysely<any>, values: V) => Compilable<R>,
) {
  const shapes = new Map<string, { sql: string; slots: ({ name: keyof V } | { fixed: unknown })[] }>()
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return (db: Kysely<any>, shape: string, values: V): CompiledQuery<R> => {
    let entry = shapes.get(shape)
    if (!entry) {
      const placeholders = Object.fromEntries(Object.keys(values).map((k) => [k, `${SLOT}${k}`])) as V
      const compiled = build(db, placeholders).compile()
      if (compiled.sql.includes(SLOT))
        throw new Error('compiledOnce: a value was written into the SQL text instead of a parameter')
      const slots = compiled.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(SLOT) ? { name: p.slice(SLOT.length) as keyof V } : { fixed: p },
      )
      entry = { sql: `${PREPARED_MARK}${compiled.sql}`, slots }
      shapes.set(shape, entry)
    }
    return CompiledQuery.raw(
      entry.sql,
      entry.slots.map((s) => ('name' in s ? values[s.name] : s.fixed)),
    ) as CompiledQuery<R>
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the query is compiled; any database type runs it
export async function executeCompiled<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<R[]> {
  return (await db.executeQuery<R>(query)).rows
}
