// A store's identity as the default theme needs it (src/theme/default-theme.ts): name, tagline,
// logo, a hero image from its media, contact details and checkout terms formatted for people.
// Read with the existing queries; nothing new is stored.
import type { StoreIdentity } from '../theme/default-theme.ts'
import { formatMoney } from './commerce/money.ts'
import type { Checkout, Store, StoreSettings } from './commerce/schemas.ts'
import { getCheckout, getStore, getStoreSettings } from './commerce/index.ts'
import { listMediaAssets, type MediaAssetView } from './media-assets.ts'
import type { ReadContext } from './read-context.ts'

export type StoreFacts = {
  store: Store
  settings: StoreSettings | null
  checkout: Checkout | null
  media: readonly MediaAssetView[]
}

/** A theme image URL for a URL this service handed out: its path for /media/ files, else the URL itself. */
function themeUrl(url: string | null): string | null {
  if (url === null) return null
  try {
    const parsed = new URL(url)
    if (parsed.pathname.startsWith('/media/')) return parsed.pathname
    return parsed.protocol === 'https:' ? url : null
  } catch {
    return url.startsWith('/') ? url : null
  }
}

/** The widest landscape image among the store's media (a banner, not the logo or a square). */
export function heroImageOf(media: readonly MediaAssetView[]): MediaAssetView | null {
  let best: MediaAssetView | null = null
  for (const m of media) {
    if (m.width === null || m.height === null || m.width < m.height * 1.5) continue
    if (best === null || m.width > best.width!) best = m
  }
  return best
}

const days = (min: number, max: number) => (min === max ? `${min} ${min === 1 ? 'day' : 'days'}` : `${min}–${max} days`)

export function storeIdentity({ store, settings, checkout, media }: StoreFacts): StoreIdentity {
  const fmt = (m: Parameters<typeof formatMoney>[1]) => formatMoney(store.locale, m)
  const hero = heroImageOf(media)
  return {
    name: store.name,
    tagline: store.branding.tagline,
    description: store.description,
    logo: themeUrl(store.branding.logoUrl),
    heroImage: hero ? { url: hero.themeUrl, alt: hero.alt } : null,
    primaryColor: store.branding.primaryColor,
    secondaryColor: store.branding.secondaryColor,
    contact: {
      email: settings?.contactEmail ?? store.contactEmail,
      phone: settings?.contactPhone ?? null,
      city: settings?.address.city ?? '',
      callHours: settings?.orderConfirmation.callHours ?? null,
    },
    delivery: (checkout?.shippingZones ?? []).map(
      (z) =>
        `${z.name}: ${z.rates.map((r) => `${r.name} ${fmt(r.price)} (${days(r.minDeliveryDays, r.maxDeliveryDays)})`).join(', ')}`,
    ),
    freeDeliveryFrom: checkout?.freeShippingThreshold ? fmt(checkout.freeShippingThreshold) : null,
    cashOnDelivery: {
      fee: checkout && checkout.codFee.cents > 0 ? fmt(checkout.codFee) : null,
      maxOrderTotal: checkout?.maxOrderTotal ? fmt(checkout.maxOrderTotal) : null,
      confirmationPolicy: checkout?.orderConfirmation.required ? checkout.orderConfirmation.policy : null,
    },
  }
}

/** The facts of one store (null when it does not exist), media limited to its first 100 assets. */
export async function loadStoreFacts(ctx: ReadContext, storeId: string): Promise<StoreFacts | null> {
  const [store, settings, checkout, media] = await Promise.all([
    getStore(ctx, storeId),
    getStoreSettings(ctx, storeId),
    getCheckout(ctx, storeId),
    listMediaAssets(ctx, storeId, { limit: 100 }),
  ])
  return store ? { store, settings, checkout, media: media.items } : null
}

export async function loadStoreIdentity(ctx: ReadContext, storeId: string): Promise<StoreIdentity | null> {
  const facts = await loadStoreFacts(ctx, storeId)
  return facts ? storeIdentity(facts) : null
}
