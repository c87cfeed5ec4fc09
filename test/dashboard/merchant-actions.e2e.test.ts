import t from 'tap'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { activeThemeIds, Browser, EMAIL_A, EMAIL_B, hiddenFields, liveThemeId, passwordOf } from './support.ts'

t.test('merchant actions: apps, keys, publish, rollback, isolation, bad input', async (t) => {
  const { app, services, keyB } = await testApp(t)
  const a = new Browser(app, '10.9.0.1')
  t.equal((await a.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))).statusCode, 303)
  const b = new Browser(app, '10.9.0.2')
  t.equal((await b.signIn(EMAIL_B, await passwordOf(services, EMAIL_B))).statusCode, 303)

  let appId = ''
  t.test('a confidential app: client ID and secret shown once, stored hashed', async (t) => {
    await a.get('/dashboard/developer')
    const res = await a.post('/dashboard/developer/apps', {
      name: 'My agent',
      kind: 'confidential',
      redirectUris: 'https://agent.example/cb\nhttp://127.0.0.1/callback',
      preset: 'https://claude.ai/api/mcp/auth_callback',
    })
    t.equal(res.statusCode, 201)
    const secret = /sfcs_[A-Za-z0-9]{43}/.exec(res.body)?.[0]
    t.ok(secret, 'the secret is on the page')
    const row = await services.db
      .selectFrom('apps')
      .selectAll()
      .where('store_id', '=', STORE_A)
      .where('name', '=', 'My agent')
      .executeTakeFirstOrThrow()
    appId = row.app_id
    t.match(row.client_id, /^sfc_/)
    t.not(row.client_secret_hash, secret)
    t.same(row.redirect_uris, [
      'https://agent.example/cb',
      'http://127.0.0.1/callback',
      'https://claude.ai/api/mcp/auth_callback',
    ])
    const again = await a.get(`/dashboard/developer/apps/${appId}`)
    t.equal(again.statusCode, 200)
    t.notMatch(again.body, secret!, 'reloading never shows the secret')
    t.notMatch(again.body, /sfcs_[A-Za-z0-9]{43}/)
    const rotated = await a.post(`/dashboard/developer/apps/${appId}/rotate-secret`, {})
    const next = /sfcs_[A-Za-z0-9]{43}/.exec(rotated.body)?.[0]
    t.ok(next)
    t.not(next, secret)
    t.notMatch((await a.get(`/dashboard/developer/apps/${appId}`)).body, next!)
  })

  t.test('refused redirect URIs: a message for each, nothing stored', async (t) => {
    await a.get(`/dashboard/developer/apps/${appId}`)
    const res = await a.post(`/dashboard/developer/apps/${appId}/redirect-uris`, {
      redirectUris: 'http://evil.example/cb\nhttps://ok.example/cb#x\nhttps://*.example/cb',
    })
    t.equal(res.statusCode, 400)
    t.match(res.body, /http:\/\/evil.example\/cb — http is allowed only on a loopback/)
    t.match(res.body, /fragment/)
    t.match(res.body, /wildcard/)
    const row = await services.db
      .selectFrom('apps')
      .select('redirect_uris')
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow()
    t.equal(row.redirect_uris.length, 3)
    const saved = await a.post(`/dashboard/developer/apps/${appId}/redirect-uris`, {
      redirectUris: 'https://agent.example/cb\ncom.example.agent:/cb',
    })
    t.equal(saved.statusCode, 200)
    t.same(
      (
        await services.db
          .selectFrom('apps')
          .select('redirect_uris')
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).redirect_uris,
      ['https://agent.example/cb', 'com.example.agent:/cb'],
    )
  })

  t.test('an API key works over REST until it is revoked', async (t) => {
    const page = await a.get(`/dashboard/developer/apps/${appId}`)
    t.match(page.body, /value="themes:read" checked/)
    t.notMatch(page.body, /value="themes:publish" checked/, 'themes:publish is not pre-selected')
    const created = await a.post(`/dashboard/developer/apps/${appId}/keys`, {
      name: 'Claude',
      scopes: ['store:read', 'themes:read'],
    })
    t.equal(created.statusCode, 201)
    const key = /sk_live_[A-Za-z0-9]{43}/.exec(created.body)![0]
    t.equal((await app.inject({ url: '/api/v1/themes', headers: bearer(key) })).statusCode, 200)
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/themes',
          headers: bearer(key),
          payload: { name: 'x', provider: 'claude' },
        })
      ).statusCode,
      403,
    )
    const keyRow = await services.db
      .selectFrom('api_keys')
      .select('key_id')
      .where('name', '=', 'Claude')
      .executeTakeFirstOrThrow()
    const revoked = await a.post(`/dashboard/developer/apps/${appId}/keys/${keyRow.key_id}/revoke`, {})
    t.equal(revoked.statusCode, 200)
    t.equal(
      (await app.inject({ url: '/api/v1/themes', headers: bearer(key) })).statusCode,
      401,
      'refused on the next request',
    )
  })

  t.test('every change shows in the activity view, with the refused attempt', async (t) => {
    const res = await a.get('/dashboard/developer/activity?channel=dashboard')
    for (const text of [
      'Created confidential app',
      'Rotated the client secret',
      'Set the redirect URIs',
      'Created API key',
      'Revoked API key',
    ])
      t.match(res.body, text)
    t.match(res.body, /<td data-label="Who" class="col-who">You</)
    const refused = await a.get('/dashboard/developer/activity?outcome=rejected')
    t.match(refused.body, /INSUFFICIENT_SCOPE|No activity/)
    const csv = await a.get('/dashboard/developer/activity.csv?channel=dashboard')
    t.equal(csv.statusCode, 200)
    t.match(csv.headers['content-type'], /text\/csv/)
    t.match(csv.body, /createApiKey/)
    const bad = await a.get('/dashboard/developer/activity?from=yesterday&outcome=maybe&channel[]=x')
    t.equal(bad.statusCode, 200)
    t.match(bad.body, /could not be used/)
  })

  t.test('publish and rollback through the same operations; one active theme; merchant as actor', async (t) => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/themes',
      headers: bearer(await keyFor(STORE_A)),
      payload: { name: 'Agent draft', provider: 'claude' },
    })
    const draftId = created.json().data.id as string
    const liveBefore = await liveThemeId(services, STORE_A)
    const confirm = await a.get(`/dashboard/themes/${draftId}/publish`)
    t.equal(confirm.statusCode, 200)
    t.match(confirm.body, /Publish version 1/)
    const published = await a.post(`/dashboard/themes/${draftId}/publish`, { expectedVersion: '1' })
    t.equal(published.statusCode, 303)
    t.same(await activeThemeIds(services, STORE_A), [draftId])
    const row = await services.db
      .selectFrom('developer_activity')
      .selectAll()
      .where('store_id', '=', STORE_A)
      .where('action', '=', 'publishTheme')
      .orderBy('first_position', 'desc')
      .executeTakeFirstOrThrow()
    t.equal(row.credential_kind, 'merchant')
    t.equal(row.channel, 'dashboard')
    const confirmRollback = await a.get('/dashboard/themes/rollback')
    t.match(
      confirmRollback.body,
      /Roll back to “[^”]+” version \d+/,
      'the confirmation names the theme and version that go live',
    )
    const rollback = await a.post(
      '/dashboard/themes/rollback',
      hiddenFields(confirmRollback.body, '/dashboard/themes/rollback'),
    )
    t.equal(rollback.statusCode, 303)
    t.same(await activeThemeIds(services, STORE_A), [liveBefore])
    const preview = await a.get(`/dashboard/themes/${draftId}/preview/products`)
    t.equal(preview.statusCode, 200)
    t.match(preview.body, /Preview of/)
    t.match(String(preview.headers['content-security-policy']), /frame-ancestors 'self'/)
    const editor = await a.get(`/dashboard/themes/editor?themeId=${draftId}`)
    t.equal(editor.statusCode, 200)
    t.match(editor.body, /<div id="editor" data-theme-id=/, 'the visual editor (issue 11)')
  })

  t.test("cross-merchant isolation: B's session on A's ids is a 404 and changes nothing", async (t) => {
    const themeA = (
      await services.db
        .selectFrom('themes')
        .select('theme_id')
        .where('store_id', '=', STORE_A)
        .executeTakeFirstOrThrow()
    ).theme_id
    const keyA = (
      await services.db.selectFrom('api_keys').select('key_id').where('app_id', '=', appId).executeTakeFirstOrThrow()
    ).key_id
    const eventsBefore = await services.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    const appBefore = await services.db
      .selectFrom('apps')
      .selectAll()
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow()
    for (const path of [
      `/dashboard/themes/${themeA}/preview`,
      `/dashboard/themes/${themeA}/preview/products`,
      `/dashboard/themes/${themeA}/publish`,
      `/dashboard/themes/editor?themeId=${themeA}`,
      `/dashboard/developer/apps/${appId}`,
    ]) {
      t.equal((await b.get(path)).statusCode, 404, `GET ${path}`)
    }
    await b.get('/dashboard/themes')
    const csrf = b.csrf()
    for (const [path, fields] of [
      [`/dashboard/themes/${themeA}/publish`, {}],
      [`/dashboard/themes/${themeA}/duplicate`, {}],
      [`/dashboard/themes/${themeA}/archive`, {}],
      [`/dashboard/developer/apps/${appId}/rotate-secret`, {}],
      [`/dashboard/developer/apps/${appId}/redirect-uris`, { redirectUris: 'https://b.example/cb' }],
      [`/dashboard/developer/apps/${appId}/keys`, { name: 'B', scopes: 'themes:read' }],
      [`/dashboard/developer/apps/${appId}/keys/${keyA}/revoke`, {}],
      [`/dashboard/developer/apps/${appId}/delete`, {}],
    ] as [string, Record<string, string>][]) {
      t.equal((await b.post(path, fields, { csrf })).statusCode, 404, `POST ${path}`)
    }
    t.same(
      await services.db.selectFrom('apps').selectAll().where('app_id', '=', appId).executeTakeFirstOrThrow(),
      appBefore,
    )
    t.same(
      await services.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
      eventsBefore,
    )
    const activityB = await b.get(`/dashboard/developer/activity?app=${appId}`)
    t.notMatch(activityB.body, /My agent/)
    t.equal((await app.inject({ url: '/api/v1/themes', headers: bearer(keyB) })).statusCode, 200)
  })

  t.test('bad input on every form: a message, nothing stored, never a 500', async (t) => {
    // In a stated order: the batched last_used_at write updates key rows meanwhile, which moves
    // them in the table, and an unordered select then lists the same keys in another order.
    const apps = () => services.db.selectFrom('apps').select('app_id').orderBy('app_id').execute()
    const keys = () => services.db.selectFrom('api_keys').select('key_id').orderBy('key_id').execute()
    const appsBefore = await apps()
    const keysBefore = await keys()
    await a.get('/dashboard/developer')
    const cases: [string, Record<string, string | string[]>][] = [
      ['/dashboard/developer/apps', { name: '', kind: 'public' }],
      ['/dashboard/developer/apps', { name: 'x'.repeat(101), kind: 'public' }],
      ['/dashboard/developer/apps', { name: 'a\u0007b', kind: 'public' }],
      ['/dashboard/developer/apps', { name: ['a', 'b'], kind: 'public' }],
      ['/dashboard/developer/apps', { name: 'ok', kind: 'secret' }],
      ['/dashboard/developer/apps', { name: 'ok', kind: 'public', admin: 'yes' }],
      [
        '/dashboard/developer/apps',
        {
          name: 'ok',
          kind: 'public',
          redirectUris: Array.from({ length: 11 }, (_, i) => `https://x.example/${i}`).join('\n'),
        },
      ],
      [`/dashboard/developer/apps/${appId}/keys`, { name: '', scopes: 'themes:read' }],
      [`/dashboard/developer/apps/${appId}/keys`, { name: 'k', scopes: 'themes:everything' }],
      [`/dashboard/developer/apps/${appId}/keys`, { name: 'k' }],
      [`/dashboard/developer/apps/${appId}/keys`, { name: 'k', scopes: 'themes:read', extra: '1' }],
      [`/dashboard/developer/apps/${appId}/redirect-uris`, { redirectUris: ['a', 'b'] }],
    ]
    for (const [path, fields] of cases) {
      const res = await a.post(path, fields)
      t.equal(res.statusCode, 400, `${path} ${JSON.stringify(fields).slice(0, 80)}`)
      t.match(res.body, /notice error/)
    }
    const huge = await a.post('/dashboard/developer/apps', { name: 'x'.repeat(70_000), kind: 'public' })
    t.equal(huge.statusCode, 413)
    t.same(await apps(), appsBefore)
    t.same(await keys(), keysBefore)
  })

  async function keyFor(storeId: string) {
    const { createApiKey, ensureApp } = await import('../../src/auth/credentials.ts')
    const id = await ensureApp(services.db, { storeId, name: 'Test app' })
    return (
      await createApiKey(services.db, {
        storeId,
        appId: id,
        name: 't',
        scopes: ['themes:read', 'themes:create', 'themes:write'],
      })
    ).key
  }
})
