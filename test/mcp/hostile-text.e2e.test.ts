import t from 'tap'
import { testApp } from '../support/app.ts'
import { callTool, errorOf } from './support.ts'

t.test('text the database cannot store is a tool error with its path, not a server error', async (t) => {
  const app = await testApp(t)
  const lone = await callTool(app, app.keyA, 'create_theme', { name: 'Spring \ud800', provider: 'claude' })
  t.equal(lone.isError, true)
  t.match(errorOf(lone), { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'name', message: /surrogate/ }] } })
  const nul = await callTool(app, app.keyA, 'get_theme', { id: 'thm_\u0000' })
  t.match(errorOf(nul), { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'id', message: /NUL/ }] } })
  const themes = await app.services.db
    .selectFrom('themes')
    .select('name')
    .where('store_id', '=', 'st_demo_atlas')
    .execute()
  t.notOk(
    themes.some((x) => x.name.startsWith('Spring')),
    'nothing was created',
  )
})
