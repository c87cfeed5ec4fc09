import { randomBytes } from 'node:crypto'
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { orderBookStream, type OrderEvent } from '../aggregates/orders/events.ts'
import type { EventMetadata } from '../events/event-store.ts'
import { createPostgresEventStore } from '../events/postgres-event-store.ts'
import { newId } from '../ids.ts'
import { inlineProjector } from '../projections/index.ts'
import {
  buildDemoCatalog,
  DEMO_STORE_IDS,
  type DemoImage,
  type DemoImageSpec,
  type DemoNavItem,
  type DemoStore,
} from './demo-catalog.ts'
import {
  bannerImage,
  bannerSpecKey,
  imageSpecKey,
  logoImage,
  logoSpecKey,
  productImage,
  type GeneratedImage,
} from './images.ts'

// Seeds the demo commerce read side (two stores) in one transaction, their orders as events of
// their order books. Navigation menus and media assets are event-sourced elsewhere: they are
// returned, not inserted. Their image
// blobs (logo, banners) are inserted into media_blobs with the product images, so every
// /media/<sha256>.png URL handed out resolves.

export type DemoNavigationMenu = { handle: string; title: string; items: DemoNavItem[] }
export type DemoMediaAsset = {
  url: string // site-relative: /media/<sha256>.png
  alt: string
  contentType: string
  byteSize: number
  width: number
  height: number
  sha256: string
}
export type DemoSeedStore = {
  storeId: string
  merchantId: string
  name: string
  slug: string
  navigationMenus: DemoNavigationMenu[]
  mediaAssets: DemoMediaAsset[]
}
export type DemoSeedResult = { stores: DemoSeedStore[] }

export const mediaPath = (sha256: string): string => `/media/${sha256}.png`

// Rendered images, by spec, once per process (the skip path and repeated seeds reuse them).
const rendered = new Map<string, GeneratedImage>()

export function renderDemoImage(image: DemoImageSpec): GeneratedImage {
  const key =
    image.kind === 'product'
      ? imageSpecKey(image.spec)
      : image.kind === 'banner'
        ? bannerSpecKey(image.spec)
        : logoSpecKey(image.spec)
  let out = rendered.get(key)
  if (!out) {
    out =
      image.kind === 'product'
        ? productImage(image.spec)
        : image.kind === 'banner'
          ? bannerImage(image.spec)
          : logoImage(image.spec)
    rendered.set(key, out)
  }
  return out
}

function asset(img: DemoImage): DemoMediaAsset {
  const r = renderDemoImage(img.image)
  return {
    url: mediaPath(r.sha256),
    alt: img.alt,
    contentType: r.contentType,
    byteSize: r.byteSize,
    width: r.width,
    height: r.height,
    sha256: r.sha256,
  }
}

function resultFor(store: DemoStore): DemoSeedStore {
  return {
    storeId: store.storeId,
    merchantId: store.merchant.id,
    name: store.name,
    slug: store.slug,
    navigationMenus: store.navigationMenus.map((m) => structuredClone(m)),
    mediaAssets: [store.branding.logo, ...store.banners].map(asset),
  }
}

export async function hasAnyStore(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('stores').select('store_id').limit(1).executeTakeFirst()
  return row !== undefined
}

// Arbitrary constant: serialises concurrent seeders (two processes starting at once).
const SEED_LOCK_KEY = 0x5eed_c0de

export async function seedDemoCommerce(db: Kysely<Database>): Promise<DemoSeedResult> {
  const catalog = buildDemoCatalog()
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx)
    const existing = new Set(
      (
        await trx
          .selectFrom('stores')
          .select('store_id')
          .where('store_id', 'in', [...DEMO_STORE_IDS])
          .execute()
      ).map((r) => r.store_id),
    )
    const blobs = new Map<string, GeneratedImage>()
    for (const store of catalog) {
      if (existing.has(store.storeId)) continue
      await insertStore(trx, store, blobs)
    }
    if (blobs.size > 0) {
      const rows = [...blobs.values()].map((b) => ({
        sha256: b.sha256,
        content_type: b.contentType,
        byte_size: b.byteSize,
        width: b.width,
        height: b.height,
        bytes: b.bytes,
      }))
      // Content-addressed: an identical blob already stored is the same blob.
      for (let i = 0; i < rows.length; i += 50) {
        await trx
          .insertInto('media_blobs')
          .values(rows.slice(i, i + 50))
          .onConflict((oc) => oc.column('sha256').doNothing())
          .execute()
      }
    }
  })
  return { stores: catalog.map(resultFor) }
}

async function insertStore(
  trx: Transaction<Database>,
  store: DemoStore,
  blobs: Map<string, GeneratedImage>,
): Promise<void> {
  const sid = store.storeId
  const use = (img: DemoImage) => {
    const r = renderDemoImage(img.image)
    blobs.set(r.sha256, r)
    return { url: mediaPath(r.sha256), alt: img.alt, width: r.width, height: r.height }
  }
  const logo = use(store.branding.logo)
  for (const b of store.banners) use(b)

  await trx
    .insertInto('merchants')
    .values({
      merchant_id: store.merchant.id,
      email: store.merchant.email,
      name: store.merchant.name,
      password_hash: null,
    })
    .execute()
  await trx
    .insertInto('stores')
    .values({
      store_id: sid,
      merchant_id: store.merchant.id,
      name: store.name,
      slug: store.slug,
      currency: store.currency,
      locale: store.locale,
      country: store.country,
      timezone: store.timezone,
      contact_email: store.contactEmail,
      description: store.description,
      branding: JSON.stringify({
        logoUrl: logo.url,
        logoAlt: logo.alt,
        primaryColor: store.branding.primaryColor,
        secondaryColor: store.branding.secondaryColor,
        tagline: store.branding.tagline,
      }),
      created_at: store.createdAt,
    })
    .execute()
  await trx
    .insertInto('store_settings')
    .values({ store_id: sid, settings: JSON.stringify(store.settings) })
    .execute()
  // Random per install: never in the catalog, never in a result, never read by a query.
  await trx
    .insertInto('store_secrets')
    .values(
      store.secretNames.map((name) => ({
        store_id: sid,
        name,
        value: `demo_${name}_${randomBytes(24).toString('base64url')}`,
      })),
    )
    .execute()

  const productImages = new Map<string, { url: string; alt: string; width: number; height: number }[]>()
  await trx
    .insertInto('products')
    .values(
      store.products.map((p) => {
        const images = p.images.map(use)
        productImages.set(p.id, images)
        return {
          product_id: p.id,
          store_id: sid,
          handle: p.handle,
          title: p.title,
          description: p.description,
          vendor: p.vendor,
          product_type: p.productType,
          tags: p.tags,
          status: p.status,
          images: JSON.stringify(images),
          options: JSON.stringify(p.options),
          created_at: p.createdAt,
          updated_at: p.updatedAt,
        }
      }),
    )
    .execute()
  await trx
    .insertInto('product_variants')
    .values(
      store.products.flatMap((p) =>
        p.variants.map((v) => ({
          variant_id: v.id,
          product_id: p.id,
          store_id: sid,
          title: v.title,
          sku: v.sku,
          price_cents: v.priceCents,
          compare_at_cents: v.compareAtCents,
          inventory_quantity: v.inventoryQuantity,
          options: JSON.stringify(v.options),
          position: v.position,
        })),
      ),
    )
    .execute()
  await trx
    .insertInto('collections')
    .values(
      store.collections.map((c) => ({
        collection_id: c.id,
        store_id: sid,
        handle: c.handle,
        title: c.title,
        description: c.description,
        image: JSON.stringify(productImages.get(c.imageFromProductId)?.[0] ?? null),
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      })),
    )
    .execute()
  await trx
    .insertInto('collection_products')
    .values(
      store.collections.flatMap((c) =>
        c.productIds.map((pid, i) => ({ collection_id: c.id, product_id: pid, store_id: sid, position: i + 1 })),
      ),
    )
    .execute()
  await trx
    .insertInto('customers')
    .values(
      store.customers.map((c) => ({
        customer_id: c.id,
        store_id: sid,
        first_name: c.firstName,
        last_name: c.lastName,
        email: c.email,
        phone: c.phone,
        city: c.city,
        country: c.country,
        accepts_marketing: c.acceptsMarketing,
        created_at: c.createdAt,
      })),
    )
    .execute()
  await importOrders(trx, store)
  await trx
    .insertInto('checkout_configs')
    .values({ store_id: sid, config: JSON.stringify(store.checkout) })
    .execute()
}

// The demo orders are the platform's history: OrderImported events on the store's order book,
// appended in the seed's transaction (the orders read model is written with them), so a rebuild
// keeps them and the storefront's next order takes the next number.
async function importOrders(trx: Transaction<Database>, store: DemoStore): Promise<void> {
  if (store.orders.length === 0) return
  const at = new Date().toISOString()
  const commandId = newId('cmd')
  const metadata: EventMetadata = {
    storeId: store.storeId,
    actor: { kind: 'system', credentialId: null, appId: null },
    channel: 'seed',
    correlationId: commandId,
    causationId: null,
    commandId,
    command: 'importOrders',
  }
  const events: OrderEvent[] = store.orders.map((o) => ({
    type: 'OrderImported',
    data: {
      orderId: o.id,
      number: o.number,
      currency: o.currency,
      lineItems: o.lineItems,
      subtotalCents: o.subtotalCents,
      shippingCents: o.shippingCents,
      codFeeCents: o.codFeeCents,
      totalCents: o.totalCents,
      shippingAddress: o.shippingAddress,
      customerId: o.customerId,
      status: o.status,
      paymentMethod: o.paymentMethod,
      createdAt: o.createdAt.toISOString(),
      at,
    },
  }))
  const appended = await createPostgresEventStore(trx, [inlineProjector()]).append([
    {
      streamId: orderBookStream(store.storeId),
      streamType: orderBookStream.type,
      storeId: store.storeId,
      expected: 'no_stream',
      events: events.map((e) => ({ type: e.type, data: e.data, metadata })),
    },
  ])
  if (!appended.ok) throw new Error(`the order book of ${store.storeId} already exists`)
}
