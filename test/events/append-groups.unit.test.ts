import t from 'tap'
import { CompiledQuery } from 'kysely'
import { appendGroups, type GroupedRow } from '../../src/events/append-groups.ts'

// What the group-commit queue sends and when it sends a member again, with an executor standing in
// for PostgreSQL: the failures below (a connection lost mid-statement) cannot be caused on purpose
// against the shared server. The database side is in append-groups.int.test.ts.
type Call = { text: string; parameters: readonly unknown[] }

function queue(answer: (call: Call) => Promise<GroupedRow[]>) {
  const calls: Call[] = []
  const submit = appendGroups({
    call: (p) => `f($${p}, $${p + 1})`,
    lockAll: (p) => `select 0 as member, null as key from lock($${p})`,
    prefix: '',
    inFlight: 1,
    maxMembers: 3,
    execute: (q) => {
      const call = { text: q.sql, parameters: q.parameters }
      calls.push(call)
      return answer(call)
    },
  })
  const append = (key: string) =>
    submit(key, CompiledQuery.raw('select * from f($1, $2)', [key, `${key}-data`]) as CompiledQuery<GroupedRow>)
  return { calls, append }
}

const rowsFor = (call: Call): GroupedRow[] =>
  call.text.includes('union all')
    ? [
        { member: 0, key: null },
        ...call.parameters.slice(0, -1).flatMap((p, i) =>
          i % 2 === 0
            ? [
                { member: i / 2 + 1, ordinality: 2, key: p },
                { member: i / 2 + 1, ordinality: 1, key: p },
              ]
            : [],
        ),
      ]
    : [{ ordinality: 1, key: call.parameters[0] }]

t.test(
  'members wait while a statement runs, then go together after a part that locks all their keys, at most maxMembers at a time',
  async (t) => {
    const { calls, append } = queue(async (call) => rowsFor(call))
    const results = await Promise.all(['e', 'd', 'c', 'b', 'a'].map(append))
    t.same(
      calls.map((c) => c.parameters),
      [
        ['e', 'e-data'],
        ['d', 'd-data', 'c', 'c-data', 'b', 'b-data', '{"d","c","b"}'],
        ['a', 'a-data'],
      ],
      'the keys as one text[] literal, last',
    )
    t.equal(
      calls[1]!.text,
      'select 0 as member, null as key from lock($7)\nunion all select 1, a.* from f($1, $2) with ordinality a\nunion all select 2, a.* from f($3, $4) with ordinality a\nunion all select 3, a.* from f($5, $6) with ordinality a',
    )
    // Each member gets its own rows, in the order its call returned them; the locking part's row is no member's.
    t.same(results[1], [
      { member: 1, ordinality: 1, key: 'd' },
      { member: 1, ordinality: 2, key: 'd' },
    ])
    t.same(results[0], [{ ordinality: 1, key: 'e' }])
  },
)

t.test(
  'a statement PostgreSQL refused wrote nothing: each member runs again alone and keeps its own outcome',
  async (t) => {
    const refused = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })
    const { calls, append } = queue(async (call) => {
      if (call.text.includes('union all') || call.parameters[0] === 'c') throw refused
      return rowsFor(call)
    })
    const results = await Promise.allSettled(['a', 'b', 'c'].map(append))
    t.equal(calls.length, 4, 'a alone, the group of b and c, then b and c alone')
    t.match(results, [
      { status: 'fulfilled' },
      { status: 'fulfilled', value: [{ key: 'b' }] },
      { status: 'rejected', reason: refused },
    ])
  },
)

t.test('a failure whose outcome is unknown is not run again: every member gets it', async (t) => {
  for (const failure of [
    new Error('Connection terminated unexpectedly'),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  ]) {
    const { calls, append } = queue(async (call) => {
      if (call.text.includes('union all')) throw failure
      return rowsFor(call)
    })
    const results = await Promise.allSettled(['a', 'b', 'c'].map(append))
    t.equal(calls.length, 2, `${failure.message}: nothing sent again (it may have committed)`)
    t.match(results, [
      { status: 'fulfilled' },
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ])
  }
})
