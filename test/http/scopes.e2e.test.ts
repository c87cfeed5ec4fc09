import t from 'tap'
import { SCOPES, type Scope } from '../../src/auth/scopes.ts'
import { contractOperation } from './support/contract.ts'
import { operationCases } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld } from './support/world.ts'

// The step-up challenge every 403 carries (RFC 6750 §3, RFC 9728 §5.1): every scope the
// operation needs, and the protected-resource metadata the 401 challenge of MCP points at.
const challenge = (required: readonly string[]) =>
  `Bearer error="insufficient_scope", scope="${required.join(' ')}", resource_metadata="http://storefront.test/.well-known/oauth-protected-resource/api/v1/mcp"`

// The scope matrix: for every operation, a key lacking any one required scope is refused with
// 403 INSUFFICIENT_SCOPE (details.requiredScopes / grantedScopes) and changes nothing; a key with
// exactly the required scopes succeeds. Every 403 carries the insufficient_scope challenge. Where the contract lists two scopes, both are required.
// A refused attempt at a change is audited (one CommandRejected row,
// docs/decisions/0020-audited-refusals.md); a refused read is not.

t.test('scope matrix over every operation', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  for (const c of operationCases) {
    const required = contractOperation(c.operationId).scopes
    await t.test(c.operationId, async (t) => {
      const lacking: { label: string; granted: Scope[] }[] = []
      for (const missing of required) {
        lacking.push({ label: `every scope but ${missing}`, granted: SCOPES.filter((s) => s !== missing) })
        if (required.length > 1)
          lacking.push({
            label: `only the other required scope (no ${missing})`,
            granted: required.filter((s) => s !== missing),
          })
      }
      lacking.push({ label: 'no scopes at all', granted: [] })
      for (const { label, granted } of lacking) {
        const before = await w.eventCount()
        const stateBefore = await w.stateEventCount()
        const res = await w.call(c.base(w.ids), { scopes: granted })
        t.equal(res.statusCode, 403, `${label}: 403 (${res.body.slice(0, 200)})`)
        t.same(envelopeProblems(res, { status: 403, code: 'INSUFFICIENT_SCOPE' }), [], `${label}: envelope`)
        t.equal(
          res.headers['www-authenticate'],
          challenge(required),
          `${label}: WWW-Authenticate insufficient_scope challenge`,
        )
        const details = res.json().error.details ?? {}
        t.same(details.requiredScopes, required, `${label}: details.requiredScopes`)
        t.same([...(details.grantedScopes ?? [])].sort(), [...granted].sort(), `${label}: details.grantedScopes`)
        t.equal(await w.stateEventCount(), stateBefore, `${label}: nothing changed`)
        const audited = contractOperation(c.operationId).method === 'GET' ? 0 : 1
        t.equal(
          (await w.eventCount()) - before,
          audited,
          `${label}: ${audited ? 'the attempt is audited' : 'a refused read is not audited'}`,
        )
      }
      const ok = await w.call(await c.success(w, w.ids), { scopes: required })
      t.equal(ok.statusCode, c.successStatus, `exactly ${required.join(' + ')}: success (${ok.body.slice(0, 200)})`)
    })
  }
})

t.test('publishing is never possible without themes:publish, whatever else the key holds', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const everythingElse = SCOPES.filter((s) => s !== 'themes:publish')
  const before = await w.themeRows(w.ids.storeId)
  for (const id of [w.ids.draftId, w.ids.activeThemeId]) {
    const res = await w.call(
      { method: 'POST', url: `/api/v1/themes/${id}/publish`, payload: {} },
      { scopes: everythingElse },
    )
    t.equal(res.statusCode, 403)
    t.equal(res.json().error.code, 'INSUFFICIENT_SCOPE')
    t.equal(res.headers['www-authenticate'], challenge(['themes:publish']))
  }
  t.same(await w.themeRows(w.ids.storeId), before, 'no theme changed')
})
