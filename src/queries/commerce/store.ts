import type { ReadContext } from '../read-context.ts'
import { absoluteUrl } from '../read-context.ts'
import { iso } from './money.ts'
import type { Store, StoreSettings } from './schemas.ts'

// Store profile and sanitized settings. Nothing here (or anywhere in src/queries) reads the
// secrets table (a test checks the source); settings are rebuilt field by field from a
// whitelist, so an unexpected key in store_settings.settings is dropped, never passed through.

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback)
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback)
const oneOf = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(v as T) ? (v as T) : fallback
const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/[^\s]+$/i.test(v)

export const STORE_COLUMNS = [
  'store_id',
  'name',
  'slug',
  'description',
  'currency',
  'locale',
  'country',
  'timezone',
  'contact_email',
  'branding',
  'created_at',
] as const
export type StoreRow = {
  store_id: string
  name: string
  slug: string
  description: string
  currency: string
  locale: string
  country: string
  timezone: string
  contact_email: string
  branding: unknown
  created_at: Date | string
}

export async function getStore(ctx: ReadContext, storeId: string): Promise<Store | null> {
  const row = await ctx.db.selectFrom('stores').select(STORE_COLUMNS).where('store_id', '=', storeId).executeTakeFirst()
  return row ? toStore(ctx.baseUrl, row) : null
}

export function toStore(baseUrl: string, row: StoreRow): Store {
  const b = obj(row.branding)
  return {
    id: row.store_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    currency: row.currency,
    locale: row.locale,
    country: row.country,
    timezone: row.timezone,
    contactEmail: row.contact_email,
    branding: {
      logoUrl: typeof b.logoUrl === 'string' && b.logoUrl ? absoluteUrl(baseUrl, b.logoUrl) : null,
      logoAlt: str(b.logoAlt, `${row.name} logo`),
      primaryColor: str(b.primaryColor, '#111111'),
      secondaryColor: str(b.secondaryColor, '#FFFFFF'),
      tagline: str(b.tagline, ''),
    },
    createdAt: iso(row.created_at),
  }
}

export async function getStoreSettings(ctx: ReadContext, storeId: string): Promise<StoreSettings | null> {
  const row = await ctx.db
    .selectFrom('stores')
    .leftJoin('store_settings', 'store_settings.store_id', 'stores.store_id')
    .select([
      'stores.name',
      'stores.contact_email',
      'stores.locale',
      'stores.currency',
      'stores.timezone',
      'stores.country',
      'store_settings.settings',
    ])
    .where('stores.store_id', '=', storeId)
    .executeTakeFirst()
  if (!row) return null
  const s = obj(row.settings)
  const confirmation = obj(s.orderConfirmation)
  const address = obj(s.address)
  const languages = Array.isArray(s.languages)
    ? s.languages.filter((l): l is string => typeof l === 'string')
    : [row.locale.split('-')[0]!]
  const socialLinks = Array.isArray(s.socialLinks)
    ? s.socialLinks.flatMap((l) => {
        const link = obj(l)
        return typeof link.network === 'string' && isHttpUrl(link.url) ? [{ network: link.network, url: link.url }] : []
      })
    : []
  return {
    storeName: str(s.storeName, row.name),
    contactEmail: str(s.contactEmail, row.contact_email),
    contactPhone: strOrNull(s.contactPhone),
    locale: str(s.locale, row.locale),
    languages,
    currency: row.currency,
    timezone: str(s.timezone, row.timezone),
    weightUnit: oneOf(s.weightUnit, ['kg', 'g', 'lb', 'oz'] as const, 'kg'),
    dimensionUnit: oneOf(s.dimensionUnit, ['cm', 'in'] as const, 'cm'),
    taxesIncluded: bool(s.taxesIncluded, true),
    orderConfirmation: {
      byPhone: bool(confirmation.byPhone, true),
      callHours: strOrNull(confirmation.callHours),
      smsUpdates: bool(confirmation.smsUpdates, false),
    },
    address: {
      city: str(address.city, ''),
      region: strOrNull(address.region),
      country: str(address.country, row.country),
    },
    socialLinks,
  }
}
