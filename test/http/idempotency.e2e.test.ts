import t from 'tap'
import { operations } from '../../src/operations/catalog.ts'
import { testDatabaseKind } from '../support/database.ts'
import { operationCases } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld, STORE_B, unique, type Req, type Res } from './support/world.ts'

// Idempotency-Key on every POST, PATCH and DELETE but the preview token: a replay returns the
// first response exactly and applies nothing; another request under the same key is 409
// IDEMPOTENCY_KEY_REUSED; a malformed key is 400 INVALID_IDEMPOTENCY_KEY; concurrent requests
// with one key apply once.

const idempotentIds = operations
  .filter((o) => o.method !== 'GET' && o.operationId !== 'createThemePreviewToken')
  .map((o) => o.operationId)
const idempotentCases = operationCases.filter((c) => idempotentIds.includes(c.operationId))
const withKey = (req: Req, key: string): Req => ({ ...req, headers: { ...req.headers, 'idempotency-key': key } })

t.test('every mutation: replay, reuse, and malformed keys', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  t.equal(idempotentCases.length, 15, 'every mutation but the preview token takes Idempotency-Key')
  const notByteIdentical: string[] = []
  for (const c of idempotentCases) {
    await t.test(c.operationId, async (t) => {
      const key = unique('idem-')
      const req = withKey(await c.success(w, w.ids), key)
      const first = await w.call(req)
      t.equal(first.statusCode, c.successStatus, `first (${first.body.slice(0, 200)})`)
      t.notOk(first.headers['idempotent-replayed'], 'the first answer is not a replay')

      const events = await w.eventCount()
      const themes = await w.themeRows(w.ids.storeId)
      const again = await w.call(req)
      t.equal(again.statusCode, first.statusCode, 'replay: same status')
      t.same(again.json(), first.json(), 'replay: same body (as JSON)')
      if (again.body !== first.body) notByteIdentical.push(c.operationId)
      t.equal(again.headers['idempotent-replayed'], 'true', 'replay: Idempotent-Replayed: true')
      if (first.headers.etag) t.equal(again.headers.etag, first.headers.etag, 'replay: same ETag')
      t.equal(await w.eventCount(), events, 'replay: no event appended')
      t.same(await w.themeRows(w.ids.storeId), themes, 'replay: no theme changed')

      const other = await w.call(withKey(c.base(w.ids), key))
      t.same(
        envelopeProblems(other, { status: 409, code: 'IDEMPOTENCY_KEY_REUSED' }),
        [],
        'same key, different request: 409 IDEMPOTENCY_KEY_REUSED',
      )
      t.equal(await w.eventCount(), events, 'reuse: no event appended')

      for (const [label, bad] of [
        ['7 characters', 'abcdefg'],
        ['257 characters', 'k'.repeat(257)],
        ['a tab inside', 'abcd\tefgh'],
        ['a non-ASCII character', 'clé-idempotency'],
      ] as const) {
        const res = await w.call(withKey(await c.success(w, w.ids), bad))
        t.same(
          envelopeProblems(res, { status: 400, code: 'INVALID_IDEMPOTENCY_KEY' }),
          [],
          `${label}: 400 INVALID_IDEMPOTENCY_KEY`,
        )
      }
      const before = await w.stateEventCount()
      const bad = await w.call(withKey(c.base(w.ids), 'short'))
      t.equal(bad.statusCode, 400)
      t.equal(await w.stateEventCount(), before, 'a refused key applies nothing')
    })
  }
  // "The first response is replayed exactly": the bytes, not only an equal JSON value.
  t.same(notByteIdentical, [], 'replayed bodies are byte-identical to the first answer')
})

t.test('key bounds, scope of a key, and replay of a refusal', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const create = (name: string, key: string): Req =>
    withKey({ method: 'POST', url: '/api/v1/themes', payload: { name, provider: 'tap' } }, key)

  for (const key of ['12345678', 'k'.repeat(256), ' !"#$%&\'()*+,-./~']) {
    const res = await w.call(create(unique('Bounds '), key))
    t.equal(res.statusCode, 201, `a key of ${key.length} printable characters is accepted`)
  }

  // The key is scoped to the store: store B may use the same key for its own request.
  const shared = unique('shared-key-')
  const a = await w.call(create('Store A theme', shared))
  const b = await w.call(create('Store B theme', shared), { store: STORE_B })
  t.equal(a.statusCode, 201)
  t.equal(b.statusCode, 201, 'another store, same key: applied')
  t.not(a.json().data.id, b.json().data.id)
  t.notOk(b.headers['idempotent-replayed'])
  // ... and to the operation: the same key on another operation is a new request.
  const other = await w.call(
    withKey(
      {
        method: 'PATCH',
        url: '/api/v1/navigation',
        payload: { menus: [{ handle: 'main', items: [{ label: 'Home', href: '/' }] }] },
      },
      shared,
    ),
  )
  t.equal(other.statusCode, 200, 'another operation, same key: applied')
  // Another key of the same store replays (the key belongs to the store, not to one credential).
  const replay = await w.call(create('Store A theme', shared))
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.same(replay.json(), a.json())

  // A refusal (4xx) is a response like any other: replayed, not run again.
  const key = unique('refusal-')
  const refused = withKey(
    {
      method: 'POST',
      url: `/api/v1/themes/${w.ids.activeThemeId}/batch`,
      payload: { operations: [{ op: 'updateTokens', tokens: { font: 'Lato' } }] },
    },
    key,
  )
  const r1 = await w.call(refused)
  t.equal(r1.statusCode, 409)
  t.equal(r1.json().error.code, 'THEME_NOT_EDITABLE')
  const events = await w.eventCount()
  const r2 = await w.call(refused)
  t.equal(r2.statusCode, 409)
  t.same(r2.json(), r1.json(), 'the refusal is replayed, with the first request id')
  t.equal(r2.headers['idempotent-replayed'], 'true')
  t.equal(await w.eventCount(), events, 'the replayed refusal is not audited again')
})

t.test('a key in flight is 409 IDEMPOTENCY_KEY_IN_USE; an abandoned or expired one is taken anew', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const db = w.services.db
  const key = unique('lifecycle-')
  const req = withKey({ method: 'POST', url: '/api/v1/themes', payload: { name: 'Lifecycle', provider: 'tap' } }, key)
  const first = await w.call(req)
  t.equal(first.statusCode, 201)
  const row = () => db.updateTable('idempotency_keys').where('store_id', '=', w.ids.storeId).where('idem_key', '=', key)
  const themes = async () => (await w.themeRows(w.ids.storeId)).length
  const count = await themes()

  // The same key while the first request is (still) running.
  await row().set({ state: 'in_flight' }).execute()
  const inUse = await w.call(req)
  t.same(
    envelopeProblems(inUse, { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' }),
    [],
    'in flight: 409 IDEMPOTENCY_KEY_IN_USE',
  )
  t.equal(await themes(), count, 'nothing applied')

  // A claim left in flight for over a minute is abandoned (its process died): the retry runs.
  await row()
    .set({ created_at: new Date(Date.now() - 61_000) })
    .execute()
  const retried = await w.call(req)
  t.equal(retried.statusCode, 201, 'an abandoned claim: the retry runs')
  t.notOk(retried.headers['idempotent-replayed'])
  t.equal(await themes(), count + 1)

  // After 24 hours the key is forgotten: another request under it runs.
  await row()
    .set({ expires_at: new Date(Date.now() - 1000) })
    .execute()
  const other = await w.call(
    withKey({ method: 'POST', url: '/api/v1/themes', payload: { name: 'After a day', provider: 'tap' } }, key),
  )
  t.equal(other.statusCode, 201, 'an expired key is a new key')
  t.equal(other.json().data.name, 'After a day')
  const kept = await db
    .selectFrom('idempotency_keys')
    .select(['expires_at', 'created_at'])
    .where('idem_key', '=', key)
    .executeTakeFirstOrThrow()
  const hours = (new Date(kept.expires_at).getTime() - new Date(kept.created_at).getTime()) / 3_600_000
  t.ok(Math.abs(hours - 24) < 0.01, `kept 24 hours (${hours.toFixed(3)})`)
})

t.test('10 concurrent requests with one key apply once', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const count = (responses: Res[], pred: (r: Res) => boolean) => responses.filter(pred).length
  const checkRace = (t: any, responses: Res[], status: number) => {
    const winners = responses.filter((r) => r.statusCode === status && r.headers['idempotent-replayed'] === undefined)
    t.equal(winners.length, 1, 'exactly one request ran')
    for (const r of responses) {
      if (r.statusCode === 409)
        t.same(
          envelopeProblems(r, { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' }),
          [],
          'the others: 409 IDEMPOTENCY_KEY_IN_USE ...',
        )
      else {
        t.equal(r.statusCode, status, '... or the replayed answer')
        t.same(r.json(), winners[0]?.json(), 'replays are identical to the answer of the one that ran')
      }
    }
    t.comment(
      `${testDatabaseKind}: ${count(responses, (r) => r.headers['idempotent-replayed'] === 'true')} replayed, ${count(responses, (r) => r.statusCode === 409)} in use`,
    )
  }

  await t.test('createTheme', async (t) => {
    const before = (await w.themeRows(w.ids.storeId)).length
    const key = unique('race-create-')
    const req = withKey({ method: 'POST', url: '/api/v1/themes', payload: { name: 'Raced', provider: 'tap' } }, key)
    const responses = await Promise.all(Array.from({ length: 10 }, () => w.call(req)))
    checkRace(t, responses, 201)
    t.equal((await w.themeRows(w.ids.storeId)).length, before + 1, 'exactly one theme created')
  })

  await t.test('applyThemeBatch', async (t) => {
    const version = (await w.setup(w.ids.storeId, { method: 'GET', url: `/api/v1/themes/${w.ids.draftId}` })).version
    const key = unique('race-batch-')
    const req = withKey(
      {
        method: 'POST',
        url: `/api/v1/themes/${w.ids.draftId}/batch`,
        payload: {
          operations: [
            {
              op: 'createSection',
              target: { pageId: w.ids.pageId },
              section: { type: 'spacer', settings: { height: 24 } },
            },
          ],
        },
      },
      key,
    )
    const responses = await Promise.all(Array.from({ length: 10 }, () => w.call(req)))
    checkRace(t, responses, 200)
    const after = await w.setup(w.ids.storeId, { method: 'GET', url: `/api/v1/themes/${w.ids.draftId}` })
    t.equal(after.version, version + 1, 'the batch was applied once')
    t.equal(
      after.document.pages.find((p: any) => p.id === w.ids.pageId).layout.filter((s: any) => s.type === 'spacer')
        .length,
      1,
      'one spacer added',
    )
  })
})
