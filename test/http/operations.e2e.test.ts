import t, { type Test } from 'tap'
import { operations } from '../../src/operations/catalog.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { contractOperation } from './support/contract.ts'
import { operationCases } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld, type Res } from './support/world.ts'

// Every operation: success, and each error status it can produce (400, 401, 403, 404, 409, 429),
// each with its code and the error envelope. A tight rate limit makes 429 reachable; every
// request carries a freshly minted key, so only the 429 cases run out of budget.

const RATE_MAX = 5

t.test('the case table covers every operation of the catalog and of the contract', async (t) => {
  t.same(operationCases.map((c) => c.operationId).sort(), operations.map((o) => o.operationId).sort())
  t.equal(operationCases.length, 39)
})

t.test('every operation: success and each documented error', async (t) => {
  const w = await makeWorld(t, { plugins: false, rateLimit: { max: RATE_MAX, windowSeconds: 60 } })
  const envelope = (t: Test, res: Res, status: number, code: string) => {
    t.equal(res.statusCode, status, `status (${res.body.slice(0, 300)})`)
    t.same(envelopeProblems(res, { status, code }), [], 'error envelope')
  }

  for (const c of operationCases) {
    const op = contractOperation(c.operationId)
    await t.test(c.operationId, async (t) => {
      const ok = await w.call(await c.success(w, w.ids))
      t.equal(ok.statusCode, c.successStatus, `success (${ok.body.slice(0, 300)})`)
      const body = ok.json()
      t.type(body.data, 'object', 'success envelope has data')
      t.notOk('error' in body, 'no error on success')
      t.match(ok.headers['x-request-id'], /.+/, 'X-Request-Id on success')

      const noAuth = await w.call(c.base(w.ids), { auth: null })
      envelope(t, noAuth, 401, 'UNAUTHENTICATED')
      t.match(noAuth.headers['www-authenticate'], /^Bearer /, '401 carries WWW-Authenticate')

      const lacking = SCOPES.filter((s) => !op.scopes.includes(s))
      const forbidden = await w.call(c.base(w.ids), { scopes: lacking })
      envelope(t, forbidden, 403, 'INSUFFICIENT_SCOPE')
      t.same(forbidden.json().error.details?.requiredScopes, op.scopes, 'details.requiredScopes')

      for (const e of c.errors) {
        const res = await w.call(await e.build(w, w.ids))
        envelope(t, res, e.status, e.code)
        if (e.status === 400 && e.code !== 'INVALID_IDEMPOTENCY_KEY')
          t.type(res.json().error.details?.issues, Array, `${e.name}: details.issues`)
        if (e.code === 'VERSION_CONFLICT')
          t.type(res.json().error.details?.currentVersion, 'number', `${e.name}: details.currentVersion`)
        t.comment(`${e.status} ${e.code}: ${e.name}`)
      }

      // 429: a key that spent its budget (on anything under /api) is refused on this operation too.
      const key = await w.key(w.ids.storeId)
      for (let i = 0; i < RATE_MAX; i++)
        await w.call({ method: 'GET', url: '/api/v1/no-such-route' }, { auth: `Bearer ${key}` })
      const limited = await w.call(c.base(w.ids), { auth: `Bearer ${key}` })
      envelope(t, limited, 429, 'RATE_LIMITED')
      t.match(limited.headers['retry-after'], /^\d+$/, '429 carries Retry-After in seconds')
    })
  }
})
