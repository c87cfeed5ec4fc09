import t from 'tap'
import { SCOPE_DESCRIPTIONS, SCOPES, scopeLabel } from '../../src/auth/scopes.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { Browser, EMAIL_A, passwordOf } from './support.ts'

// The dashboard's everyday tools (issue 34, point 18): a View store link on every page, a Copy
// button beside every value shown once (from a script file of the dashboard's own origin, never
// inline script), and the key form's scope hints from the one scope list (src/auth/scopes.ts).

const { app, services } = await testApp(t)
const a = new Browser(app, '10.34.18.1')
await a.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))
const slug = (
  await services.db.selectFrom('stores').select('slug').where('store_id', '=', STORE_A).executeTakeFirstOrThrow()
).slug

t.test('every page links to the live store, opening in a new tab', async (t) => {
  for (const url of ['/dashboard/themes', '/dashboard/developer', '/dashboard/orders', '/dashboard/account']) {
    const res = await a.get(url)
    t.match(
      res.body,
      new RegExp(`<a class="who-link" href="/s/${slug}" target="_blank" rel="noopener">View store`),
      `${url}: View store`,
    )
  }
})

t.test('the script is a file of this origin, allowed by the CSP; no page has inline script', async (t) => {
  const page = await a.get('/dashboard/developer')
  const csp = String(page.headers['content-security-policy'])
  t.match(csp, /script-src 'self'/)
  t.notMatch(csp, /unsafe-inline|unsafe-eval/)
  const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
  t.same(
    scripts.map((m) => [m[1]!.trim(), m[2]]),
    [['src="/dashboard/assets/copy-button.js" defer', '']],
    'one external script, no inline code',
  )
  const js = await a.get('/dashboard/assets/copy-button.js')
  t.equal(js.statusCode, 200)
  t.match(String(js.headers['content-type']), /^text\/javascript/)
  t.match(js.body, /navigator\.clipboard\.writeText/)
})

t.test('a secret shown once has a Copy button for exactly that value', async (t) => {
  await a.get('/dashboard/developer')
  const created = await a.post('/dashboard/developer/apps', {
    name: 'Copy test',
    kind: 'confidential',
    redirectUris: '',
  })
  t.equal(created.statusCode, 201)
  const secret = /<code class="secret" id="shown-once">(sfcs_[A-Za-z0-9]+)<\/code>/.exec(created.body)?.[1]
  t.ok(secret, 'the client secret, in the element the button copies')
  t.match(created.body, /<button type="button" class="secondary copy" data-copy="shown-once" hidden>Copy/)
  t.match(created.body, /data-copy="client-id"/, 'the client ID can be copied too')
  const appId = /\/dashboard\/developer\/apps\/(app_[A-Za-z0-9_-]+)\/keys/.exec(created.body)?.[1]
  const key = await a.post(`/dashboard/developer/apps/${appId}/keys`, { name: 'Copy key', scopes: ['themes:read'] })
  t.equal(key.statusCode, 201)
  t.match(
    key.body,
    /<code class="secret" id="shown-once">sk_live_[A-Za-z0-9]+<\/code><button type="button" class="secondary copy" data-copy="shown-once" hidden>/,
  )
})

t.test('scope hints: every scope the contract has, with its one description, and no other', async (t) => {
  const appRow = await services.db
    .selectFrom('apps')
    .select('app_id')
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()
  const res = await a.get(`/dashboard/developer/apps/${appRow.app_id}`)
  const offered = [...res.body.matchAll(/<input type="checkbox" name="scopes" value="([^"]+)"/g)].map((m) => m[1])
  t.same(offered, [...SCOPES], 'every scope, in the contract order')
  for (const s of SCOPES) {
    t.ok(SCOPE_DESCRIPTIONS[s], `${s} has a description`)
    t.match(
      res.body,
      new RegExp(`value="${s}"[^>]*> <span><span class="mono">${s}</span> <span class="hint">${scopeLabel(s)}</span>`),
      `${s}: its hint`,
    )
  }
})
