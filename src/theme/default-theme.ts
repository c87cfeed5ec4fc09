// The default theme: what a store shows before anyone designs a theme for it. Without a store
// it is a neutral starting point (the same for everyone, so tests and agents can rely on its
// section ids). With the store's identity it speaks for that store: its name and tagline in the
// hero, its logo, a hero image from its media, its own About text, and the four information
// pages the storefront footer links to (about, contact, shipping and returns, cash on delivery),
// written from the store's contact details and checkout terms, never invented.
import { COLOR_PATTERN, TEXT_LIMITS, THEME_DOCUMENT_VERSION, type TemplateName } from './constants.ts'
import type { Page, ThemeDocument, ThemeTokens } from './document.ts'

/** What the default theme needs to know about a store, already formatted for people. */
export type StoreIdentity = {
  name: string
  tagline: string
  description: string
  /** A theme image URL (site-relative /media/... or https://), or null. */
  logo: string | null
  heroImage: { url: string; alt: string } | null
  primaryColor: string | null
  secondaryColor: string | null
  contact: { email: string; phone: string | null; city: string; callHours: string | null }
  /** One line per shipping zone, e.g. "Casablanca & Rabat: Standard delivery 25,00 MAD (1–2 days)". */
  delivery: string[]
  freeDeliveryFrom: string | null
  cashOnDelivery: { fee: string | null; maxOrderTotal: string | null; confirmationPolicy: string | null }
}

/** The slugs of the information pages every store-aware default theme ships. */
export const INFORMATION_PAGES = ['about', 'contact', 'shipping-returns', 'cash-on-delivery'] as const

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** Plain-text fields refuse markup characters; a store name never needs them. */
const plain = (s: string, max: number): string => s.replace(/[<>]/g, '').trim().slice(0, max)
/** The neutral design tokens: a new theme starts with them, and the renderer falls back to them. */
export const DEFAULT_TOKENS = {
  theme: 'modern',
  primaryColor: '#1f2937',
  secondaryColor: '#f59e0b',
  font: 'Inter',
  logo: null,
} as const satisfies ThemeTokens

const color = (c: string | null, fallback: string): string => (c !== null && COLOR_PATTERN.test(c) ? c : fallback)

function neutralTemplates(): ThemeDocument['templates'] {
  const templates: Record<TemplateName, ThemeDocument['templates'][TemplateName]> = {
    home: [
      {
        id: 'home-hero',
        type: 'hero',
        settings: {
          heading: 'Welcome to our store',
          subheading: 'Thoughtfully made products, delivered to your door. Pay in cash when your order arrives.',
          primaryButton: { label: 'Shop new arrivals', href: '/products' },
          alignment: 'center',
          height: 'large',
        },
      },
      {
        id: 'home-products',
        type: 'product-grid',
        settings: { heading: 'New arrivals', source: 'newest', limit: 8, columns: 4 },
      },
      {
        id: 'home-about',
        type: 'rich-text',
        settings: {
          heading: 'About us',
          body: '<p>We are a small, independent shop. Every order is packed with care, and you pay in <strong>cash on delivery</strong>.</p>',
          alignment: 'center',
          width: 'narrow',
        },
      },
    ],
    product: [{ id: 'product-details', type: 'product-details', settings: { showDescription: true } }],
    collection: [
      { id: 'collection-products', type: 'collection-products', settings: { columns: 4, productsPerPage: 24 } },
    ],
    blogPost: [{ id: 'blog-post-article', type: 'article', settings: { showAuthor: true, showDate: true } }],
  }
  return templates
}

const textPage = (slug: string, title: string, body: string): Page => ({
  id: `page-${slug}`,
  slug,
  title,
  status: 'published',
  layout: [{ id: `${slug}-text`, type: 'rich-text', settings: { body, width: 'narrow' } }],
})

/** The four information pages, from the store's own facts. */
export function informationPages(store: StoreIdentity): Page[] {
  const e = escapeHtml
  const { contact, cashOnDelivery: cod } = store
  const tel = contact.phone ? `tel:${contact.phone.replace(/[^+0-9]/g, '')}` : null
  const contactLines = [
    `<li>Email: <a href="mailto:${e(contact.email)}">${e(contact.email)}</a></li>`,
    contact.phone && tel
      ? `<li>Phone: <a href="${e(tel)}">${e(contact.phone)}</a>${contact.callHours ? ` (${e(contact.callHours)})` : ''}</li>`
      : '',
    contact.city ? `<li>Based in ${e(contact.city)}</li>` : '',
  ].join('')
  const about = [
    `<p>${e(store.description || `${store.name} is an independent shop.`)}</p>`,
    store.tagline ? `<blockquote>${e(store.tagline)}</blockquote>` : '',
    `<p>Every order is paid in cash when it arrives. Questions? <a href="/pages/contact">Contact us</a>.</p>`,
  ].join('')
  const delivery = [
    '<h2>Delivery</h2>',
    store.delivery.length > 0
      ? `<ul>${store.delivery.map((d) => `<li>${e(d)}</li>`).join('')}</ul>`
      : '<p>We deliver to your door; the cost shows at checkout.</p>',
    store.freeDeliveryFrom
      ? `<p>Delivery is free for orders from <strong>${e(store.freeDeliveryFrom)}</strong>.</p>`
      : '',
    '<h2>Returns</h2>',
    `<p>To return or exchange an item, write to <a href="mailto:${e(contact.email)}">${e(contact.email)}</a> with your order number and we will tell you how to send it back.</p>`,
  ].join('')
  const cash = [
    '<p>You pay in cash, to the courier, when your order arrives: no card and no online payment needed.</p>',
    '<ul>',
    cod.fee ? `<li>Cash-on-delivery fee: ${e(cod.fee)}</li>` : '<li>No cash-on-delivery fee.</li>',
    cod.maxOrderTotal ? `<li>Largest order paid in cash: ${e(cod.maxOrderTotal)}</li>` : '',
    store.freeDeliveryFrom ? `<li>Free delivery from ${e(store.freeDeliveryFrom)}</li>` : '',
    '</ul>',
    cod.confirmationPolicy ? `<h2>Order confirmation</h2><p>${e(cod.confirmationPolicy)}</p>` : '',
    '<p>Please have the exact amount ready; the courier gives you a receipt.</p>',
  ].join('')
  return [
    textPage('about', `About ${plain(store.name, 100)}`, about),
    textPage(
      'contact',
      'Contact',
      `<p>We are happy to help with an order, a product or a delivery.</p><ul>${contactLines}</ul>`,
    ),
    textPage('shipping-returns', 'Shipping & returns', delivery),
    textPage('cash-on-delivery', 'Cash on delivery', cash),
  ]
}

/**
 * A pleasant, valid starting theme. Ids are fixed so every new theme starts out the same;
 * with a store's identity it carries the store's name, tagline, logo, hero image, About text
 * and information pages (same section ids, plus the pages).
 */
export function defaultThemeDocument(store?: StoreIdentity): ThemeDocument {
  const templates = neutralTemplates()
  if (store === undefined) {
    return {
      version: THEME_DOCUMENT_VERSION,
      theme: { ...DEFAULT_TOKENS },
      navigation: [
        { label: 'Home', href: '/' },
        { label: 'Shop', href: '/products' },
      ],
      templates,
      pages: [],
    }
  }
  const name = plain(store.name, TEXT_LIMITS.heading) || 'Our store'
  const grid = templates.home[1]!
  templates.home = [
    {
      id: 'home-hero',
      type: 'hero',
      settings: {
        heading: name,
        subheading:
          plain(store.tagline, TEXT_LIMITS.text) || 'Delivered to your door. Pay in cash when your order arrives.',
        primaryButton: { label: 'Shop new arrivals', href: '/products' },
        secondaryButton: { label: 'Our story', href: '/pages/about' },
        alignment: 'center',
        height: 'large',
        ...(store.heroImage
          ? { image: { url: store.heroImage.url, alt: plain(store.heroImage.alt, TEXT_LIMITS.alt) } }
          : {}),
      },
    },
    grid,
    {
      id: 'home-about',
      type: 'rich-text',
      settings: {
        heading: plain(`About ${name}`, TEXT_LIMITS.heading),
        body: `<p>${escapeHtml(store.description || `${name} is an independent shop.`)}</p><p><a href="/pages/about">Read our story</a> · <a href="/pages/cash-on-delivery">How cash on delivery works</a></p>`,
        alignment: 'center',
        width: 'narrow',
      },
    },
  ]
  return {
    version: THEME_DOCUMENT_VERSION,
    theme: {
      ...DEFAULT_TOKENS,
      primaryColor: color(store.primaryColor, DEFAULT_TOKENS.primaryColor),
      secondaryColor: color(store.secondaryColor, DEFAULT_TOKENS.secondaryColor),
      logo: store.logo,
    },
    navigation: [
      { label: 'Home', href: '/' },
      { label: 'Shop', href: '/products' },
      { label: 'Collections', href: '/collections' },
      { label: 'About', href: '/pages/about' },
      { label: 'Contact', href: '/pages/contact' },
    ],
    templates,
    pages: informationPages(store),
  }
}
