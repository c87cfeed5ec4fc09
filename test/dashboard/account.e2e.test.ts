import t from 'tap'
import { testApp } from '../support/app.ts'
import { Browser, EMAIL_A, EMAIL_B, passwordOf } from './support.ts'

// The merchant's account page (issue 34, point 19): changing the password needs the current one
// (a wrong one counts like a wrong sign-in, and locks both the same way), signs every other session
// out and keeps this browser signed in; CSRF; messages at the field; the sign-in page tells a
// merchant who lost the password whom to ask.

const { app, services } = await testApp(t)
const NEW = 'correct horse battery staple'

const events = async () =>
  (
    await services.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', '=', 'MerchantPasswordChanged')
      .execute()
  ).map((e) => e.data as Record<string, unknown>)

t.test('the sign-in page says whom to ask for a lost password', async (t) => {
  const res = await new Browser(app).get('/dashboard/login')
  t.match(res.body, /Forgot your password\?/)
  t.match(res.body, /<code>npm run merchants -- reset-password --email you@example.com<\/code>/)
})

t.test('change the password: other sessions end, this one goes on', async (t) => {
  const old = await passwordOf(services, EMAIL_A)
  const here = new Browser(app, '10.34.19.1')
  const elsewhere = new Browser(app, '10.34.19.2')
  t.equal((await here.signIn(EMAIL_A, old)).statusCode, 303)
  t.equal((await elsewhere.signIn(EMAIL_A, old)).statusCode, 303)

  const page = await here.get('/dashboard/account')
  t.equal(page.statusCode, 200)
  t.match(page.body, /<dt>Email<\/dt><dd>owner@atlas-outfitters.example<\/dd>/)
  t.match(page.body, /<a class="who-link" href="\/dashboard\/account" aria-current="page">/)

  const noCsrf = await here.post(
    '/dashboard/account/password',
    { currentPassword: old, newPassword: NEW, confirmPassword: NEW },
    { csrf: null },
  )
  t.equal(noCsrf.statusCode, 403, 'CSRF')

  await here.get('/dashboard/account')
  const mismatch = await here.post('/dashboard/account/password', {
    currentPassword: old,
    newPassword: NEW,
    confirmPassword: `${NEW}!`,
  })
  t.equal(mismatch.statusCode, 400)
  t.match(
    mismatch.body,
    /<p class="field-error" id="confirmPassword-error">The two new passwords are not the same.<\/p>/,
  )

  const short = await here.post('/dashboard/account/password', {
    currentPassword: old,
    newPassword: 'short',
    confirmPassword: 'short',
  })
  t.equal(short.statusCode, 400)
  t.match(short.body, /id="newPassword-error">Choose another password: use at least 12 characters.<\/p>/)
  t.match(
    short.body,
    /<input id="newPassword"[^>]*aria-describedby="newPassword-hint newPassword-error" aria-invalid="true">/,
  )

  const wrong = await here.post('/dashboard/account/password', {
    currentPassword: 'not-the-password',
    newPassword: NEW,
    confirmPassword: NEW,
  })
  t.equal(wrong.statusCode, 400)
  t.match(wrong.body, /id="currentPassword-error">This is not your current password.<\/p>/)
  t.same(await events(), [], 'nothing changed yet')

  const changed = await here.post('/dashboard/account/password', {
    currentPassword: old,
    newPassword: NEW,
    confirmPassword: NEW,
  })
  t.equal(changed.statusCode, 303)
  t.equal(changed.headers.location, '/dashboard/account?done=password')
  const after = await here.get('/dashboard/account?done=password')
  t.equal(after.statusCode, 200, 'this browser is still signed in (a new session)')
  t.match(after.body, /Password changed. Every other session was signed out./)
  t.equal((await elsewhere.get('/dashboard/themes')).statusCode, 303, 'the other browser is signed out')

  t.equal((await new Browser(app, '10.34.19.3').signIn(EMAIL_A, old)).statusCode, 401, 'the old password is gone')
  t.equal((await new Browser(app, '10.34.19.4').signIn(EMAIL_A, NEW)).statusCode, 303, 'the new one works')

  const recorded = await events()
  t.equal(recorded.length, 1, 'the change is in the activity stream')
  t.match(recorded[0], { endedSessions: 1 })
  t.notMatch(JSON.stringify(recorded), new RegExp(`${NEW}|${old}|argon2`), 'no password or hash in the event')
})

t.test('wrong current passwords are throttled like sign-in, and lock sign-in too', async (t) => {
  const password = await passwordOf(services, EMAIL_B)
  const b = new Browser(app, '10.34.19.20')
  await b.signIn(EMAIL_B, password)
  await b.get('/dashboard/account')
  for (let i = 0; i < 5; i++) {
    const res = await b.post('/dashboard/account/password', {
      currentPassword: `wrong-${i}`,
      newPassword: NEW,
      confirmPassword: NEW,
    })
    t.equal(res.statusCode, 400, `wrong password ${i + 1}`)
  }
  const locked = await b.post('/dashboard/account/password', {
    currentPassword: password,
    newPassword: NEW,
    confirmPassword: NEW,
  })
  t.equal(locked.statusCode, 429, 'locked, even with the right password')
  t.ok(Number(locked.headers['retry-after']) > 0)
  t.match(locked.body, /Too many wrong passwords. Try again in 15 minutes./)
  // As at sign-in (docs/decisions/0111-sign-in-throttling-never-locks-the-owner-out.md): the
  // guessing address is refused, the owner elsewhere is not.
  const sameAddress = await new Browser(app, '10.34.19.20').signIn(EMAIL_B, password)
  t.equal(sameAddress.statusCode, 429, 'sign-in from the guessing address is refused as well')
  const elsewhere = await new Browser(app, '10.34.19.21').signIn(EMAIL_B, password)
  t.equal(elsewhere.statusCode, 303, 'the owner signs in from another address')
  t.equal((await b.get('/dashboard/themes')).statusCode, 200, 'this session is not ended by the lock')
})
