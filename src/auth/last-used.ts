import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// `last_used_at` of API keys and OAuth grants, written in batches: requests only note the use
// in memory; every `flushMs` (5 s) and at shutdown one statement per table writes what was noted
// (`update … from unnest(…)`), never moving a value backwards. The dashboard's "last used" is
// therefore at most 5 s behind (or lost with the process on a crash: it is a hint, not a record).
export type LastUsedOptions = { flushMs?: number; onError?: (error: unknown) => void }

const TABLES = {
  api_key: { table: 'api_keys', id: 'key_id' },
  oauth_grant: { table: 'oauth_grants', id: 'grant_id' },
} as const

export type LastUsedKind = keyof typeof TABLES

export class LastUsedRecorder {
  private pending: Record<LastUsedKind, Map<string, number>> = { api_key: new Map(), oauth_grant: new Map() }
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()
  private readonly db: Kysely<Database>
  private readonly onError: (error: unknown) => void

  constructor(db: Kysely<Database>, options: LastUsedOptions = {}) {
    this.db = db
    this.onError = options.onError ?? (() => {})
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 5000)
    this.timer.unref()
  }

  touch(kind: LastUsedKind, id: string, at: Date): void {
    const map = this.pending[kind]
    const t = at.getTime()
    const seen = map.get(id)
    if (seen === undefined || seen < t) map.set(id, t)
  }

  /** Writes what was noted; one statement per table with something to write. */
  flush(): Promise<void> {
    const batch = this.pending
    this.pending = { api_key: new Map(), oauth_grant: new Map() }
    this.flushing = this.flushing.then(async () => {
      for (const kind of Object.keys(TABLES) as LastUsedKind[]) {
        const map = batch[kind]
        if (map.size === 0) continue
        const { table, id } = TABLES[kind]
        const ids = [...map.keys()]
        const ats = [...map.values()].map((t) => new Date(t).toISOString())
        try {
          await sql`
            update ${sql.table(table)} as t set last_used_at = u.at
            from unnest(${ids}::text[], ${ats}::timestamptz[]) as u(id, at)
            where t.${sql.ref(id)} = u.id and (t.last_used_at is null or t.last_used_at < u.at)`.execute(this.db)
        } catch (error) {
          this.onError(error)
        }
      }
    })
    return this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
