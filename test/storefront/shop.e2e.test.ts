import t from 'tap'
import { sql } from 'kysely'
import { api, storeRefs } from '../render/support.ts'
import { testApp } from '../support/app.ts'
import { ATLAS_CUSTOMER, Shopper } from './shopper.ts'

// The shop's rules over HTTP: the cart cookie and who may post to it, nothing per visitor in a
// cached page, the checkout's CSRF and checkout tokens, one order per form, the per-address limit,
// the store's checkout terms enforced when the order is placed, and the activity it leaves.
t.test('the storefront shop', async (t) => {
  const { app, services, keyA, keyB } = await testApp(t)
  const atlas = await storeRefs(app, keyA)
  const lumen = await storeRefs(app, keyB)
  const inStock = atlas.productRecords.filter((p) => p.variants.length === 1 && p.availableForSale)
  const variantOf = (i: number) => inStock[i]!.variants[0]!.id
  const orderCount = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from orders where store_id = 'st_demo_atlas'`.execute(
          services.db,
        )
      ).rows[0]!.n,
    )

  await t.test('the cart: a SameSite cookie of its store, changed and emptied by forms', async (t) => {
    const s = new Shopper(app)
    const added = await s.add(variantOf(0), 2)
    t.equal(added.statusCode, 303)
    t.equal(added.headers.location, `/s/atlas/cart?added=${variantOf(0)}`)
    const cookie = String(added.headers['set-cookie'])
    t.match(
      cookie,
      /^sf_cart=c1\|st_demo_atlas\|[A-Za-z0-9_-]+:2; Max-Age=\d+; Path=\/s\/atlas; HttpOnly; SameSite=Lax$/,
    )
    await s.add(variantOf(1))
    await s.add(variantOf(0))
    const cart = await s.get('/cart')
    t.equal(cart.headers['cache-control'], 'private, no-store')
    t.equal(cart.headers['x-robots-tag'], 'noindex, nofollow')
    t.match(cart.headers['content-security-policy'], /script-src 'none'/)
    t.match(cart.body, /4 items\./, 'the same variant twice is one line of 3')
    t.equal((await s.post('/cart', { [`q:${variantOf(0)}`]: '1' })).headers.location, '/s/atlas/cart?updated=1')
    t.match((await s.get('/cart')).body, /2 items\./)
    t.equal((await s.post('/cart/remove', { variant: variantOf(1) })).statusCode, 303)
    t.match((await s.get('/cart')).body, /1 item\./)
    t.equal((await s.post('/cart', { [`q:${variantOf(0)}`]: '0' })).statusCode, 303)
    t.match((await s.get('/cart')).body, /Your cart is empty/)
    t.notOk(s.cookies.has('sf_cart'), 'an empty cart clears its cookie')

    const other = new Shopper(app, '/s/lumen')
    other.cookies.set('sf_cart', `c1|st_demo_atlas|${variantOf(0)}:1`)
    t.match((await other.get('/cart')).body, /Your cart is empty/, "another store's cart cookie is not this store's")
    const foreign = await other.add(variantOf(0))
    t.equal(foreign.statusCode, 400, "an Atlas variant cannot go into Lumen's cart")
    t.match((await other.add(lumen.productRecords[0]!.variants[0]!.id)).headers.location, /^\/s\/lumen\/cart\?/)
  })

  await t.test('quantity is kept within the stock', async (t) => {
    const s = new Shopper(app)
    const stock = inStock[2]!.variants[0]!.inventoryQuantity
    const res = await s.add(variantOf(2), stock + 5)
    t.equal(res.headers.location, `/s/atlas/cart?limited=${variantOf(2)}`)
    t.match(
      (await s.get(String(res.headers.location))).body,
      new RegExp(`Only ${stock} of .* left: your cart holds them all`),
    )
  })

  await t.test('posts from another site are refused, and change nothing', async (t) => {
    const s = new Shopper(app)
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' } as Record<string, string>,
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      const res = await s.post('/cart/add', { variant: variantOf(0), quantity: '1' }, headers)
      t.equal(res.statusCode, 403, JSON.stringify(headers))
      t.equal(res.headers['set-cookie'], undefined, 'no cart written')
      t.match(res.body, /This form came from another site/)
    }
    t.equal(
      (await s.post('/cart/add', { variant: variantOf(0), quantity: '1' }, { origin: 'http://localhost' })).statusCode,
      303,
      'an Origin of this host',
    )
    t.equal(
      (await s.post('/cart/add', { variant: variantOf(0), quantity: '1' }, { origin: 'http://storefront.test' }))
        .statusCode,
      303,
      'the service’s public origin (BASE_URL)',
    )
    t.equal(
      (await s.post('/cart/add', { variant: variantOf(0) }, {})).statusCode,
      303,
      'no browser headers: no cookies to abuse',
    )
  })

  await t.test('a cached product page carries nothing of the visitor', async (t) => {
    const url = `/s/atlas/products/${inStock[0]!.handle}`
    const anonymous = await app.inject({ url })
    const s = new Shopper(app)
    await s.add(variantOf(0), 3)
    const withCart = await s.get(url)
    t.equal(withCart.body, anonymous.body, 'the same bytes with or without a cart')
    t.match(withCart.headers['cache-control'], /^public/)
    t.equal(withCart.headers['set-cookie'], undefined)
    t.notMatch(withCart.body, /_csrf|name="token"/, 'no per-visitor token in the add-to-cart form')
    t.match(withCart.body, /<form class="buy-form" method="post" action="\/s\/atlas\/cart\/add">/)
  })

  await t.test('the checkout form needs its CSRF token and a checkout token of this store', async (t) => {
    const before = await orderCount()
    const s = new Shopper(app)
    await s.add(variantOf(0))
    await s.get('/checkout')
    const noCsrf = await s.post('/checkout', { token: s.form!.token, ...ATLAS_CUSTOMER })
    t.equal(noCsrf.statusCode, 403)
    t.match(noCsrf.body, /This checkout page has expired/)
    const forged = await s.post('/checkout', { _csrf: s.form!.csrf, token: 'x'.repeat(32), ...ATLAS_CUSTOMER })
    t.equal(forged.statusCode, 422)
    t.match(forged.body, /This checkout form is not valid any more/)
    const lumenShopper = new Shopper(app, '/s/lumen')
    await lumenShopper.add(lumen.productRecords[0]!.variants[0]!.id)
    await lumenShopper.get('/checkout')
    const otherStore = await s.post('/checkout', {
      _csrf: s.form!.csrf,
      token: lumenShopper.form!.token,
      ...ATLAS_CUSTOMER,
    })
    t.match(otherStore.body, /This checkout form is not valid any more/, "another store's checkout token")
    t.equal(await orderCount(), before, 'no order')
  })

  await t.test('a double submit places one order', async (t) => {
    const before = await orderCount()
    const s = new Shopper(app, '/s/atlas', '10.3.0.1')
    await s.add(variantOf(3))
    await s.get('/checkout')
    const form = { _csrf: s.form!.csrf, token: s.form!.token, ...ATLAS_CUSTOMER }
    const cart = s.cookies.get('sf_cart')!
    const [a, b] = await Promise.all([s.post('/checkout', form), s.post('/checkout', form)])
    s.cookies.set('sf_cart', cart)
    const c = await s.post('/checkout', form)
    t.same([a.statusCode, b.statusCode, c.statusCode], [303, 303, 303])
    t.equal(a.headers.location, b.headers.location, 'the same confirmation')
    t.equal(a.headers.location, c.headers.location, 'also when sent again later')
    t.equal(await orderCount(), before + 1, 'one order')
    const page = await s.get(String(a.headers.location))
    t.equal(page.statusCode, 200)
    t.equal(page.headers['cache-control'], 'private, no-store')
    t.notOk(s.cookies.has('sf_cart'), 'the cart is emptied once the order is placed')
  })

  await t.test('at most 10 orders an hour from one client address', async (t) => {
    const ip = '10.4.0.1'
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const s = new Shopper(app, '/s/atlas', ip)
      await s.add(variantOf(4))
      statuses.push((await s.place(ATLAS_CUSTOMER)).statusCode)
    }
    t.same(statuses, [...Array(10).fill(303), 429])
    const s = new Shopper(app, '/s/atlas', ip)
    await s.add(variantOf(4))
    t.match((await s.place(ATLAS_CUSTOMER)).body, /At most 10 orders an hour can be placed from one connection/)
    const elsewhere = new Shopper(app, '/s/atlas', '10.4.0.2')
    await elsewhere.add(variantOf(4))
    t.equal((await elsewhere.place(ATLAS_CUSTOMER)).statusCode, 303, 'another address may order')
  })

  await t.test("the store's checkout terms, enforced when the order is placed", async (t) => {
    const before = await orderCount()
    const s = new Shopper(app, '/s/atlas', '10.5.0.1')
    await s.add(variantOf(0))
    const missing = await s.place({ rate: ATLAS_CUSTOMER.rate })
    t.equal(missing.statusCode, 422)
    for (const message of [
      'Enter your full name.',
      'Enter the street and number.',
      'Enter your city.',
      'Enter a phone number',
    ])
      t.match(missing.body, message, `at its field: ${message}`)
    t.match(missing.body, /id="f-fullName"[^>]*aria-invalid="true"/)
    // The platform lowers the largest cash-on-delivery order to 100 MAD while the form is open.
    await sql`update checkout_configs set config = jsonb_set(config, '{maxOrderCents}', '10000') where store_id = 'st_demo_atlas'`.execute(
      services.db,
    )
    const over = await s.place(ATLAS_CUSTOMER, { fresh: true })
    t.equal(over.statusCode, 422)
    t.match(over.body, /Cash-on-delivery orders are limited to 100,00\s+MAD, and this order comes to/)
    await sql`update checkout_configs set config = jsonb_set(config, '{maxOrderCents}', 'null') || '{"guestCheckout": false}' where store_id = 'st_demo_atlas'`.execute(
      services.db,
    )
    t.match((await s.place(ATLAS_CUSTOMER, { fresh: true })).body, /takes orders from customer accounts only/)
    await sql`update checkout_configs set config = config || '{"guestCheckout": true, "maxOrderCents": 1000000}' where store_id = 'st_demo_atlas'`.execute(
      services.db,
    )
    t.equal(await orderCount(), before, 'none of these placed an order')

    const l = new Shopper(app, '/s/lumen', '10.5.0.2')
    // Below the free-delivery threshold (80 €), so the Belgian rate is charged.
    const cheap = lumen.productRecords
      .flatMap((p) => p.variants)
      .find((v) => v.availableForSale && v.price.cents < 8000 && v.inventoryQuantity > 1)!
    await l.add(cheap.id)
    const lumenCustomer = {
      fullName: 'Claire Martin',
      phone: '+32 470 12 34 56',
      address1: '12 rue Haute',
      city: 'Bruxelles',
      postalCode: '1000',
    }
    const noCountry = await l.place({ ...lumenCustomer, rate: 'France métropolitaine · Colissimo' })
    t.match(noCountry.body, /Choose your country\./, 'Lumen asks for the country')
    t.match(noCountry.body, /<option value="BE">Belgium<\/option>/)
    const wrongZone = await l.place(
      { ...lumenCustomer, country: 'BE', rate: 'France métropolitaine · Colissimo' },
      { fresh: true },
    )
    t.match(wrongZone.body, /France métropolitaine \(Colissimo\) does not deliver to Belgium/)
    const placed = await l.place(
      { ...lumenCustomer, country: 'BE', rate: 'Belgique &amp; Luxembourg · Standard'.replace('&amp;', '&') },
      { fresh: true },
    )
    t.equal(placed.statusCode, 303)
    const order = (await api(app, keyB, 'GET', '/api/v1/orders?limit=1')).orders[0]
    t.match(order, {
      shippingAddress: { country: 'BE', postalCode: '1000' },
      shipping: { cents: 990 },
      codFee: { cents: 390 },
    })
  })

  await t.test("a theme's links to the cart and the checkout are sound", async (t) => {
    const theme = (await api(app, keyA, 'POST', '/api/v1/themes', { name: 'Links', provider: 'test' })) as {
      id: string
    }
    await api(app, keyA, 'POST', `/api/v1/themes/${theme.id}/batch`, {
      operations: [
        {
          op: 'setNavigation',
          navigation: [
            { label: 'Cart', href: '/cart' },
            { label: 'Checkout', href: '/checkout' },
            { label: 'Nowhere', href: '/basket' },
          ],
        },
      ],
    })
    const { findings } = (await api(app, keyA, 'GET', `/api/v1/themes/${theme.id}/checks`)) as {
      findings: { rule: string; message: string }[]
    }
    const broken = findings.filter((f) => f.rule === 'broken-link').map((f) => f.message)
    t.equal(broken.length, 1, 'only the made-up path')
    t.match(broken[0], /Nowhere|basket/)
  })

  await t.test("orders are in the merchant's activity; shoppers' refusals are not", async (t) => {
    const { rows } = await sql<{ outcome: string; channel: string; summary: string }>`
      select outcome, channel, summary from developer_activity where store_id = 'st_demo_atlas' and action = 'placeOrder'`.execute(
      services.db,
    )
    t.ok(rows.length >= 12)
    t.ok(
      rows.every((r) => r.outcome === 'applied' && r.channel === 'storefront'),
      'applied orders only',
    )
    t.match(rows[0]!.summary, /^Order #\d+ placed on the storefront: 1 item, .*, cash on delivery$/)
  })
})
