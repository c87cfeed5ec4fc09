import t from 'tap'
import { gunzipSync } from 'node:zlib'
import { EDITOR_CSP } from '../../src/editor/page.ts'
import { createDraft, editorTestApp, STORE_A, STORE_B } from './support.ts'

// The editor's HTTP surface without a browser: sign-in redirect, the page and its CSP, the
// bundled assets, and the JSON routes (session, CSRF, If-Match, the agents' validation and audit).

t.test('editor routes', async (t) => {
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Routes draft')
  const inject = (method: string, url: string, headers: Record<string, string> = {}, body?: unknown) =>
    env.app.inject({
      method: method as 'GET',
      url,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
  const api = `/dashboard/themes/editor/api`
  // A real merchant session; the editor page hands out the CSRF token and sets its secret cookie.
  const sessionCookie = `sf_session=${await env.signIn(env.merchantA)}`
  const opened = await inject('GET', `/dashboard/themes/editor?themeId=${themeId}`, { cookie: sessionCookie })
  const secret = /sf_csrf=([^;]+)/.exec(String(opened.headers['set-cookie']))?.[1]
  const token = /data-csrf-token="([^"]+)"/.exec(opened.body)?.[1]
  t.ok(secret && token, 'the page sets the CSRF secret cookie and carries the token')
  const cookie = { cookie: `${sessionCookie}; sf_csrf=${secret}` }
  const csrf = { 'x-csrf-token': token! }

  await t.test('the page', async (t) => {
    const anonymous = await inject('GET', `/dashboard/themes/editor?themeId=${themeId}`)
    t.equal(anonymous.statusCode, 303, 'without a session: sign in first')
    t.equal(
      anonymous.headers.location,
      `/dashboard/login?next=${encodeURIComponent(`/dashboard/themes/editor?themeId=${themeId}`)}`,
    )

    const page = await inject('GET', `/dashboard/themes/editor?themeId=${themeId}`, cookie)
    t.equal(page.statusCode, 200)
    t.equal(page.headers['content-security-policy'], EDITOR_CSP)
    t.match(EDITOR_CSP, /script-src 'self'/)
    t.notMatch(EDITOR_CSP, /unsafe-inline|unsafe-eval/)
    t.equal(page.headers['cache-control'], 'no-store')
    t.equal(page.headers['x-content-type-options'], 'nosniff')
    t.equal(page.headers['x-frame-options'], 'SAMEORIGIN', 'helmet’s headers')
    t.equal(page.headers['cross-origin-opener-policy'], 'same-origin')
    t.equal(page.headers['referrer-policy'], 'same-origin')
    t.equal(page.headers['x-xss-protection'], undefined, 'no Internet Explorer headers (decision 0146)')
    t.equal(page.headers['x-download-options'], undefined)
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    t.equal(scripts.length, 1, 'one script')
    t.match(
      scripts[0]![1],
      /src="\/dashboard\/themes\/editor\/assets\/editor-[0-9a-f]{12}\.js"/,
      'from the service itself',
    )
    t.equal(scripts[0]![2], '', 'no inline code')
    t.notMatch(page.body, /\sstyle=|\son[a-z]+=/i, 'no inline style or handler attributes')
    t.match(page.body, new RegExp(`data-theme-id="${themeId}"`))
    t.match(page.body, /data-csrf-token="[^"]{20,}"/)

    for (const bad of ['thm_nope', '../etc', '']) {
      const missing = await inject('GET', `/dashboard/themes/editor?themeId=${encodeURIComponent(bad)}`, cookie)
      t.equal(missing.statusCode, 404, `themeId ${JSON.stringify(bad)}: 404`)
      t.match(missing.body, /Theme not found/)
    }
  })

  await t.test('the assets', async (t) => {
    const page = await inject('GET', `/dashboard/themes/editor?themeId=${themeId}`, cookie)
    const [, js] = /src="([^"]+\.js)"/.exec(page.body)!
    const [, css] = /href="([^"]+\.css)"/.exec(page.body)!
    const script = await inject('GET', js!, { 'accept-encoding': 'gzip' })
    t.equal(script.statusCode, 200)
    t.match(script.headers['content-type'], /javascript/)
    t.equal(script.headers['content-encoding'], 'gzip')
    t.match(script.headers['cache-control'], /immutable/)
    const code = gunzipSync(script.rawPayload).toString('utf8')
    t.ok(code.length > 1000)
    t.notMatch(code, /new Function\(|\beval\(/, 'nothing the CSP would refuse (no eval, no new Function)')
    t.equal((await inject('GET', css!)).statusCode, 200)
    t.equal((await inject('GET', '/dashboard/themes/editor/assets/editor-000000000000.js')).statusCode, 404)
  })

  await t.test('the JSON routes', async (t) => {
    const noSession = await inject('GET', `${api}/themes/${themeId}`)
    t.equal(noSession.statusCode, 401)
    t.equal(noSession.json().error.code, 'UNAUTHENTICATED')

    const got = await inject('GET', `${api}/themes/${themeId}`, cookie)
    t.equal(got.statusCode, 200)
    const etag = got.headers.etag as string
    t.equal(etag, `"${got.json().data.version}"`)

    const schema = await inject('GET', `${api}/themes/schema`, cookie)
    const rest = await env.api('GET', '/api/v1/themes/schema')
    t.same(schema.json().data, rest.json.data, 'the same theme schema as the REST operation')

    const op = {
      operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: 'From the editor' } }],
    }
    const noCsrf = await inject('POST', `${api}/themes/${themeId}/batch`, { ...cookie, 'if-match': etag }, op)
    t.equal(noCsrf.statusCode, 403)
    t.equal(noCsrf.json().error.code, 'CSRF_TOKEN_INVALID')
    const wrongCsrf = await inject(
      'POST',
      `${api}/themes/${themeId}/batch`,
      { ...cookie, 'if-match': etag, 'x-csrf-token': 'nope' },
      op,
    )
    t.equal(wrongCsrf.statusCode, 403)

    const invalid = await inject(
      'POST',
      `${api}/themes/${themeId}/batch`,
      { ...cookie, ...csrf, 'if-match': etag },
      { operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: '<b>x</b>' } }] },
    )
    t.equal(invalid.statusCode, 400)
    t.equal(invalid.json().error.code, 'UNSAFE_CONTENT', 'the agents’ validation, with its code')
    t.equal(invalid.json().error.details.issues[0].path, 'operations[0].settings.heading')

    const applied = await inject('POST', `${api}/themes/${themeId}/batch`, { ...cookie, ...csrf, 'if-match': etag }, op)
    t.equal(applied.statusCode, 200)
    t.equal(applied.headers.etag, `"${got.json().data.version + 1}"`)
    const stale = await inject('POST', `${api}/themes/${themeId}/batch`, { ...cookie, ...csrf, 'if-match': etag }, op)
    t.equal(stale.statusCode, 409)
    t.equal(stale.json().error.code, 'VERSION_CONFLICT')
    const badEtag = await inject(
      'POST',
      `${api}/themes/${themeId}/batch`,
      { ...cookie, ...csrf, 'if-match': 'yesterday' },
      op,
    )
    t.equal(badEtag.statusCode, 400)
    // One If-Match rule for REST and the editor (src/web/if-match.ts): a header and a body that
    // name different versions are refused, not settled in favour of either.
    const disagree = await inject(
      'POST',
      `${api}/themes/${themeId}/batch`,
      { ...cookie, ...csrf, 'if-match': applied.headers.etag as string },
      { ...(op as object), expectedVersion: 1 },
    )
    t.equal(disagree.statusCode, 400, 'If-Match and expectedVersion disagree')
    t.match(disagree.json().error.message, /disagree/)

    const rows = await env.services.db
      .selectFrom('developer_activity')
      .selectAll()
      .where('theme_id', '=', themeId)
      .where('channel', '=', 'editor')
      .orderBy('first_position')
      .execute()
    t.same(
      rows.map((r) => [r.action, r.outcome, r.credential_kind, r.credential_id, r.store_id]),
      [
        ['applyThemeBatch', 'rejected', 'merchant', env.merchantA, STORE_A],
        ['applyThemeBatch', 'applied', 'merchant', env.merchantA, STORE_A],
        ['applyThemeBatch', 'rejected', 'merchant', env.merchantA, STORE_A],
      ],
      'each attempt is in the activity view with actor merchant and channel editor',
    )

    const activity = await inject('GET', `${api}/themes/${themeId}/activity`, cookie)
    t.equal(activity.statusCode, 200)
    t.equal(activity.json().data.activity[0].via, 'the editor')
    const change = activity.json().data.activity.find((a: { outcome: string }) => a.outcome === 'applied')
    t.equal(change.who, 'You', 'names who changed it as every page does')
    t.match(change.atText, / (UTC|\S+ time)$/, 'the time as every page writes it, with its zone')
    t.notMatch(change.summary, /thm_|applyThemeBatch/, 'what changed, in the merchant’s words')

    const products = await inject('GET', `${api}/products?query=tent&limit=5`, cookie)
    t.equal(products.statusCode, 200)
    t.ok(products.json().data.products.length > 0, 'product search over the real catalogue')
    t.ok(products.json().data.products.every((p: { title: string }) => /tent/i.test(p.title)))
    t.equal((await inject('GET', `${api}/collections`, cookie)).statusCode, 200)
    t.equal((await inject('GET', `${api}/media`, cookie)).statusCode, 200)

    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    )
    const uploaded = await inject(
      'POST',
      `${api}/media`,
      { ...cookie, ...csrf },
      { dataBase64: png.toString('base64'), alt: 'dot' },
    )
    t.equal(uploaded.statusCode, 201, 'upload through the media operation')
    t.match(uploaded.json().data.themeUrl, /^\/media\//)

    // The theme checks (the outline's badges): the REST operation's answer, by version, for the
    // merchant's own themes only.
    t.equal((await inject('GET', `${api}/themes/${themeId}/checks`)).statusCode, 401, 'checks: signed in only')
    const version = applied.json().data.theme.version as number
    const checks = await inject('GET', `${api}/themes/${themeId}/checks?version=${version}`, cookie)
    t.equal(checks.statusCode, 200)
    t.equal(checks.headers['cache-control'], 'no-store')
    t.same(
      checks.json().data,
      (await env.api('GET', `/api/v1/themes/${themeId}/checks?version=${version}`)).json.data,
      'the same findings as the REST operation',
    )
    const badVersion = await inject('GET', `${api}/themes/${themeId}/checks?version=first`, cookie)
    t.equal(badVersion.statusCode, 400)
    t.equal(badVersion.json().error.code, 'VALIDATION_FAILED')
    t.equal((await inject('GET', `${api}/themes/${themeId}/checks?version=999`, cookie)).statusCode, 404)
    const other = await env.services.db
      .selectFrom('themes')
      .select('theme_id')
      .where('store_id', '=', STORE_B)
      .executeTakeFirstOrThrow()
    const foreign = await inject('GET', `${api}/themes/${other.theme_id}/checks`, cookie)
    t.equal(foreign.statusCode, 404, 'another store’s theme is not found')

    const unknown = await inject('GET', `${api}/orders`, cookie)
    t.equal(unknown.statusCode, 404, 'operations the editor does not need are not exposed')
    t.equal(unknown.json().error.code, 'NOT_FOUND')
  })
})
