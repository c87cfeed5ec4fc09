import t from 'tap'
import { SESSION_IDLE_MS } from '../../src/auth/merchant-session.ts'
import { testApp } from '../support/app.ts'
import { Browser, EMAIL_A, passwordOf } from './support.ts'

t.test('sign-in, sessions, CSRF, throttling and open redirects', async (t) => {
  const { app, services } = await testApp(t)
  const password = await passwordOf(services, EMAIL_A)

  t.test('every dashboard page without a session redirects to sign-in and back', async (t) => {
    const b = new Browser(app)
    for (const path of [
      '/dashboard',
      '/dashboard/themes',
      '/dashboard/developer',
      '/dashboard/developer/activity',
      '/dashboard/themes/editor?themeId=x',
      '/dashboard/themes/thm_x/preview/products/p1?variant=v',
    ]) {
      const res = await b.get(path)
      t.equal(res.statusCode, 303, path)
      t.equal(res.headers.location, `/dashboard/login?next=${encodeURIComponent(path)}`, path)
    }
  })

  t.test('the sign-in page', async (t) => {
    const b = new Browser(app)
    const res = await b.get('/dashboard/login')
    t.equal(res.statusCode, 200)
    t.match(res.body, /<label for="email">Email<\/label>/)
    t.match(res.body, /<label for="password">Password<\/label>/)
    t.match(res.body, />Sign in<\/button>/)
    t.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/)
    t.notMatch(String(res.headers['content-security-policy']), /unsafe-inline/)
    t.equal(res.headers['cache-control'], 'no-store')
  })

  t.test('right password: a new session cookie, HttpOnly, SameSite=Lax, Path=/', async (t) => {
    const b = new Browser(app)
    b.cookies.set('sf_session', 'x'.repeat(43))
    const res = await b.signIn(EMAIL_A.toUpperCase(), password)
    t.equal(res.statusCode, 303)
    t.equal(res.headers.location, '/dashboard/themes')
    const cookie = [res.headers['set-cookie']].flat().find((c) => c!.startsWith('sf_session='))!
    t.match(cookie, /HttpOnly/)
    t.match(cookie, /SameSite=Lax/)
    t.match(cookie, /Path=\//)
    t.not(b.cookies.get('sf_session'), 'x'.repeat(43), 'the session id changes at sign-in')
    const page = await b.get('/dashboard/themes')
    t.equal(page.statusCode, 200)
    t.match(page.body, /Atlas/)
    const rows = await services.db.selectFrom('merchant_sessions').select('session_hash').execute()
    t.notOk(
      rows.some((r) => r.session_hash === b.cookies.get('sf_session')),
      'only the hash is stored',
    )
  })

  t.test('wrong password and unknown email get the same generic message', async (t) => {
    const b = new Browser(app, '10.0.0.2')
    const wrong = await b.signIn(EMAIL_A, 'not-the-password')
    const unknown = await b.signIn('nobody@example.com', password)
    t.equal(wrong.statusCode, 401)
    t.equal(unknown.statusCode, 401)
    t.match(wrong.body, /Wrong email or password\./)
    t.match(unknown.body, /Wrong email or password\./)
    t.notOk(b.cookies.has('sf_session'))
  })

  t.test('next: only same-origin relative paths', async (t) => {
    const b = new Browser(app, '10.0.0.3')
    await b.get('/dashboard/login?next=%2Fdashboard%2Fdeveloper')
    const ok = await b.post('/dashboard/login?next=%2Fdashboard%2Fdeveloper', { email: EMAIL_A, password })
    t.equal(ok.headers.location, '/dashboard/developer')
    const corpus = [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/%0a/evil.example',
      ' /dashboard',
      'http:/evil.example',
      '/\t/evil.example',
      'evil.example',
      '',
      '%2F%2Fevil.example',
      '/..//evil.example',
    ]
    for (const next of corpus) {
      const c = new Browser(app, '10.0.0.4')
      await c.get('/dashboard/login')
      const res = await c.post(`/dashboard/login?next=${encodeURIComponent(next)}`, { email: EMAIL_A, password })
      t.equal(res.statusCode, 303, next)
      const location = String(res.headers.location)
      t.ok(
        location.startsWith('/') &&
          !location.startsWith('//') &&
          new URL(location, 'http://dash.test').origin === 'http://dash.test',
        `${JSON.stringify(next)} -> ${location}`,
      )
    }
  })

  t.test('CSRF: a POST without or with a wrong token is refused and changes nothing', async (t) => {
    const b = new Browser(app, '10.0.0.5')
    await b.signIn(EMAIL_A, password)
    const before = await services.db.selectFrom('apps').select('app_id').execute()
    const missing = await b.post('/dashboard/developer/apps', { name: 'Sneaky', kind: 'public' }, { csrf: null })
    t.equal(missing.statusCode, 403)
    t.match(missing.body, /expired/)
    const wrong = await b.post(
      '/dashboard/developer/apps',
      { name: 'Sneaky', kind: 'public' },
      { csrf: 'forged-token' },
    )
    t.equal(wrong.statusCode, 403)
    const other = new Browser(app, '10.0.0.6')
    await other.get('/dashboard/login')
    const foreign = await b.post(
      '/dashboard/developer/apps',
      { name: 'Sneaky', kind: 'public' },
      { csrf: other.csrf() },
    )
    t.equal(foreign.statusCode, 403, "another browser's token does not fit this browser's secret")
    t.same(await services.db.selectFrom('apps').select('app_id').execute(), before)
    const logout = await b.post('/dashboard/logout', {}, { csrf: null })
    t.equal(logout.statusCode, 403, 'sign-out needs the token too')
  })

  t.test('sign-out revokes the session server-side', async (t) => {
    const b = new Browser(app, '10.0.0.7')
    await b.signIn(EMAIL_A, password)
    const stolen = b.cookies.get('sf_session')!
    await b.get('/dashboard/themes')
    const out = await b.post('/dashboard/logout', {})
    t.equal(out.statusCode, 303)
    const replay = new Browser(app, '10.0.0.7')
    replay.cookies.set('sf_session', stolen)
    t.equal((await replay.get('/dashboard/themes')).statusCode, 303, 'the old cookie no longer opens the dashboard')
  })

  t.test('idle and absolute expiry', async (t) => {
    const b = new Browser(app, '10.0.0.8')
    await b.signIn(EMAIL_A, password)
    const hash = (
      await services.db
        .selectFrom('merchant_sessions')
        .select(['session_hash', 'created_at'])
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).session_hash
    await services.db
      .updateTable('merchant_sessions')
      .set({ last_seen_at: new Date(Date.now() - SESSION_IDLE_MS - 1000) })
      .where('session_hash', '=', hash)
      .execute()
    t.equal((await b.get('/dashboard/themes')).statusCode, 303, 'idle for 2 hours')
    const c = new Browser(app, '10.0.0.8')
    await c.signIn(EMAIL_A, password)
    await services.db
      .updateTable('merchant_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('revoked_at', 'is', null)
      .execute()
    t.equal((await c.get('/dashboard/themes')).statusCode, 303, 'past 12 hours')
  })

  t.test(
    'throttling: 5 failures in 15 minutes from one address refuse it (429), even with the right password',
    async (t) => {
      const b = new Browser(app, '10.1.0.1')
      for (let i = 0; i < 5; i++) t.equal((await b.signIn(EMAIL_A, `wrong-${i}`)).statusCode, 401)
      const locked = await b.signIn(EMAIL_A, password)
      t.equal(locked.statusCode, 429)
      t.match(locked.body, /Too many failed sign-in attempts/)
      t.ok(Number(locked.headers['retry-after']) > 800)
      t.notOk(b.cookies.has('sf_session'))
      // Another address is not refused: a stranger cannot lock the owner out
      // (test/dashboard/sign-in-throttle.e2e.test.ts).
      t.equal((await new Browser(app, '10.1.1.1').signIn(EMAIL_A, password)).statusCode, 303)
      // And per client address, across accounts.
      for (let i = 0; i < 5; i++) await new Browser(app, '10.2.0.1').signIn(`x${i}@example.com`, 'nope')
      const fromAddress = await new Browser(app, '10.2.0.1').signIn('owner@lumen-home.example', 'whatever')
      t.equal(fromAddress.statusCode, 429)
    },
  )

  t.test('bad input on the sign-in form: a clear message, never a 500', async (t) => {
    const b = new Browser(app, '10.3.0.1')
    await b.get('/dashboard/login')
    for (const fields of [
      { email: ['a@b.c', 'd@e.f'], password: 'x' },
      { email: 'a\u0001@b.c', password: 'x' },
      { email: 'a@b.c', password: 'x'.repeat(300) },
      { email: 'a@b.c', password: 'x', extra: '1' },
    ]) {
      const res = await b.post('/dashboard/login', fields as never)
      t.equal(res.statusCode, 400, JSON.stringify(fields).slice(0, 60))
      t.match(res.body, /could not be read/)
    }
    const huge = await b.post('/dashboard/login', { email: 'a@b.c', password: 'x'.repeat(100_000) })
    t.equal(huge.statusCode, 413)
  })
})
