import tap from 'tap'
import { buildDemoCatalog, DEMO_STORE_IDS } from '../../src/seed/demo-catalog.ts'
import { hasAnyStore, seedDemoCommerce, type DemoSeedResult } from '../../src/seed/seed-commerce.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { checkPng } from './png.ts'

// One seeded database for the whole file; the subtests run inside this test, before its teardown.
tap.test('demo commerce seed', async (t) => {
  const { db } = await freshDatabase(t)

  t.equal(await hasAnyStore(db), false, 'an empty database has no store')
  const started = performance.now()
  const first: DemoSeedResult = await seedDemoCommerce(db)
  const seedMs = performance.now() - started
  t.comment(`demo seed on ${testDatabaseKind}: ${seedMs.toFixed(0)} ms`)
  t.equal(await hasAnyStore(db), true)

  const count = async (
    table: 'products' | 'collections' | 'orders' | 'customers' | 'product_variants' | 'store_secrets',
    storeId: string,
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('store_id', '=', storeId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  t.test('the result names both stores, their menus and media assets', async (t) => {
    t.same(
      first.stores.map((s) => [s.storeId, s.slug, s.name]),
      [
        ['st_demo_atlas', 'atlas', 'Atlas Outfitters'],
        ['st_demo_lumen', 'lumen', 'Lumen Home'],
      ],
    )
    for (const s of first.stores) {
      t.match(s.merchantId, /^mer_[0-9a-f]{16}$/)
      t.same(
        s.navigationMenus.map((m) => m.handle),
        ['main', 'footer'],
      )
      t.ok(s.mediaAssets.length >= 3, 'logo and banners')
      for (const a of s.mediaAssets) {
        t.match(a, {
          url: /^\/media\/[0-9a-f]{64}\.png$/,
          contentType: 'image/png',
          sha256: /^[0-9a-f]{64}$/,
          alt: /\S/,
        })
        t.equal(a.url, `/media/${a.sha256}.png`)
      }
      const store = await db
        .selectFrom('stores')
        .select('branding')
        .where('store_id', '=', s.storeId)
        .executeTakeFirstOrThrow()
      t.equal((store.branding as { logoUrl: string }).logoUrl, s.mediaAssets[0]!.url, 'the first asset is the logo')
    }
  })

  t.test('counts per store', async (t) => {
    for (const storeId of DEMO_STORE_IDS) {
      t.ok((await count('products', storeId)) >= 32, `${storeId}: at least 32 products`)
      t.equal(await count('collections', storeId), 5)
      t.equal(await count('orders', storeId), 20)
      t.equal(await count('customers', storeId), 20)
      t.ok((await count('store_secrets', storeId)) >= 3)
      const products = await db
        .selectFrom('products')
        .select(['product_id', 'images', 'status'])
        .where('store_id', '=', storeId)
        .execute()
      for (const p of products) {
        const images = p.images as unknown[]
        t.ok(images.length >= 1 && images.length <= 3, `${p.product_id}: 1 to 3 images`)
        const variants = await db
          .selectFrom('product_variants')
          .select('variant_id')
          .where('product_id', '=', p.product_id)
          .execute()
        t.ok(variants.length >= 1 && variants.length <= 4, `${p.product_id}: 1 to 4 variants`)
      }
      const statuses = new Set(products.map((p) => p.status))
      t.ok(statuses.has('draft') && statuses.has('archived'), 'some draft and archived products')
      const variants = await db.selectFrom('product_variants').selectAll().where('store_id', '=', storeId).execute()
      t.ok(
        variants.some((v) => v.inventory_quantity === 0),
        'some variants sold out',
      )
      t.ok(
        variants.some((v) => v.inventory_quantity > 0 && v.inventory_quantity < 5),
        'some low stock',
      )
      t.ok(
        variants.some((v) => v.compare_at_cents !== null && v.compare_at_cents > v.price_cents),
        'some compare-at prices',
      )
      t.ok(
        variants.some((v) => (v.options as unknown[]).length > 0),
        'variants with options',
      )
      const soldOutProducts = products.filter((p) =>
        variants.filter((v) => v.product_id === p.product_id).every((v) => v.inventory_quantity === 0),
      )
      t.ok(soldOutProducts.length >= 1, 'at least one product entirely sold out')
      const members = await db
        .selectFrom('collection_products')
        .select(['collection_id'])
        .where('store_id', '=', storeId)
        .execute()
      const perCollection = new Map<string, number>()
      for (const m of members) perCollection.set(m.collection_id, (perCollection.get(m.collection_id) ?? 0) + 1)
      t.equal(perCollection.size, 5, 'every collection has products')
      const orders = await db.selectFrom('orders').selectAll().where('store_id', '=', storeId).execute()
      t.ok(new Set(orders.map((o) => o.status)).size >= 5, 'varied order statuses')
      t.ok(orders.every((o) => o.payment_method === 'cash_on_delivery'))
    }
  })

  t.test('ids are opaque and prefixed', async (t) => {
    const checks: [string, RegExp][] = [
      ...(await db.selectFrom('products').select('product_id').execute()).map(
        (r) => [r.product_id, /^prod_[0-9a-f]{16}$/] as [string, RegExp],
      ),
      ...(await db.selectFrom('product_variants').select('variant_id').execute()).map(
        (r) => [r.variant_id, /^var_[0-9a-f]{16}$/] as [string, RegExp],
      ),
      ...(await db.selectFrom('collections').select('collection_id').execute()).map(
        (r) => [r.collection_id, /^coll_[0-9a-f]{16}$/] as [string, RegExp],
      ),
      ...(await db.selectFrom('customers').select('customer_id').execute()).map(
        (r) => [r.customer_id, /^cust_[0-9a-f]{16}$/] as [string, RegExp],
      ),
      ...(await db.selectFrom('orders').select('order_id').execute()).map(
        (r) => [r.order_id, /^ord_[0-9a-f]{16}$/] as [string, RegExp],
      ),
      ...(await db.selectFrom('merchants').select('merchant_id').execute()).map(
        (r) => [r.merchant_id, /^mer_[0-9a-f]{16}$/] as [string, RegExp],
      ),
    ]
    t.ok(checks.length > 200)
    t.ok(checks.every(([id, re]) => re.test(id)))
  })

  t.test('orders reference real variants of their own store; totals add up', async (t) => {
    for (const storeId of DEMO_STORE_IDS) {
      const variants = new Map(
        (
          await db
            .selectFrom('product_variants')
            .select(['variant_id', 'product_id', 'price_cents', 'sku'])
            .where('store_id', '=', storeId)
            .execute()
        ).map((v) => [v.variant_id, v]),
      )
      const customers = new Set(
        (await db.selectFrom('customers').select('customer_id').where('store_id', '=', storeId).execute()).map(
          (c) => c.customer_id,
        ),
      )
      const orders = await db.selectFrom('orders').selectAll().where('store_id', '=', storeId).execute()
      for (const o of orders) {
        const items = o.line_items as {
          productId: string
          variantId: string
          quantity: number
          unitPriceCents: number
          sku: string
        }[]
        t.ok(items.length >= 1)
        for (const li of items) {
          const v = variants.get(li.variantId)
          t.ok(v, `${o.order_id}: variant ${li.variantId} exists in ${storeId}`)
          t.equal(v?.product_id, li.productId)
          t.equal(v?.price_cents, li.unitPriceCents)
          t.equal(v?.sku, li.sku)
        }
        t.equal(
          o.subtotal_cents,
          items.reduce((s, li) => s + li.unitPriceCents * li.quantity, 0),
        )
        t.ok(o.total_cents > o.subtotal_cents + o.shipping_cents, 'a cash-on-delivery fee on top')
        if (o.customer_id !== null) t.ok(customers.has(o.customer_id))
        const addr = o.shipping_address as Record<string, unknown>
        t.match(addr, { name: /\S/, phone: /^\+\d/, address1: /\S/, city: /\S/, country: /^[A-Z]{2}$/ })
      }
    }
  })

  t.test('navigation menus link to collections of the same store', async (t) => {
    for (const s of first.stores) {
      const own = new Set(
        (await db.selectFrom('collections').select('collection_id').where('store_id', '=', s.storeId).execute()).map(
          (c) => c.collection_id,
        ),
      )
      const hrefs: string[] = []
      const walk = (items: { href: string; children?: unknown[] }[]) => {
        for (const i of items) {
          hrefs.push(i.href)
          if (i.children) walk(i.children as { href: string }[])
        }
      }
      for (const m of s.navigationMenus) walk(m.items)
      t.ok(
        hrefs.every((h) => h.startsWith('/') && !h.startsWith('//')),
        'site-relative',
      )
      const collectionLinks = hrefs.filter((h) => h.startsWith('/collections/'))
      t.ok(collectionLinks.length >= 5)
      t.ok(collectionLinks.every((h) => own.has(h.slice('/collections/'.length))))
      t.ok(hrefs.includes('/pages/about'))
    }
  })

  t.test('every image URL resolves to a stored, valid PNG', async (t) => {
    const urls = new Map<string, { width: number | null; height: number | null }>()
    const add = (img: unknown) => {
      const i = img as { url: string; width?: number; height?: number }
      urls.set(i.url, { width: i.width ?? null, height: i.height ?? null })
    }
    for (const p of await db.selectFrom('products').select('images').execute()) (p.images as unknown[]).forEach(add)
    for (const c of await db.selectFrom('collections').select('image').execute()) add(c.image)
    for (const s of await db.selectFrom('stores').select('branding').execute())
      add({ url: (s.branding as { logoUrl: string }).logoUrl })
    for (const s of first.stores) s.mediaAssets.forEach(add)
    t.ok(urls.size > 60)
    const shas = [...urls.keys()].map((u) => {
      const m = /^\/media\/([0-9a-f]{64})\.png$/.exec(u)
      t.ok(m, `${u} is a site-relative media URL`)
      return m?.[1] ?? ''
    })
    const blobs = new Map(
      (await db.selectFrom('media_blobs').selectAll().where('sha256', 'in', shas).execute()).map((b) => [b.sha256, b]),
    )
    t.equal(blobs.size, urls.size, 'a blob for every URL')
    const { createHash } = await import('node:crypto')
    for (const [url, expected] of urls) {
      const sha = url.slice(7, 71)
      const blob = blobs.get(sha)
      if (!blob) continue
      const png = checkPng(blob.bytes)
      t.equal(blob.content_type, 'image/png')
      t.equal(blob.byte_size, blob.bytes.length)
      t.equal(createHash('sha256').update(blob.bytes).digest('hex'), sha, 'content-addressed')
      t.same([png.width, png.height], [blob.width, blob.height])
      if (expected.width !== null) t.same([png.width, png.height], [expected.width, expected.height])
    }
    const productShas = new Set(
      (await db.selectFrom('products').select('images').execute()).map((p) => (p.images as { url: string }[])[0]!.url),
    )
    t.ok(productShas.size >= 64, 'each product has its own featured image')
  })

  t.test('a second run skips and returns the same result', async (t) => {
    const secretsBefore = await db.selectFrom('store_secrets').selectAll().orderBy('store_id').orderBy('name').execute()
    const counts = await Promise.all(DEMO_STORE_IDS.map((s) => count('products', s)))
    const blobs = Number(
      (
        await db
          .selectFrom('media_blobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
    const again = await seedDemoCommerce(db)
    t.same(again, first)
    t.same(
      await db.selectFrom('store_secrets').selectAll().orderBy('store_id').orderBy('name').execute(),
      secretsBefore,
      'nothing rewritten',
    )
    t.same(await Promise.all(DEMO_STORE_IDS.map((s) => count('products', s))), counts)
    t.equal(
      Number(
        (
          await db
            .selectFrom('media_blobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      blobs,
    )
  })

  t.test('concurrent seeders do not collide', async (t) => {
    const other = await freshDatabase(t)
    const [a, b] = await Promise.all([seedDemoCommerce(other.db), seedDemoCommerce(other.db)])
    t.same(a, b)
    t.same(a, first, 'deterministic: the same data in another database')
    const n = Number(
      (
        await other.db
          .selectFrom('products')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
    t.equal(
      n,
      Number(
        (
          await db
            .selectFrom('products')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    )
  })

  t.test('the catalog is deterministic and the two stores are distinct', async (t) => {
    const [atlas, lumen] = buildDemoCatalog()
    t.ok(atlas && lumen)
    if (!atlas || !lumen) return
    t.not(atlas.currency, lumen.currency)
    const atlasTitles = new Set(atlas.products.map((p) => p.title))
    t.notOk(
      lumen.products.some((p) => atlasTitles.has(p.title)),
      'no shared titles',
    )
    const ids = [...atlas.products, ...lumen.products].map((p) => p.id)
    t.equal(new Set(ids).size, ids.length, 'no shared ids')
    t.notOk(JSON.stringify(buildDemoCatalog()).match(/secret_value|password=/), 'no secrets in the catalog')
  })
})
