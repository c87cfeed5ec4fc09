import t from 'tap'
import { sql } from 'kysely'
import { claim, complete, purgeExpired, requestHash } from '../../src/http/idempotency.ts'
import { freshDatabase } from '../support/database.ts'

t.test(
  'idempotency records expire: a stale key is claimed afresh, and purging removes only expired ones',
  async (t) => {
    const { db } = await freshDatabase(t)
    const old = { storeId: 'st_a', operation: 'createTheme', key: 'key-old-0001' }
    const live = { storeId: 'st_a', operation: 'createTheme', key: 'key-live-001' }
    const hash = requestHash({ body: { name: 'x' } })
    t.same(await claim(db, old, hash), { kind: 'proceed' })
    await complete(db, old, { status: 201, body: '{"data":{}}', headers: {} })
    t.same(await claim(db, live, hash), { kind: 'proceed' })
    await complete(db, live, { status: 201, body: '{"data":{}}', headers: {} })
    t.match(await claim(db, old, hash), { kind: 'replay' }, 'within 24 hours: replayed')
    await sql`update idempotency_keys set expires_at = now() - interval '1 second' where idem_key = ${old.key}`.execute(
      db,
    )
    t.same(
      await claim(db, old, requestHash({ body: { name: 'other' } })),
      { kind: 'proceed' },
      'after 24 hours the key is free, even for another request',
    )
    await sql`update idempotency_keys set expires_at = now() - interval '1 second' where idem_key = ${old.key}`.execute(
      db,
    )
    t.equal(await purgeExpired(db), 1)
    const left = await db.selectFrom('idempotency_keys').select('idem_key').execute()
    t.same(
      left.map((r) => r.idem_key),
      [live.key],
    )
  },
)
