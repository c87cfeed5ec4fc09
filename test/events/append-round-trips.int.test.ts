import t from 'tap'
import pg from 'pg'
import { createPostgresEventStore } from '../../src/events/postgres-event-store.ts'
import type { NewEvent } from '../../src/events/event-store.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { statementCounter } from '../support/statements.ts'

// An append is one statement: one round trip to PostgreSQL, whatever its expected version and
// however many streams and events it carries (begin and commit would be two more).
const ev = (type: string): NewEvent => ({
  type,
  data: { n: 1 },
  metadata: {
    storeId: 'st_a',
    actor: { kind: 'system', credentialId: null, appId: null },
    channel: 'cli',
    correlationId: 'c',
    causationId: null,
    commandId: 'cmd_1',
    command: 'test',
  },
})
const to = (streamId: string, expected: any, events: NewEvent[]) => ({
  streamId,
  streamType: 'test',
  storeId: 'st_a',
  expected,
  events,
})

t.test('one append, one round trip', async (t) => {
  // Every message the pg driver sends (begin and commit included), patched before the pool's
  // clients exist: each client keeps the query function it had when it connected (src/db/prepared.ts).
  let sent = 0
  let named = 0
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    sent++
    if (typeof (args[0] as { name?: unknown } | null)?.name === 'string') named++
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  t.teardown(() => {
    pg.Client.prototype.query = query
  })
  const { db } = await freshDatabase(t)
  let statements = 0
  const store = createPostgresEventStore(db.withPlugin(statementCounter(() => statements++)))
  const count = async (label: string, fn: () => Promise<unknown>) => {
    statements = 0
    sent = 0
    named = 0
    await fn()
    t.equal(statements, 1, `${label}: one statement`)
    // Named, so PostgreSQL parses and plans the call once per connection, not per append.
    if (testDatabaseKind === 'postgres')
      t.same({ sent, named }, { sent: 1, named: 1 }, `${label}: one round trip, a prepared statement`)
  }
  await store.append([to('s-1', 'no_stream', [ev('A')])]) // the connection's first call plans the function's statements
  await count('exact version', () => store.append([to('s-1', 1, [ev('B')])]))
  await count('no_stream', () => store.append([to('s-2', 'no_stream', [ev('A')])]))
  await count('any', () => store.append([to('s-2', 'any', [ev('B')])]))
  await count('exists', () => store.append([to('s-2', 'exists', [ev('C')])]))
  await count('100 events', () =>
    store.append([
      to(
        's-3',
        'no_stream',
        Array.from({ length: 100 }, () => ev('X')),
      ),
    ]),
  )
  await count('three streams', () =>
    store.append([to('s-1', 2, [ev('C')]), to('s-2', 3, [ev('D')]), to('s-4', 'no_stream', [ev('E')])]),
  )
  await count('a conflict', async () => {
    const r = await store.append([to('s-1', 1, [ev('late')])])
    t.same(r, { ok: false, conflict: { streamId: 's-1', expected: 1, actual: 3 } })
  })
})
