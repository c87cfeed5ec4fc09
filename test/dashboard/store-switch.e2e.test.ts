import t from 'tap'
import { STORE_A, STORE_B, testApp } from '../support/app.ts'
import { Browser, EMAIL_A, EMAIL_B, passwordOf } from './support.ts'

// A merchant who owns more than one store switches between them (issue 9): the session carries
// the current store; a store the merchant does not own is refused and nothing changes.

const STORE_C = 'st_demo_atlas_outlet'

t.test('store switcher: session carries the store; only own stores', async (t) => {
  const { app, services } = await testApp(t)
  // A second store for merchant A (a copy of A's profile under a new id and slug).
  const storeA = await services.db
    .selectFrom('stores')
    .selectAll()
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()
  const { catalog_version: _v, created_at: _c, ...profile } = storeA
  await services.db
    .insertInto('stores')
    .values({
      ...profile,
      branding: JSON.stringify(profile.branding),
      store_id: STORE_C,
      slug: 'atlas-outlet',
      name: 'Atlas Outlet',
    })
    .execute()

  const b = new Browser(app, '10.9.9.2')
  await b.signIn(EMAIL_B, await passwordOf(services, EMAIL_B))
  t.notMatch((await b.get('/dashboard/themes')).body, /Switch store/, 'one store: no switcher')

  const a = new Browser(app, '10.9.9.1')
  await a.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))
  const themes = await a.get('/dashboard/themes')
  t.match(
    themes.body,
    /<select id="store-switch" name="storeId"><option value="st_demo_atlas" selected>Atlas Outfitters<\/option><option value="st_demo_atlas_outlet">Atlas Outlet<\/option><\/select>/,
  )
  t.match(themes.body, /<label for="store-switch" class="visually-hidden">Store<\/label>/)
  const themeA = (
    await services.db.selectFrom('themes').select('theme_id').where('store_id', '=', STORE_A).executeTakeFirstOrThrow()
  ).theme_id

  const session = () =>
    services.db
      .selectFrom('merchant_sessions')
      .select('store_id')
      .where('revoked_at', 'is', null)
      .where('merchant_id', '=', storeA.merchant_id)
      .executeTakeFirstOrThrow()
  // Refused: another merchant's store, an unknown one, bad input, no CSRF token.
  t.equal((await a.post('/dashboard/store', { storeId: STORE_B })).statusCode, 404, "another merchant's store")
  await a.get('/dashboard/themes')
  const csrf = a.csrf()
  t.equal((await a.post('/dashboard/store', { storeId: 'st_nope' }, { csrf })).statusCode, 404)
  t.equal((await a.post('/dashboard/store', { storeId: [STORE_C, STORE_A] }, { csrf })).statusCode, 404)
  t.equal((await a.post('/dashboard/store', { storeId: STORE_C, extra: '1' }, { csrf })).statusCode, 404)
  t.equal((await a.post('/dashboard/store', { storeId: STORE_C }, { csrf: null })).statusCode, 403)
  t.equal((await session()).store_id, STORE_A, 'nothing changed')

  const switched = await a.post('/dashboard/store', { storeId: STORE_C }, { csrf })
  t.equal(switched.statusCode, 303)
  t.equal(switched.headers.location, '/dashboard/themes')
  t.equal((await session()).store_id, STORE_C, 'the session carries the store')
  const now = await a.get('/dashboard/themes')
  t.match(now.body, /<a class="brand" href="\/dashboard\/themes">Atlas Outlet/)
  t.match(now.body, /<option value="st_demo_atlas_outlet" selected>/)
  t.equal(
    (await a.get(`/dashboard/themes/${themeA}/versions`)).statusCode,
    404,
    "the other store's theme is out of reach now",
  )
  t.equal((await a.get(`/dashboard/themes/${themeA}/preview`)).statusCode, 404)
  const back = await a.post('/dashboard/store', { storeId: STORE_A }, { csrf })
  t.equal(back.statusCode, 303)
  t.equal((await a.get(`/dashboard/themes/${themeA}/versions`)).statusCode, 200)
})
