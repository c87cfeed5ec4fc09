import { CompiledQuery } from 'kysely'
import { pgArray } from '../db/pg-array.ts'

// Group commit for appends that are one statement each. At most `inFlight` statements run at a
// time; appends that arrive meanwhile wait, and when a statement finishes, the waiting ones go out
// together: the append function once per member, joined by UNION ALL, so one statement, one
// transaction, one commit (one WAL flush) and one round trip for all of them. An append that meets
// no other goes out alone, as before. Under 8 concurrent agent batches, with two in flight, this
// cut PostgreSQL's CPU per batch by a fifth to a quarter and the server's by a tenth to a fifth
// (bench/results/2026-11-25-0218-group-commit.md).
//
// Each member keeps its own outcome. A conflict is a row, not an error: that member writes nothing,
// the others go on. A statement that fails with a PostgreSQL error wrote nothing at all, so every
// member then runs again alone and gets exactly the outcome it would have had without grouping
// (the one whose write failed fails, the others succeed). A failure that is not PostgreSQL's answer
// to the statement (a lost connection) may or may not have committed: nothing runs again, every
// member gets the error, as an append alone would.
export type GroupedRow = Record<string, unknown>

type Member = {
  key: string
  query: CompiledQuery<GroupedRow>
  resolve: (rows: GroupedRow[]) => void
  reject: (error: unknown) => void
}
type Settle = () => void

export type AppendGroupsOptions = {
  // The append function's call with its parameters numbered from `first` (as many as a member's
  // own statement has).
  call: (first: number) => string
  // The statement's first part, run before any member: it takes every member's stream lock (the
  // keys, as one text[] parameter numbered `first`) in the one order every append takes its locks,
  // so a group cannot deadlock with another group or a multi-stream append. Its row is member 0,
  // and it names the columns.
  lockAll: (first: number) => string
  prefix: string
  execute: (query: CompiledQuery<GroupedRow>) => Promise<GroupedRow[]>
  inFlight: number
  maxMembers: number
}

// SQLSTATE classes after which the statement's outcome is unknown or the server is going away:
// connection exceptions, operator intervention (shutdown, cancel), system and internal errors.
const outcomeUnknown = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code !== 'string' || /^(08|57|58|XX)/.test(code)
}

export function appendGroups(
  options: AppendGroupsOptions,
): (key: string, query: CompiledQuery<GroupedRow>) => Promise<GroupedRow[]> {
  const waiting: Member[] = []
  let running = 0
  const texts = new Map<number, string>()

  const groupText = (n: number, parameters: number): string => {
    let text = texts.get(n)
    if (text === undefined) {
      // UNION ALL runs its parts in order (nothing here can run in parallel: the functions are not
      // marked parallel safe), so the locks come first and the members follow in queue order.
      const parts = Array.from(
        { length: n },
        (_, i) => `select ${i + 1}, a.* from ${options.call(i * parameters + 1)} with ordinality a`,
      )
      text = `${options.prefix}${[options.lockAll(n * parameters + 1), ...parts].join('\nunion all ')}`
      texts.set(n, text)
    }
    return text
  }

  async function alone(member: Member): Promise<Settle> {
    try {
      const rows = await options.execute(member.query)
      return () => member.resolve(rows)
    } catch (error) {
      return () => member.reject(error)
    }
  }

  async function together(members: Member[]): Promise<Settle> {
    let rows: GroupedRow[]
    try {
      const values = [...members.flatMap((m) => m.query.parameters), pgArray(members.map((m) => m.key))]
      rows = await options.execute(
        CompiledQuery.raw(
          groupText(members.length, members[0]!.query.parameters.length),
          values,
        ) as CompiledQuery<GroupedRow>,
      )
    } catch (error) {
      if (outcomeUnknown(error))
        return () => {
          for (const m of members) m.reject(error)
        }
      const settled = await Promise.all(members.map(alone))
      return () => {
        for (const settle of settled) settle()
      }
    }
    const byMember: GroupedRow[][] = members.map(() => [])
    for (const row of rows) if (Number(row.member) > 0) byMember[Number(row.member) - 1]!.push(row)
    return () => {
      for (const [i, m] of members.entries())
        m.resolve(byMember[i]!.sort((a, b) => Number(a.ordinality) - Number(b.ordinality)))
    }
  }

  function pump(): void {
    while (running < options.inFlight && waiting.length > 0) {
      const members = waiting.splice(0, options.maxMembers)
      running++
      void (members.length === 1 ? alone(members[0]!) : together(members)).then((settle) => {
        running--
        // The next group goes out before this one's members are answered: the database works on
        // it while this process answers them.
        pump()
        settle()
      })
    }
  }

  return (key, query) =>
    new Promise((resolve, reject) => {
      waiting.push({ key, query, resolve, reject })
      pump()
    })
}
