// The store-wide facts every page shows (name, locale and currency, contact details, the
// footer menu, the cash-on-delivery terms), read with the existing read queries.
import type { Checkout } from '../queries/commerce/schemas.ts'
import { listNavigationMenus } from '../queries/navigation.ts'
import type { ReadContext } from '../queries/read-context.ts'
import { loadStoreFacts, storeIdentity } from '../queries/store-identity.ts'
import type { StoreIdentity } from '../theme/default-theme.ts'
import type { NavLink } from './document.ts'

export type StoreView = {
  id: string
  slug: string
  name: string
  description: string
  tagline: string
  locale: string
  currency: string
  contactEmail: string
  contactPhone: string | null
  city: string
  socialLinks: { network: string; url: string }[]
  footerMenu: NavLink[]
  checkout: Checkout | null
  /** What the default theme is made of, when the store has no active theme. */
  identity?: StoreIdentity
}

function menuLinks(items: unknown): NavLink[] {
  if (!Array.isArray(items)) return []
  return items.flatMap((raw) => {
    const item = raw as { label?: unknown; href?: unknown; children?: unknown }
    if (typeof item?.label !== 'string') return []
    const children = Array.isArray(item.children)
      ? item.children.flatMap((c: { label?: unknown; href?: unknown }) =>
          typeof c?.label === 'string' ? [{ label: c.label, href: c.href }] : [],
        )
      : []
    return [{ label: item.label, href: item.href, children }]
  })
}

export async function loadStoreView(ctx: ReadContext, storeId: string): Promise<StoreView | null> {
  const [facts, menus] = await Promise.all([loadStoreFacts(ctx, storeId), listNavigationMenus(ctx, storeId)])
  if (!facts) return null
  const { store, settings, checkout } = facts
  const footer = menus.find((m) => m.handle === 'footer')
  return {
    id: store.id,
    slug: store.slug,
    name: store.name,
    description: store.description,
    tagline: store.branding.tagline,
    locale: store.locale,
    currency: store.currency,
    contactEmail: settings?.contactEmail ?? store.contactEmail,
    contactPhone: settings?.contactPhone ?? null,
    city: settings?.address.city ?? '',
    socialLinks: settings?.socialLinks ?? [],
    footerMenu: menuLinks(footer?.items),
    checkout,
    identity: storeIdentity(facts),
  }
}

export { formatMoney } from '../queries/commerce/money.ts'
