import { sql, type Kysely } from 'kysely'

// The platform's commerce data. Agents read it; nothing in this service writes it
// except the seed (and, later, the merchant's own tools).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table merchants (
      merchant_id text primary key,
      email text not null unique,
      name text not null,
      password_hash text,
      created_at timestamptz not null default now()
    )`.execute(db)
  await sql`
    create table stores (
      store_id text primary key,
      merchant_id text not null references merchants (merchant_id),
      name text not null,
      slug text not null unique,
      currency text not null,
      locale text not null,
      country text not null,
      timezone text not null,
      contact_email text not null,
      description text not null,
      branding jsonb not null,
      catalog_version integer not null default 1,
      created_at timestamptz not null default now()
    )`.execute(db)
  await sql`create table store_settings (store_id text primary key references stores, settings jsonb not null)`.execute(
    db,
  )
  await sql`
    create table store_secrets (
      store_id text not null references stores,
      name text not null,
      value text not null,
      primary key (store_id, name)
    )`.execute(db)
  await sql`
    create table products (
      product_id text primary key,
      store_id text not null references stores,
      handle text not null,
      title text not null,
      description text not null,
      vendor text not null,
      product_type text not null,
      tags text[] not null,
      status text not null check (status in ('active', 'draft', 'archived')),
      images jsonb not null,
      options jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (store_id, handle)
    )`.execute(db)
  await sql`create index products_by_store on products (store_id, created_at, product_id)`.execute(db)
  await sql`
    create table product_variants (
      variant_id text primary key,
      product_id text not null references products,
      store_id text not null references stores,
      title text not null,
      sku text not null,
      price_cents integer not null check (price_cents >= 0),
      compare_at_cents integer,
      inventory_quantity integer not null,
      options jsonb not null,
      position integer not null
    )`.execute(db)
  await sql`create index product_variants_by_product on product_variants (product_id, position)`.execute(db)
  await sql`
    create table collections (
      collection_id text primary key,
      store_id text not null references stores,
      handle text not null,
      title text not null,
      description text not null,
      image jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (store_id, handle)
    )`.execute(db)
  await sql`create index collections_by_store on collections (store_id, created_at, collection_id)`.execute(db)
  await sql`
    create table collection_products (
      collection_id text not null references collections,
      product_id text not null references products,
      store_id text not null references stores,
      position integer not null,
      primary key (collection_id, product_id)
    )`.execute(db)
  await sql`
    create table customers (
      customer_id text primary key,
      store_id text not null references stores,
      first_name text not null,
      last_name text not null,
      email text not null,
      phone text not null,
      city text not null,
      country text not null,
      accepts_marketing boolean not null,
      created_at timestamptz not null
    )`.execute(db)
  await sql`create index customers_by_store on customers (store_id, created_at desc, customer_id desc)`.execute(db)
  await sql`
    create table orders (
      order_id text primary key,
      store_id text not null references stores,
      number integer not null,
      customer_id text references customers,
      status text not null,
      payment_method text not null,
      currency text not null,
      subtotal_cents integer not null,
      shipping_cents integer not null,
      total_cents integer not null,
      line_items jsonb not null,
      shipping_address jsonb not null,
      created_at timestamptz not null,
      unique (store_id, number)
    )`.execute(db)
  await sql`create index orders_by_store on orders (store_id, created_at desc, order_id desc)`.execute(db)
  await sql`create table checkout_configs (store_id text primary key references stores, config jsonb not null)`.execute(
    db,
  )
  await sql`
    create table media_blobs (
      sha256 text primary key,
      content_type text not null,
      byte_size integer not null,
      width integer,
      height integer,
      bytes bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db)
}
