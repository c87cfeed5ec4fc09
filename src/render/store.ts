// The store-wide facts every page shows (name, locale and currency, contact details, the
// footer menu, the cash-on-delivery terms), read with the existing read queries.
import { getCheckout, getStore, getStoreSettings } from '../queries/commerce/index.ts'
import type { Checkout, Money } from '../queries/commerce/schemas.ts'
import { listNavigationMenus } from '../queries/navigation.ts'
import type { ReadContext } from '../queries/read-context.ts'

export type MenuLink = { label: string; href: unknown; children: { label: string; href: unknown }[] }

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
  footerMenu: MenuLink[]
  checkout: Checkout | null
}

function menuLinks(items: unknown): MenuLink[] {
  if (!Array.isArray(items)) return []
  return items.flatMap((raw) => {
    const item = raw as { label?: unknown; href?: unknown; children?: unknown }
    if (typeof item?.label !== 'string') return []
    const children = Array.isArray(item.children)
      ? item.children.flatMap((c: { label?: unknown; href?: unknown }) => (typeof c?.label === 'string' ? [{ label: c.label, href: c.href }] : []))
      : []
    return [{ label: item.label, href: item.href, children }]
  })
}

export async function loadStoreView(ctx: ReadContext, storeId: string): Promise<StoreView | null> {
  const [store, settings, checkout, menus] = await Promise.all([
    getStore(ctx, storeId),
    getStoreSettings(ctx, storeId),
    getCheckout(ctx, storeId),
    listNavigationMenus(ctx, storeId),
  ])
  if (!store) return null
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
  }
}

const formats = new Map<string, (cents: number) => string>()

/** "1 899,00 MAD", "129,00 €": the store's locale and the amount's currency. */
export function formatMoney(locale: string, money: Money): string {
  const key = `${locale}|${money.currencyCode}`
  let format = formats.get(key)
  if (!format) {
    try {
      const intl = new Intl.NumberFormat(locale, { style: 'currency', currency: money.currencyCode })
      format = (cents) => intl.format(cents / 100)
    } catch {
      format = (cents) => `${(cents / 100).toFixed(2)} ${money.currencyCode}`
    }
    formats.set(key, format)
  }
  return format(money.cents)
}
