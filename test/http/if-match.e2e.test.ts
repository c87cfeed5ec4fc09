import t from 'tap'
import { operations } from '../../src/operations/catalog.ts'
import { caseOf } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld, type Req, type World } from './support/world.ts'

// Optimistic concurrency: getTheme's ETag carries the version; every theme mutation takes it back
// as If-Match (or expectedVersion in the body). A stale one is 409 VERSION_CONFLICT with
// details.currentVersion and changes nothing; the current one succeeds; a malformed one is 400.

const ifMatchOps = operations.filter((o) => o.ifMatch).map((o) => o.operationId)
const themeIdOf = (req: Req) => /\/api\/v1\/themes\/([^/?]+)/.exec(req.url)![1]!
const version = async (w: World, themeId: string) =>
  (await w.setup(w.ids.storeId, { method: 'GET', url: `/api/v1/themes/${themeId}` })).version as number
const withHeader = (req: Req, name: string, value: string): Req => ({
  ...req,
  headers: { ...req.headers, [name]: value },
})

t.test('getTheme answers an ETag that matches the version', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const res = await w.call({ method: 'GET', url: `/api/v1/themes/${w.ids.draftId}` })
  t.equal(res.headers.etag, `"${res.json().data.version}"`)
  const updated = await w.call({
    method: 'PATCH',
    url: `/api/v1/themes/${w.ids.draftId}`,
    payload: { name: 'Next' },
    headers: { 'if-match': String(res.headers.etag) },
  })
  t.equal(updated.statusCode, 200)
  t.equal(updated.headers.etag, `"${res.json().data.version + 1}"`, 'the answer carries the new ETag')
})

t.test('every theme mutation: stale, current, malformed, disagreeing', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  t.same(ifMatchOps.sort(), [
    'applyThemeBatch',
    'archiveTheme',
    'createThemePage',
    'createThemeSection',
    'deleteThemePage',
    'deleteThemeSection',
    'publishTheme',
    'revertTheme',
    'updateTheme',
    'updateThemePage',
    'updateThemeSection',
  ])
  for (const operationId of ifMatchOps) {
    await t.test(operationId, async (t) => {
      const c = caseOf(operationId)
      const req = await c.success(w, w.ids)
      const themeId = themeIdOf(req)
      const current = await version(w, themeId)
      const rows = await w.themeRows(w.ids.storeId)
      const events = await w.stateEventCount()
      const unchanged = async (label: string) => {
        t.same(await w.themeRows(w.ids.storeId), rows, `${label}: no theme changed`)
        t.equal(await w.stateEventCount(), events, `${label}: no event appended`)
      }

      for (const stale of [current - 1, current + 1]) {
        const res = await w.call(withHeader(req, 'if-match', `"${stale}"`))
        t.same(
          envelopeProblems(res, { status: 409, code: 'VERSION_CONFLICT' }),
          [],
          `If-Match "${stale}" (current ${current}): 409 VERSION_CONFLICT`,
        )
        t.equal(res.json().error.details?.currentVersion, current, 'details.currentVersion')
        await unchanged(`If-Match "${stale}"`)
      }
      if (req.method !== 'DELETE') {
        const body = { ...(req.payload as object), expectedVersion: current - 1 }
        const res = await w.call({ ...req, payload: body })
        t.same(
          envelopeProblems(res, { status: 409, code: 'VERSION_CONFLICT' }),
          [],
          'stale expectedVersion: 409 VERSION_CONFLICT',
        )
        t.equal(res.json().error.details?.currentVersion, current)
        await unchanged('stale expectedVersion')
        const disagree = await w.call(
          withHeader(
            { ...req, payload: { ...(req.payload as object), expectedVersion: current } },
            'if-match',
            `"${current - 1}"`,
          ),
        )
        t.same(
          envelopeProblems(disagree, { status: 400, code: 'VALIDATION_FAILED' }),
          [],
          'If-Match and expectedVersion disagree: 400',
        )
        await unchanged('disagreeing versions')
      }
      for (const malformed of ['abc', `${current}`, '"abc"', `"${current}", "${current + 1}"`, '""', `"-1"`]) {
        const res = await w.call(withHeader(req, 'if-match', malformed))
        t.same(
          envelopeProblems(res, { status: 400, code: 'VALIDATION_FAILED' }),
          [],
          `malformed If-Match ${malformed}: 400`,
        )
        await unchanged(`malformed If-Match ${malformed}`)
      }

      const ok = await w.call(withHeader(req, 'if-match', `W/"${current}"`))
      t.equal(ok.statusCode, c.successStatus, `the current version (weak ETag) succeeds (${ok.body.slice(0, 200)})`)
      t.ok(
        (await version(w, themeId)) > current || operationId === 'publishTheme' || operationId === 'archiveTheme',
        'the version grew',
      )
    })
  }
})

t.test('If-Match "*" and no If-Match apply to the latest version', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const url = `/api/v1/themes/${w.ids.draftId}`
  const v = await version(w, w.ids.draftId)
  t.equal(
    (await w.call({ method: 'PATCH', url, payload: { name: 'Star' }, headers: { 'if-match': '*' } })).statusCode,
    200,
  )
  t.equal((await w.call({ method: 'PATCH', url, payload: { name: 'None' } })).statusCode, 200)
  t.equal(await version(w, w.ids.draftId), v + 2)
  const matching = await w.call({ method: 'PATCH', url, payload: { name: 'Body', expectedVersion: v + 2 } })
  t.equal(matching.statusCode, 200, 'a matching expectedVersion succeeds')
})
