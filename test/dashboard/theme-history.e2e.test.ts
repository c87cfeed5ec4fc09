import t from 'tap'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { Browser, EMAIL_A, EMAIL_B, hiddenFields, passwordOf } from './support.ts'

// Theme history in the dashboard (issue 14): versions page, side-by-side comparison with outlined
// sections in two previews, versioned previews, revert-to-version, a publish confirmation that
// publishes exactly the version it showed, the rollback confirmation, isolation and CSRF.

const { app, services, keyA } = await testApp(t)
const a = new Browser(app, '10.14.0.1')
await a.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))
const b = new Browser(app, '10.14.0.2')
await b.signIn(EMAIL_B, await passwordOf(services, EMAIL_B))

const api = async (method: string, url: string, payload?: object) => {
  const res = await app.inject({ method: method as 'GET', url, headers: bearer(keyA), ...(payload ? { payload } : {}) })
  return { status: res.statusCode, body: res.json() as any }
}
const batch = (id: string, operations: unknown[]) => api('POST', `/api/v1/themes/${id}/batch`, { operations })
const themeRow = (id: string) =>
  services.db
    .selectFrom('themes')
    .select(['version', 'status', 'document'])
    .where('theme_id', '=', id)
    .executeTakeFirstOrThrow()
const eventCount = async () =>
  Number(
    (
      await services.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

async function newDraft(name: string) {
  const created = await api('POST', '/api/v1/themes', { name, provider: 'claude' })
  return created.body.data.id as string
}

// A draft with a section added (gap-a), a token change and a settings change: versions 1..4.
let draft = ''
t.before(async () => {
  draft = await newDraft('History draft')
  const statuses = [
    await batch(draft, [
      {
        op: 'createSection',
        target: { template: 'home' },
        index: 0,
        section: { id: 'gap-a', type: 'spacer', settings: { height: 20 } },
      },
    ]),
    await batch(draft, [{ op: 'updateTokens', tokens: { primaryColor: '#123456' } }]),
    await batch(draft, [{ op: 'updateSection', sectionId: 'gap-a', settings: { height: 48 } }]),
  ].map((r) => r.status)
  if (statuses.some((s) => s !== 200)) throw new Error(`setup failed: ${statuses.join(' ')}`)
})

t.test('versions page: newest first, actor, channel, summary; paginated', async (t) => {
  const res = await a.get(`/dashboard/themes/${draft}/versions`)
  t.equal(res.statusCode, 200)
  t.notMatch(String(res.headers['content-security-policy']), /unsafe-inline/)
  t.equal(res.headers['cache-control'], 'no-store')
  const versions = [...res.body.matchAll(/<td class="nowrap" data-label="Version"><strong>(\d+)<\/strong>/g)].map((m) =>
    Number(m[1]),
  )
  t.same(
    versions,
    [...versions].sort((x, y) => y - x),
    'newest first',
  )
  t.equal(versions[0], (await themeRow(draft)).version, 'the current version leads')
  t.match(res.body, /Test app <span class="muted show-sm">via the API/, 'the actor, named as on every page')
  t.match(res.body, />via the API</, 'the channel')
  t.match(res.body, /primaryColor/, 'the readable summary')
  t.match(res.body, /Revert to this/)
  t.match(
    res.body,
    /<strong>Spacer<\/strong> <span class="muted">on Home page<\/span><div class="muted mono">gap-a<\/div><\/td><td data-label="Last change">version 4 /,
    'blame: the section was last changed by version 4',
  )
  t.match(
    res.body,
    /<strong>Main colour<\/strong> <span class="muted">design token<\/span><\/td><td data-label="Last change">version 3 /,
    'blame: the token by version 3',
  )

  const long = await newDraft('Long history')
  for (let i = 0; i < 24; i++)
    await batch(long, [{ op: 'updateTokens', tokens: { primaryColor: `#0000${(i + 16).toString(16)}` } }])
  const first = await a.get(`/dashboard/themes/${long}/versions`)
  t.equal([...first.body.matchAll(/<td class="nowrap" data-label="Version">/g)].length, 20, 'a page of 20')
  const older = /href="([^"]*\/versions\?cursor=[^"]+)">Older versions/.exec(first.body)?.[1]
  t.ok(older, 'a link to older versions')
  const second = await a.get(older!.replace(/&amp;/g, '&'))
  t.equal(second.statusCode, 200)
  t.match(second.body, /<strong>1<\/strong>/, 'the creation is on the last page')
  t.notMatch(second.body, /Older versions/)
  const tampered = await a.get(`/dashboard/themes/${long}/versions?cursor=not-a-cursor`)
  t.equal(tampered.statusCode, 200)
  t.match(tampered.body, /no longer valid/)
})

t.test('compare two points: structural diff and two previews with the touched sections outlined', async (t) => {
  const res = await a.get(`/dashboard/themes/${draft}/compare?from=1&to=draft`)
  t.equal(res.statusCode, 200)
  t.match(res.body, /Compare version 1 with the current theme \(version 4\)/)
  t.match(res.body, /<span class="pill added">added<\/span><\/td><td><strong>Spacer<\/strong>/)
  // Settings by the editor's labels (src/theme/merchant-texts.ts), colours with a swatch.
  t.match(res.body, /<td>Main colour<\/td>/)
  const changes = res.body.slice(res.body.indexOf('<div class="card diff">'))
  t.notMatch(changes, /primaryColor|templates\.home/, 'the changes name no raw key or path')
  t.match(res.body, /<svg class="swatch"[^>]*><rect width="1" height="1" fill="#123456"\/><\/svg> #123456/)
  // The points to compare are picked from a list: live, now, and each version by what it changed.
  t.match(res.body, /<select id="cmp-from" name="from">.*<option value="1" selected>Version 1: /s)
  t.match(
    res.body,
    /<select id="cmp-to" name="to"><option value="live">The live theme<\/option><option value="draft" selected>This theme now \(version 4\)<\/option>/,
  )
  t.match(res.body, /The design tokens differ too/)
  t.match(
    res.body,
    new RegExp(`<div class="preview-viewport"><iframe src="/dashboard/themes/${draft}/versions/1/preview"`),
    'left: version 1 (nothing of it was touched)',
  )
  t.match(
    res.body,
    new RegExp(
      `<div class="preview-viewport"><iframe src="/dashboard/themes/${draft}/versions/4/preview\\?added=gap-a"`,
    ),
    'right: version 4 with the added section outlined',
  )
  t.match(res.body, /Revert draft to version 1/)

  const changed = await a.get(`/dashboard/themes/${draft}/compare?from=3&to=4`)
  t.match(
    changed.body,
    /<td>Height<\/td><td class="before">20<\/td><td class="after">48<\/td>/,
    'the setting, before and after',
  )
  t.match(changed.body, /versions\/3\/preview\?changed=gap-a/)
  t.match(changed.body, /versions\/4\/preview\?changed=gap-a/)

  const live = await a.get(`/dashboard/themes/${draft}/compare`)
  t.equal(live.statusCode, 200, 'from live to draft by default')
  t.match(live.body, /the live theme “[^”]+” \(version \d+\)/)

  const bad = await a.get(`/dashboard/themes/${draft}/compare?from=yesterday&to=draft`)
  t.equal(bad.statusCode, 400)
  t.match(bad.body, /“From” must be a version number, draft or live/)
  const missing = await a.get(`/dashboard/themes/${draft}/compare?from=999&to=draft`)
  t.equal(missing.statusCode, 404)
  t.match(missing.body, /no version 999/)
})

t.test('a version previews through the same renderer; outlines come from an external stylesheet', async (t) => {
  const v1 = await a.get(`/dashboard/themes/${draft}/versions/1/preview`)
  t.equal(v1.statusCode, 200)
  t.match(v1.body, /version 1<\/span>/, 'the banner names the version')
  t.notMatch(v1.body, /data-section-id="gap-a"/, 'version 1 had no gap-a')
  t.match(v1.body, new RegExp(`href="/dashboard/themes/${draft}/versions/1/preview/`), 'links stay on version 1')
  const now = await a.get(`/dashboard/themes/${draft}/preview`)
  t.match(now.body, /data-section-id="gap-a"/)
  const v2 = await a.get(`/dashboard/themes/${draft}/versions/2/preview?added=gap-a`)
  t.match(v2.body, /<link rel="stylesheet" href="\/dashboard\/assets\/highlight.css\?added=gap-a"><\/head>/)
  t.notMatch(String(v2.headers['content-security-policy']), /unsafe-inline/)
  const css = await a.get('/dashboard/assets/highlight.css?added=gap-a&changed=x%22%7Dbody%7Bdisplay:none')
  t.match(css.body, /\.sf-section\[data-section-id="gap-a"\]\{outline:5px solid #15803d/)
  t.notMatch(css.body, /display:none/, 'only ids reach the stylesheet')
  t.equal((await a.get(`/dashboard/themes/${draft}/versions/99/preview`)).statusCode, 404)
  t.equal((await a.get(`/dashboard/themes/${draft}/versions/x1/preview`)).statusCode, 404)
})

t.test(
  'revert to a version from the versions page: a new version equal to it, audited as merchant/dashboard',
  async (t) => {
    const before = await themeRow(draft)
    const page = await a.get(`/dashboard/themes/${draft}/versions`)
    const events = await eventCount()
    t.equal(
      (
        await a.post(
          `/dashboard/themes/${draft}/revert`,
          { toVersion: '1', expectedVersion: String(before.version) },
          { csrf: null },
        )
      ).statusCode,
      403,
      'no CSRF token: refused',
    )
    t.equal(
      (
        await a.post(
          `/dashboard/themes/${draft}/revert`,
          { toVersion: '1', expectedVersion: String(before.version) },
          { csrf: 'forged' },
        )
      ).statusCode,
      403,
      'a wrong CSRF token: refused',
    )
    a.lastHtml = page.body
    const stale = await a.post(`/dashboard/themes/${draft}/revert`, {
      toVersion: '1',
      expectedVersion: String(before.version - 1),
    })
    t.equal(stale.statusCode, 409)
    t.match(stale.body, /Nothing was reverted: the theme changed after this page was shown/)
    const bad = await a.post(`/dashboard/themes/${draft}/revert`, {
      toVersion: 'one',
      expectedVersion: String(before.version),
    })
    t.equal(bad.statusCode, 400)
    t.same(await themeRow(draft), before, 'the theme did not change')
    t.equal(await eventCount(), events + 1, 'only the refused attempt is recorded (the activity view shows it)')

    const done = await a.post(`/dashboard/themes/${draft}/revert`, {
      toVersion: '1',
      expectedVersion: String(before.version),
    })
    t.equal(done.statusCode, 303)
    const after = await themeRow(draft)
    t.ok(after.version > before.version, 'a new version')
    t.same(
      after.document,
      (await api('GET', `/api/v1/themes/${draft}/versions/1`)).body.data.document,
      'equal to version 1',
    )
    const row = await services.db
      .selectFrom('developer_activity')
      .selectAll()
      .where('store_id', '=', STORE_A)
      .where('action', '=', 'revertTheme')
      .orderBy('first_position', 'desc')
      .executeTakeFirstOrThrow()
    t.equal(row.credential_kind, 'merchant')
    t.equal(row.channel, 'dashboard')
    const list = await a.get(`/dashboard/themes/${draft}/versions?done=reverted`)
    t.match(list.body, /Reverted\./)
    t.match(list.body, /<td data-label="Who">You </)
  },
)

t.test('publish confirmation: diff against live, publishes the version shown, refuses a later change', async (t) => {
  const id = await newDraft('To publish')
  await batch(id, [{ op: 'updateTokens', tokens: { primaryColor: '#abcdef' } }])
  const confirm = await a.get(`/dashboard/themes/${id}/publish`)
  t.equal(confirm.statusCode, 200)
  t.match(confirm.body, /Publish version 2/)
  t.match(confirm.body, /#abcdef/, 'the diff against the live theme')
  t.match(confirm.body, /Live now: “[^”]+”, version \d+/)
  t.match(
    confirm.body,
    new RegExp(`<div class="preview-viewport"><iframe src="/dashboard/themes/${id}/versions/2/preview\\?`),
    'the preview of exactly that version',
  )
  const form = hiddenFields(confirm.body, `/dashboard/themes/${id}/publish`)
  t.same(form, { expectedVersion: '2' })

  // An agent changes the draft after the merchant opened the page.
  await batch(id, [{ op: 'updateTokens', tokens: { primaryColor: '#ff0000' } }])
  const refused = await a.post(`/dashboard/themes/${id}/publish`, form)
  t.equal(refused.statusCode, 409)
  t.match(
    refused.body,
    /Nothing was published: “To publish” changed after this page was shown \(you reviewed version 2; it is now at version 3\)/,
  )
  t.equal((await themeRow(id)).status, 'draft', 'nothing went live')
  t.match(refused.body, /#ff0000/, 'the page shows the new changes')
  t.equal((await a.post(`/dashboard/themes/${id}/publish`, {})).statusCode, 400, 'without the version shown: refused')
  t.equal((await themeRow(id)).status, 'draft')

  const again = hiddenFields(refused.body, `/dashboard/themes/${id}/publish`)
  t.same(again, { expectedVersion: '3' })
  const page = a.lastHtml
  t.equal(
    (await a.post(`/dashboard/themes/${id}/publish`, again, { csrf: null })).statusCode,
    403,
    'no CSRF token: refused',
  )
  t.equal(
    (await a.post(`/dashboard/themes/${id}/publish`, again, { csrf: 'forged' })).statusCode,
    403,
    'a wrong CSRF token: refused',
  )
  t.equal((await themeRow(id)).status, 'draft', 'nothing went live')
  a.lastHtml = page
  const published = await a.post(`/dashboard/themes/${id}/publish`, again)
  t.equal(published.statusCode, 303)
  const row = await themeRow(id)
  t.equal(row.status, 'active')
  t.equal((row.document as any).theme.primaryColor, '#ff0000', 'the version shown went live')
  const activity = await services.db
    .selectFrom('developer_activity')
    .selectAll()
    .where('store_id', '=', STORE_A)
    .where('action', '=', 'publishTheme')
    .orderBy('first_position', 'desc')
    .executeTakeFirstOrThrow()
  t.equal(activity.credential_kind, 'merchant')
  t.equal(activity.channel, 'dashboard')

  // Rollback: the confirmation names the theme and version that go live again.
  const former = await services.db
    .selectFrom('themes')
    .select(['theme_id', 'name', 'version'])
    .where('store_id', '=', STORE_A)
    .where('status', '=', 'private')
    .orderBy('published_at', 'desc')
    .executeTakeFirstOrThrow()
  const rb = await a.get('/dashboard/themes/rollback')
  t.equal(rb.statusCode, 200)
  t.match(rb.body, `Roll back to “${former.name}” version ${former.version}`)
  t.match(rb.body, /Stops being live<\/dt><dd><strong>To publish<\/strong>, version \d+/)
  const rbForm = hiddenFields(rb.body, '/dashboard/themes/rollback')
  t.same(rbForm, { themeId: former.theme_id, expectedVersion: String(former.version) })
  const csrf = a.csrf()
  const wrong = await a.post('/dashboard/themes/rollback', { ...rbForm, themeId: id }, { csrf })
  t.equal(wrong.statusCode, 409, 'a theme other than the former live one')
  t.equal((await themeRow(id)).status, 'active', 'nothing changed')
  for (const bad of [
    { themeId: '', expectedVersion: 'x' },
    { ...rbForm, expectedVersion: ['1', '2'] },
    { ...rbForm, extra: '1' },
    { themeId: 'a\u0007b', expectedVersion: '1' },
  ] as Record<string, string | string[]>[]) {
    const res = await a.post('/dashboard/themes/rollback', bad, { csrf })
    t.equal(res.statusCode, 400, `bad input ${JSON.stringify(bad).slice(0, 60)}`)
    t.match(res.body, /Nothing was rolled back/)
  }
  t.equal((await themeRow(id)).status, 'active', 'nothing changed')
  t.equal((await a.post('/dashboard/themes/rollback', rbForm, { csrf: null })).statusCode, 403)
  t.equal((await a.post('/dashboard/themes/rollback', rbForm, { csrf })).statusCode, 303)
  t.equal((await themeRow(former.theme_id)).status, 'active')
  t.equal((await themeRow(id)).status, 'private')
})

t.test("isolation: another store's merchant gets 404 on every history page and action, nothing changes", async (t) => {
  const events = await eventCount()
  const before = await themeRow(draft)
  for (const path of [
    `/dashboard/themes/${draft}/versions`,
    `/dashboard/themes/${draft}/compare?from=1&to=draft`,
    `/dashboard/themes/${draft}/versions/1/preview`,
    `/dashboard/themes/${draft}/versions/1/preview/products`,
    `/dashboard/themes/${draft}/publish`,
  ]) {
    t.equal((await b.get(path)).statusCode, 404, `GET ${path}`)
  }
  await b.get('/dashboard/themes')
  const csrf = b.csrf()
  t.equal(
    (
      await b.post(
        `/dashboard/themes/${draft}/revert`,
        { toVersion: '1', expectedVersion: String(before.version) },
        { csrf },
      )
    ).statusCode,
    404,
  )
  t.equal(
    (await b.post(`/dashboard/themes/${draft}/publish`, { expectedVersion: String(before.version) }, { csrf }))
      .statusCode,
    404,
  )
  const rb = await b.post(
    '/dashboard/themes/rollback',
    { themeId: draft, expectedVersion: String(before.version) },
    { csrf },
  )
  t.equal(rb.statusCode, 409, "store B's rollback never considers store A's themes")
  t.same(await themeRow(draft), before)
  t.equal(await eventCount(), events)
})
