import type { Image, Money } from './schemas.ts'
import { absoluteUrl } from '../read-context.ts'

// Every currency the platform sells in has two decimals (MAD, EUR, ...).
export function money(cents: number, currencyCode: string): Money {
  const c = Math.trunc(cents)
  const sign = c < 0 ? '-' : ''
  const abs = Math.abs(c)
  return { amount: `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`, currencyCode, cents: c }
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback)
const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null)

// A stored image ({ url, alt, width, height }, url site-relative) as returned to clients.
export function toImage(baseUrl: string, stored: unknown): Image | null {
  if (stored === null || typeof stored !== 'object') return null
  const s = stored as Record<string, unknown>
  if (typeof s.url !== 'string' || s.url.length === 0) return null
  return { url: absoluteUrl(baseUrl, s.url), alt: str(s.alt), width: intOrNull(s.width), height: intOrNull(s.height) }
}

export function toImages(baseUrl: string, stored: unknown): Image[] {
  if (!Array.isArray(stored)) return []
  return stored.flatMap((s) => {
    const img = toImage(baseUrl, s)
    return img ? [img] : []
  })
}

export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString()

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
