import type { ColumnType, Generated } from 'kysely'
import type { MerchantLine } from '../aggregates/merchant-line.ts'
import type { RefusalIssue } from '../aggregates/refusals/events.ts'
import type { ThemeStatus } from '../theme/constants.ts'

// The one database interface: every table the service touches, by owner.
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type NullableOnInsert<T> = ColumnType<T | null, T | null | undefined, T | null>
type Json<T = unknown> = ColumnType<T, string, string>

// --- event store (append-only) ---
export interface StreamsTable {
  stream_id: string
  stream_type: string
  store_id: string
  version: number
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export interface EventsTable {
  global_position: Generated<number>
  epoch: Generated<number>
  transaction_id: Generated<string>
  event_id: string
  stream_id: string
  stream_version: number
  store_id: string
  type: string
  schema_version: number
  data: Json
  metadata: Json
  recorded_at: Generated<Date>
}

// --- projections (rebuildable from events) ---
export interface EventEpochsTable {
  epoch: number
  first_xid: string
  started_at: Generated<Date>
}
export interface ProjectionCheckpointsTable {
  name: string
  epoch: Generated<number>
  transaction_id: string
  global_position: number
  updated_at: Generated<Date>
}
export interface ProjectionVersionsTable {
  name: string
  code_version: number
  built_at: Generated<Date>
}
export interface ThemesTable {
  theme_id: string
  store_id: string
  name: string
  provider: string
  status: ThemeStatus
  version: number
  stream_version: number
  document: Json
  document_bytes: number
  duplicated_from: string | null
  created_at: Timestamp
  updated_at: Timestamp
  published_at: Timestamp | null
  archived_at: Timestamp | null
  last_preview_at: Timestamp | null
  last_previewed_version: number | null
}
export interface StoreContextTable {
  store_id: string
  catalog_version: Generated<number>
  base_url: Generated<string>
  products: ColumnType<unknown, string | undefined, string>
  products_after: ColumnType<unknown, string | null | undefined, string | null>
  collections: ColumnType<unknown, string | undefined, string>
  collections_after: ColumnType<unknown, string | null | undefined, string | null>
}
export interface ProductCardsTable {
  product_id: string
  store_id: string
  created_at: Timestamp
  cursor_ts: string
  status: string
  title: string
  collection_ids: string[]
  card: string
}
export interface ProductCardsStateTable {
  store_id: string
  catalog_version: number
  base_url: string
}
export interface LiveThemesTable {
  store_id: string
  theme_id: string | null
  stream_version: number
  changed_at: Timestamp
}
export interface DeveloperActivityTable {
  command_id: string
  store_id: string
  occurred_at: Timestamp
  first_position: number
  last_position: number
  action: string
  outcome: 'applied' | 'rejected'
  theme_id: string | null
  channel: string
  tool: string | null
  credential_kind: string
  credential_id: string | null
  app_id: string | null
  request_id: string | null
  summary: string
  changes: Json<string[]>
  error_code: string | null
  // Migration 202611261044: null on rows written before it (until a rebuild).
  lines: ColumnType<MerchantLine[] | null, string | null | undefined, string | null>
  issues: ColumnType<RefusalIssue[] | null, string | null | undefined, string | null>
  issue_count: NullableOnInsert<number>
}
export interface NavigationMenusTable {
  store_id: string
  handle: string
  title: string
  items: Json
  stream_version: number
  updated_at: Timestamp
}
export interface MediaAssetsTable {
  asset_id: string
  store_id: string
  url: string
  source: 'upload' | 'url'
  content_type: string | null
  byte_size: number | null
  width: number | null
  height: number | null
  sha256: string | null
  alt: string
  created_at: Timestamp
}

// --- commerce read side (owned by the platform; read-only to agents) ---
export interface MerchantsTable {
  merchant_id: string
  email: string
  name: string
  password_hash: string | null
  created_at: Generated<Date>
}
export interface StoresTable {
  store_id: string
  merchant_id: string
  name: string
  slug: string
  currency: string
  locale: string
  country: string
  timezone: string
  contact_email: string
  description: string
  branding: Json
  catalog_version: Generated<number>
  created_at: Generated<Date>
}
export interface StoreSettingsTable {
  store_id: string
  settings: Json
}
// Secrets live apart so no read path can select them by accident.
export interface StoreSecretsTable {
  store_id: string
  name: string
  value: string
}
export interface ProductsTable {
  product_id: string
  store_id: string
  handle: string
  title: string
  description: string
  vendor: string
  product_type: string
  tags: string[]
  status: 'active' | 'draft' | 'archived'
  images: Json
  options: Json
  created_at: Timestamp
  updated_at: Timestamp
}
export interface ProductVariantsTable {
  variant_id: string
  product_id: string
  store_id: string
  title: string
  sku: string
  price_cents: number
  compare_at_cents: number | null
  inventory_quantity: number
  options: Json
  position: number
}
export interface CollectionsTable {
  collection_id: string
  store_id: string
  handle: string
  title: string
  description: string
  image: Json
  created_at: Timestamp
  updated_at: Timestamp
}
export interface CollectionProductsTable {
  collection_id: string
  product_id: string
  store_id: string
  position: number
}
export interface CustomersTable {
  customer_id: string
  store_id: string
  first_name: string
  last_name: string
  email: string
  phone: string
  city: string
  country: string
  accepts_marketing: boolean
  created_at: Timestamp
}
export interface OrdersTable {
  order_id: string
  store_id: string
  number: number
  customer_id: string | null
  status: 'pending' | 'confirmed' | 'shipped' | 'delivered' | 'cancelled' | 'returned'
  payment_method: string
  currency: string
  subtotal_cents: number
  shipping_cents: number
  total_cents: number
  line_items: Json
  shipping_address: Json
  created_at: Timestamp
  // Storefront orders (migration 202611260835); null on orders recorded from the platform's history.
  email: string | null
  note: string | null
  shipping_rate: Json | null
  confirmation_hash: string | null
}
export interface CheckoutConfigsTable {
  store_id: string
  config: Json
}
export interface MediaBlobsTable {
  sha256: string
  content_type: string
  byte_size: number
  width: number | null
  height: number | null
  bytes: Uint8Array
  created_at: Generated<Date>
}

// Resized copies of media_blobs, made on first request (src/operations/media-derivatives.ts).
export interface MediaDerivativesTable {
  sha256: string
  width: number
  format: 'avif' | 'webp' | 'png' | 'jpg'
  content_type: string
  height: number | null
  byte_size: number | null
  bytes: Uint8Array | null
  claimed_at: Generated<Date>
  created_at: Date | null
}

// --- access: apps, credentials, idempotency ---
export interface AppsTable {
  app_id: string
  store_id: string
  name: string
  client_id: string
  client_secret_hash: string | null
  redirect_uris: string[]
  created_at: Generated<Date>
  kind: Generated<'confidential' | 'public'>
  client_secret_hint: NullableOnInsert<string>
  secret_rotated_at: NullableOnInsert<Date>
  deleted_at: NullableOnInsert<Date>
}
export interface ApiKeysTable {
  key_id: string
  app_id: string
  store_id: string
  name: string
  key_hash: string
  key_hint: string
  scopes: string[]
  created_at: Generated<Date>
  last_used_at: Date | null
  revoked_at: Date | null
  expires_at: Date | null
}
export interface IdempotencyKeysTable {
  store_id: string
  operation: string
  idem_key: string
  request_hash: string
  state: 'in_flight' | 'done'
  response_status: number | null
  // The exact bytes sent the first time (jsonb would reorder keys).
  response_body: string | null
  response_headers: Json | null
  created_at: Generated<Date>
  expires_at: Date
}

// --- OAuth (src/oauth issues, src/auth checks) ---
export interface OAuthClientsTable {
  client_id: string
  kind: 'registered' | 'metadata_document'
  client_name: string
  client_secret_hash: string | null
  token_endpoint_auth_method: 'none' | 'client_secret_basic' | 'client_secret_post'
  redirect_uris: string[]
  metadata: Json<Record<string, unknown>>
  registered_from: string | null
  fetched_at: Timestamp | null
  fresh_until: Timestamp | null
  created_at: Generated<Date>
}
export interface OAuthGrantsTable {
  grant_id: string
  store_id: string
  merchant_id: string
  client_id: string
  app_id: string | null
  client_name: string
  verified: boolean
  scopes: string[]
  created_at: Generated<Date>
  updated_at: Generated<Date>
  last_used_at: Timestamp | null
  revoked_at: Timestamp | null
  revoked_reason: string | null
}
export interface OAuthCodesTable {
  code_hash: string
  grant_id: string
  client_id: string
  store_id: string
  redirect_uri: string
  code_challenge: string
  scopes: string[]
  resource: string
  expires_at: Timestamp
  used_at: Timestamp | null
  created_at: Generated<Date>
}
export interface OAuthTokensTable {
  token_hash: string
  token_id: string
  kind: 'access' | 'refresh'
  grant_id: string
  client_id: string
  store_id: string
  scopes: string[]
  resource: string
  code_hash: string | null
  parent_id: string | null
  expires_at: Timestamp
  rotated_at: Timestamp | null
  revoked_at: Timestamp | null
  created_at: Generated<Date>
}
// --- merchant sign-in ---
export interface MerchantSessionsTable {
  session_hash: string
  merchant_id: string
  // The store the dashboard shows (one of the merchant's, checked when it is set).
  store_id: string
  created_at: Generated<Date>
  last_seen_at: Generated<Date>
  expires_at: Date
  revoked_at: Date | null
}
export interface LoginFailuresTable {
  id: Generated<number>
  subject: string
  failed_at: Generated<Date>
}
export interface LoginLockoutsTable {
  subject: string
  locked_until: Date
}

export interface Database {
  streams: StreamsTable
  events: EventsTable
  event_epochs: EventEpochsTable
  projection_checkpoints: ProjectionCheckpointsTable
  projection_versions: ProjectionVersionsTable
  themes: ThemesTable
  live_themes: LiveThemesTable
  store_context: StoreContextTable
  product_cards: ProductCardsTable
  product_cards_state: ProductCardsStateTable
  developer_activity: DeveloperActivityTable
  navigation_menus: NavigationMenusTable
  media_assets: MediaAssetsTable
  merchants: MerchantsTable
  stores: StoresTable
  store_settings: StoreSettingsTable
  store_secrets: StoreSecretsTable
  products: ProductsTable
  product_variants: ProductVariantsTable
  collections: CollectionsTable
  collection_products: CollectionProductsTable
  customers: CustomersTable
  orders: OrdersTable
  checkout_configs: CheckoutConfigsTable
  media_blobs: MediaBlobsTable
  media_derivatives: MediaDerivativesTable
  apps: AppsTable
  api_keys: ApiKeysTable
  idempotency_keys: IdempotencyKeysTable
  oauth_clients: OAuthClientsTable
  oauth_grants: OAuthGrantsTable
  oauth_codes: OAuthCodesTable
  oauth_tokens: OAuthTokensTable
  merchant_sessions: MerchantSessionsTable
  login_failures: LoginFailuresTable
  login_lockouts: LoginLockoutsTable
}
