import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { EventStore } from '../events/event-store.ts'
import { catchUpLeader } from '../metrics/registry.ts'
import type { Projection } from './projection.ts'
import { catchUp } from './runner.ts'
import { pgArray } from '../db/pg-array.ts'

// The background catch-up runner. With several instances on one PostgreSQL database exactly one
// runs it: the one holding a session-level advisory lock on a connection it keeps for as long as
// it leads. When the leader dies its connection closes, PostgreSQL releases the lock, and the
// next instance to try (every `retryMs`) takes over. A leader whose connection breaks stops
// leading at its next tick. On PGlite the single process always leads.

// pg_try_advisory_lock(key1, key2): 'sfts' and 1 (catch-up). Advisory locks are per database.
const LOCK = sql`${0x73667473}::int, 1`

export type CatchUpLoopOptions = {
  intervalMs: number
  // How often a follower tries to take the lead.
  retryMs?: number
  // 'advisory-lock': PostgreSQL, possibly several instances. 'single': PGlite, one process.
  leadership: 'advisory-lock' | 'single'
  onError: (error: unknown) => void
  onLeadership?: (leading: boolean) => void
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })

export function startCatchUpLoop(
  db: Kysely<Database>,
  eventStore: EventStore,
  list: readonly Projection[],
  options: CatchUpLoopOptions,
): () => Promise<void> {
  const controller = new AbortController()
  const signal = controller.signal
  const setLeading = (leading: boolean) => {
    catchUpLeader.set(leading ? 1 : 0)
    options.onLeadership?.(leading)
  }

  const names = list.map((p) => p.name)
  const tick = async (on: Kysely<Database>) => {
    // One statement when there is nothing to do (the usual case: inline projections keep every
    // checkpoint's table current), instead of a transaction per projection every interval.
    if (!(await pending(on, names))) return
    for (const p of list) {
      if (signal.aborted) return
      try {
        await catchUp(on, eventStore, p, { signal })
      } catch (error) {
        options.onError(error)
      }
    }
  }

  // Leads while the lock's connection lives: the catch-up runs on that very connection, so a
  // broken connection ends the leadership instead of leaving a leader without its lock.
  const lead = async (): Promise<void> => {
    await db.connection().execute(async (conn) => {
      const got =
        (await sql<{ ok: boolean }>`select pg_try_advisory_lock(${LOCK}) as ok`.execute(conn)).rows[0]?.ok === true
      if (!got) return
      setLeading(true)
      try {
        while (!signal.aborted) {
          await tick(conn)
          await sleep(options.intervalMs, signal)
        }
      } finally {
        setLeading(false)
        await sql`select pg_advisory_unlock(${LOCK})`.execute(conn).catch(() => {})
      }
    })
  }

  const loop = async () => {
    if (options.leadership === 'single') {
      setLeading(true)
      while (!signal.aborted) {
        await tick(db)
        await sleep(options.intervalMs, signal)
      }
      setLeading(false)
      return
    }
    while (!signal.aborted) {
      try {
        await lead()
      } catch (error) {
        if (!signal.aborted) options.onError(error)
      }
      await sleep(options.retryMs ?? 1000, signal)
    }
  }
  const running = loop()
  return async () => {
    controller.abort()
    await running
  }
}

// Whether any projection has a catch-up to do: one without a checkpoint, or an event past one. An
// event of a transaction still running counts (the runner then reads nothing past it, as before);
// one of a transaction older than a checkpoint cannot appear, since the runner moves a checkpoint
// only over transactions that had all ended.
async function pending(db: Kysely<Database>, names: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ pending: boolean }>`
    select (select count(*) from projection_checkpoints where name = any(${pgArray(names)}::text[])) < ${names.length}
      or exists (
        select 1 from projection_checkpoints c
        where c.name = any(${pgArray(names)}::text[])
          and exists (select 1 from events e where (e.epoch, e.transaction_id, e.global_position) > (c.epoch, c.transaction_id, c.global_position))
      ) as pending`.execute(db)
  return rows[0]?.pending !== false
}
