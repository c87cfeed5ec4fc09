// Pages of the service itself, not of a theme: the checkout summary, the 401 page of a bad
// preview link, the 404 of an unknown store, the newsletter answer and the error page. They
// use the base stylesheet with the default theme's tokens, so they look the same whatever
// theme a store runs.
import { readFileSync } from 'node:fs'
import {
  type CheckoutField,
  type CheckoutFieldKey,
  type CheckoutForm,
  checkoutField,
  type FieldIssue,
  requiredFields,
} from '../aggregates/orders/checkout-form.ts'
import { countryName, rateId } from '../aggregates/orders/decider.ts'
import type { CartLineView, CartView } from '../queries/commerce/cart.ts'
import type { ConfirmedOrder } from '../queries/commerce/orders.ts'
import type { Checkout, Order, Product } from '../queries/commerce/schemas.ts'
import { money as moneyOf } from '../queries/commerce/money.ts'
import { defaultThemeDocument } from '../theme/document.ts'
import { readDocument } from './document.ts'
import { createReporter, type Env, type Mode, type PageQuery } from './env.ts'
import { html, type Html } from '../web/html.ts'
import { documentShell, previewBanner, siteFooter, siteHeader, type PreviewInfo } from './layout.ts'
import { formatMoney, type StoreView } from './store.ts'
import { inlineStyle, PageStyles, type InlineStyle } from './styles.ts'
import { createUrls, type Urls } from './urls.ts'

export type ServicePage = { status: number; html: string; styleHash: string }

let defaultStyle: InlineStyle | null = null
function serviceStyle(): InlineStyle {
  defaultStyle ??= inlineStyle(readDocument(defaultThemeDocument()).tokens, new PageStyles())
  return defaultStyle
}

function servicePage(input: { status: number; title: string; urls: Urls; body: Html; noindex?: boolean }): ServicePage {
  const style = serviceStyle()
  return {
    status: input.status,
    styleHash: style.hash,
    html: documentShell({
      title: input.title,
      description: input.title,
      style: style.element,
      bodyClass: 'preset-modern service-page',
      urls: input.urls,
      noindex: input.noindex ?? true,
      body: input.body,
    }),
  }
}

function simpleBody(heading: string, paragraphs: string[], link: Html | null): Html {
  return html`<main id="main" tabindex="-1"><section class="not-found"><div class="container narrow">
<h1>${heading}</h1>
${paragraphs.map((p) => html`<p>${p}</p>`)}
${link ? html`<div class="buttons">${link}</div>` : null}
</div></section></main>`
}

/** 401: the preview link is expired, tampered with, of another purpose, or its theme is gone. */
export function previewRejectedPage(reason: 'expired' | 'invalid' | 'theme-gone'): ServicePage {
  const urls = createUrls('', '')
  const text = {
    expired: [
      'This preview link has expired',
      'Preview links are valid for 15 minutes. Ask for a new preview link to see the theme.',
    ],
    invalid: [
      'This preview link is not valid',
      'The link may be incomplete or altered. Ask for a new preview link to see the theme.',
    ],
    'theme-gone': [
      'This preview is no longer available',
      'The theme of this preview link was archived or no longer exists.',
    ],
  }[reason]
  return servicePage({
    status: 401,
    title: text[0] ?? 'Preview unavailable',
    urls,
    body: simpleBody(text[0] ?? '', [text[1] ?? ''], null),
  })
}

export function storeNotFoundPage(): ServicePage {
  const urls = createUrls('', '')
  return servicePage({
    status: 404,
    title: 'Store not found',
    urls,
    body: simpleBody('Store not found', ['There is no store at this address.'], null),
  })
}

export function errorPage(status: number): ServicePage {
  const urls = createUrls('', '')
  const message =
    status === 503
      ? 'The store is temporarily unavailable. Please try again in a moment.'
      : 'Something went wrong on our side. Please try again in a moment.'
  return servicePage({
    status,
    title: 'Temporarily unavailable',
    urls,
    body: simpleBody('Sorry, something went wrong', [message], null),
  })
}

function serviceHeader(store: StoreView, urls: Urls, label: string): Html {
  return html`<header class="service-header"><div class="container"><a class="brand" href="${urls.path('/')}"><span>${store.name}</span></a><span class="header-cod">${label}</span></div></header>`
}

export function newsletterPage(store: StoreView, urls: Urls, preview: PreviewInfo | null): ServicePage {
  return servicePage({
    status: 200,
    title: `Newsletter – ${store.name}`,
    urls,
    body: html`${preview ? previewBanner(preview, []) : null}${serviceHeader(store, urls, 'Newsletter')}${simpleBody(
      'Newsletter sign-up is not open yet',
      [
        `${store.name} does not collect newsletter sign-ups yet, so your address was not stored. Please check back soon.`,
      ],
      html`<a class="btn" href="${urls.path('/')}">Back to the store</a>`,
    )}`,
  })
}

export type CheckoutInput = {
  store: StoreView
  urls: Urls
  product: Product | null
  variantId: string | null
  quantity: number
  preview: PreviewInfo | null
}

/**
 * The checkout summary of a merchant's preview inside the dashboard (the storefront and preview
 * links have the cart and checkout of the shop below instead): the chosen product and variant,
 * the price, the delivery options, the cash-on-delivery fee and the estimated total.
 */
export function checkoutPage(input: CheckoutInput): ServicePage {
  const { store, urls, product } = input
  const checkout = store.checkout
  const fmt = (cents: number) => formatMoney(store.locale, moneyOf(cents, store.currency))
  const variant = product?.variants.find((v) => v.id === input.variantId) ?? null
  const header = html`${input.preview ? previewBanner(input.preview, []) : null}${serviceHeader(store, urls, 'Checkout · Cash on delivery')}`
  if (product === null || variant === null || !product.visibleOnStorefront) {
    return servicePage({
      status: 404,
      title: `Checkout – ${store.name}`,
      urls,
      body: html`${header}${simpleBody('Choose a product first', ['The checkout needs a product and a variant. Pick one on a product page and order from there.'], html`<a class="btn" href="${urls.path('/products')}">Browse products</a>`)}`,
    })
  }
  const quantity = input.quantity
  const subtotal = variant.price.cents * quantity
  const threshold = checkout?.freeShippingThreshold?.cents ?? null
  const freeShipping = threshold !== null && subtotal >= threshold
  const rates = (checkout?.shippingZones ?? []).flatMap((z) => z.rates.map((r) => ({ zone: z.name, ...r })))
  const cheapest = rates.reduce<number | null>(
    (min, r) => (min === null || r.price.cents < min ? r.price.cents : min),
    null,
  )
  const shipping = freeShipping ? 0 : (cheapest ?? 0)
  const codFee = checkout?.codFee.cents ?? 0
  const total = subtotal + shipping + codFee
  const overMax = checkout?.maxOrderTotal ? total > checkout.maxOrderTotal.cents : false
  const image = product.featuredImage ? urls.image(product.featuredImage.url) : null
  const fields = (checkout?.requiredFields ?? []).map(
    (f) =>
      ({
        fullName: 'full name',
        phone: 'phone number',
        address1: 'address',
        city: 'city',
        postalCode: 'postal code',
        email: 'email address',
      })[f] ?? f,
  )
  const body = html`${header}<main id="main" tabindex="-1"><div class="checkout">
<h1>Checkout</h1>
<p>Review your order. You pay in cash to the courier when it arrives.</p>
<table>
<caption class="visually-hidden">Your order</caption>
<thead><tr><th scope="col">Product</th><th scope="col" class="num">Price</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Total</th></tr></thead>
<tbody><tr>
<td><div class="checkout-line">${image ? html`<img src="${image}" alt="" width="72" height="72">` : null}<div><a href="${urls.path(`/products/${encodeURIComponent(product.handle)}`, { variant: variant.id })}">${product.title}</a>${
    variant.title && variant.title !== 'Default' ? html`<br><span class="result-count">${variant.title}</span>` : null
  }${variant.availableForSale ? null : html`<br><strong>This variant is sold out.</strong>`}</div></div></td>
<td class="num">${formatMoney(store.locale, variant.price)}</td>
<td class="num">${quantity}</td>
<td class="num">${fmt(subtotal)}</td>
</tr></tbody>
<tfoot>
<tr><th scope="row" colspan="3">Subtotal</th><td class="num">${fmt(subtotal)}</td></tr>
<tr><th scope="row" colspan="3">Delivery${freeShipping ? ` (free from ${fmt(threshold ?? 0)})` : cheapest !== null ? ' (from)' : ''}</th><td class="num">${fmt(shipping)}</td></tr>
<tr><th scope="row" colspan="3">Cash-on-delivery fee</th><td class="num">${fmt(codFee)}</td></tr>
<tr class="grand"><th scope="row" colspan="3">Estimated total</th><td class="num">${fmt(total)}</td></tr>
</tfoot>
</table>
${
  rates.length > 0
    ? html`<h2>Delivery options</h2><ul class="rates">${rates.map(
        (r) =>
          html`<li>${r.zone}: ${r.name}, ${freeShipping ? 'free' : formatMoney(store.locale, r.price)}, ${r.minDeliveryDays}–${r.maxDeliveryDays} days</li>`,
      )}</ul>`
    : null
}
${overMax && checkout?.maxOrderTotal ? html`<p class="notice">Cash-on-delivery orders are limited to ${formatMoney(store.locale, checkout.maxOrderTotal)}. Lower the quantity to order.</p>` : null}
${checkout?.orderConfirmation.policy ? html`<p class="notice">${checkout.orderConfirmation.policy}</p>` : null}
${fields.length > 0 ? html`<p>To place the order you will give your ${fields.join(', ')}.</p>` : null}
<p class="notice"><strong>This preview only shows prices.</strong> The cart and the checkout run on the live store and in a theme's preview link; inside the dashboard, this page shows what the order would cost.</p>
<div class="buttons"><button class="btn" type="button" disabled>Place order (cash on delivery)</button><a class="btn btn-outline" href="${urls.path(`/products/${encodeURIComponent(product.handle)}`)}">Back to the product</a></div>
</div></main>`
  return servicePage({ status: 200, title: `Checkout – ${store.name}`, urls, body, noindex: true })
}

// --- the shop: cart, checkout and order confirmation -----------------------------------------
// Per shopper, never cached (`private, no-store`), and shown in the store's own design: the
// theme's tokens, header and footer (the live theme, or the previewed draft in a preview), with
// the shop's own rules (shop.css) in the page's one hashed <style>.

// Sent inside every shop page: its line breaks and indentation are left out, comments too.
const SHOP_CSS = readFileSync(new URL('./shop.css', import.meta.url), 'utf8')
  .replace(/\/\*[^*]*\*\//g, '')
  .replace(/\n\s*/g, '')

class ShopStyles extends PageStyles {
  override css(): string {
    return super.css() + SHOP_CSS
  }
}

export type ShopFrame = {
  store: StoreView
  document: unknown
  urls: Urls
  mode: Mode
  preview: PreviewInfo | null
  now: Date
}

const NO_QUERY: PageQuery = { variant: null, page: 1, sort: null, inStock: false, minPrice: null, maxPrice: null }

function shopPage(frame: ShopFrame, input: { status: number; title: string; path: string; main: Html }): ServicePage {
  const doc = readDocument(frame.document)
  const styles = new ShopStyles()
  let counter = 0
  const env: Env = {
    store: frame.store,
    urls: frame.urls,
    styles,
    mode: frame.mode,
    data: { products: new Map(), collections: new Map(), newest: [], product: null, listing: null, allCollections: [] },
    report: createReporter(),
    query: NO_QUERY,
    now: frame.now,
    liveUrl: '',
    nextId: (prefix) => `${prefix}${++counter}`,
    // The cart and checkout show no media-library picture but the logo, at its plain address.
    media: new Map(),
    lead: { taken: true, preload: null },
  }
  const header = siteHeader(doc, env, input.path)
  const footer = siteFooter(frame.store, doc, env)
  const style = inlineStyle(doc.tokens, styles)
  return {
    status: input.status,
    styleHash: style.hash,
    html: documentShell({
      title: `${input.title} – ${frame.store.name}`,
      description: `${input.title} – ${frame.store.name}`,
      style: style.element,
      bodyClass: `preset-${doc.tokens.preset} shop-page`,
      urls: frame.urls,
      noindex: true,
      body: html`${frame.preview ? previewBanner(frame.preview, []) : null}
${header}
<main id="main" tabindex="-1">${input.main}</main>
${footer}`,
    }),
  }
}

const fmtOf = (store: StoreView) => (cents: number) => formatMoney(store.locale, moneyOf(cents, store.currency))

const variantName = (variantTitle: string) => (variantTitle && variantTitle !== 'Default' ? variantTitle : null)

export type CartNotice =
  | { kind: 'added' | 'limited' | 'unavailable' | 'removed'; title: string; quantity?: number }
  | { kind: 'updated' }

function cartNotice(notice: CartNotice | null): Html | null {
  if (notice === null) return null
  const text =
    notice.kind === 'added'
      ? `Added to your cart: ${notice.title}.`
      : notice.kind === 'limited'
        ? `Only ${notice.quantity ?? 0} of ${notice.title} ${notice.quantity === 1 ? 'is' : 'are'} left: your cart holds ${notice.quantity === 1 ? 'it' : 'them all'}.`
        : notice.kind === 'unavailable'
          ? `${notice.title} is sold out, so it was not added.`
          : notice.kind === 'removed'
            ? `Removed from your cart: ${notice.title}.`
            : 'Your cart is updated.'
  return html`<p class="shop-notice" role="status">${text}</p>`
}

function lineThumb(line: CartLineView, frame: ShopFrame): Html {
  const src = line.image ? frame.urls.image(line.image.url) : null
  return src
    ? html`<img src="${src}" alt="" width="80" height="80" loading="lazy">`
    : html`<span class="cart-thumb" aria-hidden="true"></span>`
}

function productLink(line: CartLineView, frame: ShopFrame): Html {
  const variant = variantName(line.variantTitle)
  const title =
    line.productHandle === null
      ? html`<span class="cart-line-title">${line.title}</span>`
      : html`<a class="cart-line-title" href="${frame.urls.path(`/products/${encodeURIComponent(line.productHandle)}`)}">${line.title}</a>`
  return html`${title}${variant ? html`<p class="cart-line-meta">${variant}</p>` : null}`
}

function freeDelivery(frame: ShopFrame, subtotal: number): boolean {
  const threshold = frame.store.checkout?.freeShippingThreshold?.cents ?? null
  return threshold !== null && subtotal >= threshold
}

function freeShippingLine(frame: ShopFrame, subtotal: number): Html | null {
  const threshold = frame.store.checkout?.freeShippingThreshold?.cents ?? null
  if (threshold === null) return null
  const fmt = fmtOf(frame.store)
  return subtotal >= threshold
    ? null
    : html`<p class="summary-note">Add ${fmt(threshold - subtotal)} more for free delivery (free from ${fmt(threshold)}).</p>`
}

export type CartPageInput = { frame: ShopFrame; cart: CartView; notice: CartNotice | null }

/** /cart: the lines with their quantities (change, remove), the subtotal and the way to checkout. */
export function cartPage({ frame, cart, notice }: CartPageInput): ServicePage {
  const { urls, store } = frame
  const fmt = fmtOf(store)
  const codFee = store.checkout?.codFee.cents ?? 0
  if (cart.lines.length === 0) {
    return shopPage(frame, {
      status: 200,
      title: 'Your cart',
      path: '/cart',
      main: html`<div class="shop">${cartNotice(notice)}<h1>Your cart</h1>
<p class="shop-lead">Your cart is empty.</p>
<div class="shop-actions"><a class="btn" href="${urls.path('/products')}">Continue shopping</a></div></div>`,
    })
  }
  const blocked = cart.lines.some((l) => l.issue !== null)
  const lines = cart.lines.map(
    (line) => html`<li class="cart-line">${lineThumb(line, frame)}<div>
${productLink(line, frame)}
<p class="cart-line-meta">${fmt(line.unitCents)} each</p>
${line.issue ? html`<p class="line-issue">${line.issue}</p>` : null}
<div class="cart-line-controls">
<div class="cart-qty"><label for="${`q-${line.variantId}`}">Quantity</label><input form="cart-update" id="${`q-${line.variantId}`}" type="number" name="${`q:${line.variantId}`}" value="${line.quantity}" min="0" max="99" inputmode="numeric"></div>
<form method="post" action="${urls.path('/cart/remove')}"><input type="hidden" name="variant" value="${line.variantId}"><button class="link-button" type="submit">Remove<span class="visually-hidden"> ${line.title}</span></button></form>
<span class="cart-line-total">${fmt(line.totalCents)}</span>
</div></div></li>`,
  )
  const main = html`<div class="shop">${cartNotice(notice)}<h1>Your cart</h1>
<p class="shop-lead">${cart.itemCount} ${cart.itemCount === 1 ? 'item' : 'items'}. Pay in cash when your order arrives.</p>
<div class="shop-grid"><div>
<ul class="cart-lines">${lines}</ul>
<form id="cart-update" method="post" action="${urls.path('/cart')}"><div class="shop-actions"><button class="btn btn-outline" type="submit">Update quantities</button></div></form>
</div>
<aside class="shop-panel" aria-labelledby="cart-summary"><h2 id="cart-summary">Summary</h2>
<table class="summary"><tbody>
<tr><th scope="row">Subtotal</th><td>${fmt(cart.subtotalCents)}</td></tr>
<tr><th scope="row">Cash-on-delivery fee</th><td>${fmt(codFee)}</td></tr>
<tr><th scope="row">Delivery</th><td>${freeDelivery(frame, cart.subtotalCents) ? 'Free' : 'At checkout'}</td></tr>
</tbody></table>
${freeShippingLine(frame, cart.subtotalCents)}
${blocked ? html`<p class="line-issue">Some products cannot be ordered as they are: see the messages in your cart.</p>` : null}
<div class="shop-actions"><a class="btn btn-block" href="${urls.path('/checkout')}">Check out</a><a class="btn btn-outline btn-block" href="${urls.path('/products')}">Continue shopping</a></div>
</aside></div></div>`
  return shopPage(frame, { status: 200, title: 'Your cart', path: '/cart', main })
}

export type CheckoutPageInput = {
  frame: ShopFrame
  cart: CartView
  form: CheckoutForm
  issues: readonly FieldIssue[]
  checkoutToken: string
  csrfToken: string
  status?: number
}

type Rate = { id: string; zone: string; name: string; priceCents: number; days: string; countries: readonly string[] }

function ratesOf(checkout: Checkout | null): Rate[] {
  return (checkout?.shippingZones ?? []).flatMap((z) =>
    z.rates.map((r) => ({
      id: rateId(z.name, r.name),
      zone: z.name,
      name: r.name,
      priceCents: r.price.cents,
      days:
        r.minDeliveryDays === r.maxDeliveryDays
          ? `${r.minDeliveryDays} ${r.minDeliveryDays === 1 ? 'day' : 'days'}`
          : `${r.minDeliveryDays}–${r.maxDeliveryDays} days`,
      countries: z.countries,
    })),
  )
}

function orderSummary(frame: ShopFrame, cart: CartView, shipping: number | null, issues: readonly FieldIssue[]): Html {
  const fmt = fmtOf(frame.store)
  const codFee = frame.store.checkout?.codFee.cents ?? 0
  const max = frame.store.checkout?.maxOrderTotal?.cents ?? null
  const total = cart.subtotalCents + (shipping ?? 0) + codFee
  const lineIssues = new Map(issues.filter((i) => i.path.startsWith('line:')).map((i) => [i.path.slice(5), i.message]))
  return html`<aside class="shop-panel" aria-labelledby="order-summary"><h2 id="order-summary">Your order</h2>
<table class="summary"><tbody>
${cart.lines.map((line) => {
  const issue = lineIssues.get(line.variantId) ?? line.issue
  return html`<tr class="item"><th scope="row">${line.title}${variantName(line.variantTitle) ? ` (${line.variantTitle})` : ''} × ${line.quantity}${issue ? html`<br><span class="line-issue">${issue}</span>` : null}</th><td>${fmt(line.totalCents)}</td></tr>`
})}
<tr><th scope="row">Subtotal</th><td>${fmt(cart.subtotalCents)}</td></tr>
<tr><th scope="row">Delivery</th><td>${shipping === null ? 'Choose below' : shipping === 0 ? 'Free' : fmt(shipping)}</td></tr>
<tr><th scope="row">Cash-on-delivery fee</th><td>${fmt(codFee)}</td></tr>
<tr class="grand"><th scope="row">${shipping === null ? 'Total before delivery' : 'Total to pay on delivery'}</th><td>${fmt(total)}</td></tr>
</tbody></table>
${freeShippingLine(frame, cart.subtotalCents)}
${max !== null ? html`<p class="summary-note">Cash-on-delivery orders can be up to ${fmt(max)}.</p>` : null}
<p class="summary-note"><a href="${frame.urls.path('/cart')}">Change your cart</a></p>
</aside>`
}

function fieldInput(
  field: CheckoutField,
  form: CheckoutForm,
  required: boolean,
  error: string | undefined,
  options: { countries?: readonly string[] } = {},
): Html {
  const id = `f-${field.key}`
  const errorId = `${id}-error`
  const label = html`<label for="${id}">${field.label}${required ? null : html` <span class="optional">(optional)</span>`}</label>`
  const attrs = html`${required ? html` required` : null}${error ? html` aria-invalid="true" aria-describedby="${errorId}"` : null}`
  const message = error ? html`<p class="field-error" id="${errorId}">${error}</p>` : null
  if (field.key === 'country' && options.countries) {
    const chosen = form.country.toUpperCase()
    return html`<div class="field">${label}<select id="${id}" name="country" autocomplete="country"${attrs}>
<option value=""${chosen === '' ? html` selected` : null}>Choose a country</option>
${options.countries.map((c) => html`<option value="${c}"${chosen === c ? html` selected` : null}>${countryName(c)}</option>`)}
</select>${message}</div>`
  }
  if (field.key === 'note')
    return html`<div class="field">${label}<textarea id="${id}" name="note" maxlength="${field.max}"${attrs}>${form.note}</textarea>${message}</div>`
  return html`<div class="field">${label}<input id="${id}" name="${field.key}" type="${field.type ?? 'text'}" value="${form[field.key]}" maxlength="${field.max}"${field.autocomplete ? html` autocomplete="${field.autocomplete}"` : null}${attrs}>${message}</div>`
}

/** /checkout: the cash-on-delivery form, as the store's checkout configuration asks for it. */
export function checkoutFormPage(input: CheckoutPageInput): ServicePage {
  const { frame, cart, form, issues } = input
  const { urls, store } = frame
  const checkout = store.checkout
  const fmt = fmtOf(store)
  const errors = new Map<string, string>()
  for (const i of issues) if (!errors.has(i.path)) errors.set(i.path, i.message)
  const required = requiredFields(
    checkout?.requiredFields ?? [],
    checkout ? checkout.orderConfirmation.required && checkout.orderConfirmation.method === 'phone_call' : false,
  )
  const rates = ratesOf(checkout)
  const countries = [...new Set(rates.flatMap((r) => r.countries))]
  const free = freeDelivery(frame, cart.subtotalCents)
  const chosen = rates.find((r) => r.id === form.rate) ?? (rates.length === 1 ? rates[0]! : null)
  const shipping = chosen ? (free ? 0 : chosen.priceCents) : rates.length === 0 ? 0 : null
  const show = (key: CheckoutFieldKey) =>
    required.has(key) || ['email', 'address2', 'postalCode'].includes(key) || errors.has(key) || form[key] !== ''
  const f = (key: CheckoutFieldKey, options: { countries?: readonly string[] } = {}) =>
    show(key) ? fieldInput(checkoutField(key), form, required.has(key), errors.get(key), options) : null
  const general = issues.filter((i) => i.path === 'checkout' || i.path === 'cart')
  const summaryList = issues.filter((i) => i.path !== 'checkout')
  // Each message names what it is about; the fields and cart lines repeat theirs where they are.
  const alert =
    issues.length > 0
      ? html`<div class="shop-alert" role="alert"><h2>${general.length > 0 && summaryList.length === 0 ? 'The order could not be placed' : 'Please check your order'}</h2><ul>${[
          ...general.filter((i) => i.path === 'checkout').map((i) => html`<li>${i.message}</li>`),
          ...summaryList.map((i) => html`<li>${i.message}</li>`),
        ]}</ul></div>`
      : null
  const country =
    countries.length === 1
      ? html`<div class="field"><span class="label">Country</span><p>${countryName(countries[0]!)} <span class="optional">(the store delivers there only)</span></p></div>`
      : countries.length > 1
        ? fieldInput(checkoutField('country'), form, true, errors.get('country'), { countries })
        : f('country')
  const rateError = errors.get('rate')
  const delivery =
    rates.length > 0
      ? html`<fieldset${rateError ? html` aria-describedby="f-rate-error"` : null}><legend>Delivery</legend><div class="rates-list">${rates.map(
          (r, i) =>
            html`<label class="rate"><input type="radio" name="rate" id="${`f-rate-${i}`}" value="${r.id}"${chosen?.id === r.id ? html` checked` : null} required><span class="rate-text"><strong>${r.name}</strong><small>${r.zone} · ${r.days}</small></span><span class="rate-price">${free ? 'Free' : fmt(r.priceCents)}</span></label>`,
        )}</div>${rateError ? html`<p class="field-error" id="f-rate-error">${rateError}</p>` : null}</fieldset>`
      : null
  const policy = checkout?.orderConfirmation.policy
  const total = cart.subtotalCents + (shipping ?? 0) + (checkout?.codFee.cents ?? 0)
  const main = html`<div class="shop"><h1>Checkout</h1>
<p class="shop-lead">No account needed. You pay in cash to the courier when your order arrives.</p>
${alert}
<div class="shop-grid summary-first"><form class="shop-form" method="post" action="${urls.path('/checkout')}" novalidate>
<input type="hidden" name="_csrf" value="${input.csrfToken}">
<input type="hidden" name="token" value="${input.checkoutToken}">
<fieldset><legend>Contact</legend>${f('fullName')}<div class="field-row">${f('phone')}${f('email')}</div></fieldset>
<fieldset><legend>Delivery address</legend>${f('address1')}${f('address2')}<div class="field-row">${f('city')}${f('postalCode')}</div>${f('region')}${country}</fieldset>
${delivery}
<fieldset><legend>Note</legend>${fieldInput(checkoutField('note'), form, false, errors.get('note'))}</fieldset>
${policy ? html`<div class="policy"><h2>How your order is confirmed</h2><p>${policy}</p></div>` : null}
${frame.mode === 'preview' ? html`<p class="shop-preview">This is a preview: placing the order here checks it and creates nothing. No order is recorded and no stock is taken.</p>` : null}
<button class="btn btn-block" type="submit">${shipping === null ? 'Place order · cash on delivery' : `Place order · pay ${fmt(total)} on delivery`}</button>
</form>
${orderSummary(frame, cart, shipping, issues)}
</div></div>`
  return shopPage(frame, { status: input.status ?? 200, title: 'Checkout', path: '/checkout', main })
}

function orderLines(frame: ShopFrame, order: Order | PlacedData): Html {
  const fmt = fmtOf(frame.store)
  const lines =
    'lineItems' in order && Array.isArray(order.lineItems)
      ? order.lineItems.map((l) => ({
          title: l.title,
          variantTitle: l.variantTitle,
          quantity: l.quantity,
          totalCents: 'total' in l ? l.total.cents : l.unitPriceCents * l.quantity,
        }))
      : []
  const cents = (m: { cents: number } | number) => (typeof m === 'number' ? m : m.cents)
  const o = order as Partial<Order> & Partial<PlacedData>
  const subtotal = cents(o.subtotal ?? o.subtotalCents ?? 0)
  const shipping = cents(o.shipping ?? o.shippingCents ?? 0)
  const codFee = cents(o.codFee ?? o.codFeeCents ?? 0)
  const total = cents(o.total ?? o.totalCents ?? 0)
  return html`<table class="summary"><tbody>
${lines.map((l) => html`<tr class="item"><th scope="row">${l.title}${variantName(l.variantTitle) ? ` (${l.variantTitle})` : ''} × ${l.quantity}</th><td>${fmt(l.totalCents)}</td></tr>`)}
<tr><th scope="row">Subtotal</th><td>${fmt(subtotal)}</td></tr>
<tr><th scope="row">Delivery</th><td>${shipping === 0 ? 'Free' : fmt(shipping)}</td></tr>
<tr><th scope="row">Cash-on-delivery fee</th><td>${fmt(codFee)}</td></tr>
<tr class="grand"><th scope="row">Total to pay on delivery</th><td>${fmt(total)}</td></tr>
</tbody></table>`
}

type PlacedData = {
  number: number
  lineItems: { title: string; variantTitle: string; quantity: number; unitPriceCents: number }[]
  subtotalCents: number
  shippingCents: number
  codFeeCents: number
  totalCents: number
}

function addressLines(a: Order['shippingAddress']): Html {
  return html`${a.name}<br>${a.address1}${a.address2 ? html`<br>${a.address2}` : null}<br>${[a.postalCode, a.city].filter(Boolean).join(' ')}${a.region ? html`<br>${a.region}` : null}<br>${countryName(a.country)}`
}

export type ConfirmationInput = { frame: ShopFrame; order: ConfirmedOrder }

/** The order's confirmation page (reached by its unguessable link only): what was ordered, where it goes, what happens next. */
export function orderConfirmationPage({ frame, order }: ConfirmationInput): ServicePage {
  const { store, urls } = frame
  const fmt = fmtOf(store)
  const policy = store.checkout?.orderConfirmation.policy
  const firstName = order.shippingAddress.name.split(/\s+/)[0] ?? ''
  const rate = order.shippingRate
  const main = html`<div class="shop"><p class="order-number">Order ${order.name}</p>
<h1>Thank you${firstName ? `, ${firstName}` : ''}! Your order is placed.</h1>
<p class="shop-lead">You pay ${fmt(order.total.cents)} in cash when the courier delivers it. Keep this page: its address is the only way back to it.</p>
<div class="shop-grid"><div>
${policy ? html`<div class="policy"><h2>What happens next</h2><p>${policy}</p>${order.shippingAddress.phone ? html`<p>We will call ${order.shippingAddress.phone}.</p>` : null}</div>` : null}
<div class="confirm-facts">
<div><h2>Delivery address</h2><p>${addressLines(order.shippingAddress)}</p></div>
<div><h2>Delivery</h2><p>${rate ? html`${rate.name} (${rate.zone})<br>${rate.minDeliveryDays === rate.maxDeliveryDays ? `${rate.minDeliveryDays}` : `${rate.minDeliveryDays}–${rate.maxDeliveryDays}`} days after confirmation` : 'As agreed with the store'}</p>
<h2>Contact</h2><p>${order.shippingAddress.phone}${order.email ? html`<br>${order.email}` : null}</p></div>
${order.note ? html`<div><h2>Your note</h2><p>${order.note}</p></div>` : null}
</div>
<div class="shop-actions"><a class="btn" href="${urls.path('/products')}">Continue shopping</a></div>
</div>
<aside class="shop-panel" aria-labelledby="confirmed-summary"><h2 id="confirmed-summary">Your order</h2>${orderLines(frame, order)}</aside>
</div></div>`
  return shopPage(frame, { status: 200, title: `Order ${order.name}`, path: '/checkout', main })
}

/** A preview's answer to "Place order": the order was checked and nothing was created. */
export function previewOrderPage(input: { frame: ShopFrame; order: PlacedData | null }): ServicePage {
  const { frame, order } = input
  const fmt = fmtOf(frame.store)
  const main = html`<div class="shop"><h1>Preview: no order was placed</h1>
<p class="shop-preview">This is a preview of the theme ${frame.preview?.themeName ?? ''}. The checkout accepted these details${order ? ` and would have placed order #${order.number} for ${fmt(order.totalCents)}` : ''}, but in a preview nothing is recorded: no order was created and no stock was taken.</p>
${order ? html`<div class="shop-grid"><div><div class="shop-actions"><a class="btn" href="${frame.urls.path('/checkout')}">Back to the checkout</a><a class="btn btn-outline" href="${frame.urls.path('/cart')}">Back to the cart</a></div></div><aside class="shop-panel" aria-labelledby="preview-summary"><h2 id="preview-summary">The order it would have been</h2>${orderLines(frame, order)}</aside></div>` : null}
</div>`
  return shopPage(frame, { status: 200, title: 'Preview: no order placed', path: '/checkout', main })
}

/** A shop page that cannot be shown: an order link that leads nowhere, a form from another site. */
export function shopMessagePage(
  frame: ShopFrame,
  input: { status: number; title: string; message: string; link: { path: string; label: string } },
): ServicePage {
  return shopPage(frame, {
    status: input.status,
    title: input.title,
    path: '',
    main: html`<div class="shop"><h1>${input.title}</h1><p class="shop-lead">${input.message}</p><div class="shop-actions"><a class="btn" href="${frame.urls.path(input.link.path)}">${input.link.label}</a></div></div>`,
  })
}
