// Pages of the service itself, not of a theme: the checkout summary, the 401 page of a bad
// preview link, the 404 of an unknown store, the newsletter answer and the error page. They
// use the base stylesheet with the default theme's tokens, so they look the same whatever
// theme a store runs.
import type { Product } from '../queries/commerce/schemas.ts'
import { money as moneyOf } from '../queries/commerce/money.ts'
import { defaultThemeDocument } from '../theme/document.ts'
import { readDocument } from './document.ts'
import { html, type Html } from '../web/html.ts'
import { documentShell, previewBanner, type PreviewInfo } from './layout.ts'
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
 * The service's checkout page (not part of any theme): the chosen product and variant, the
 * price, the delivery options and the cash-on-delivery fee from the store's checkout
 * configuration, and the estimated total. It does not place orders (see the note on the page).
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
<td><div class="checkout-line">${image ? html`<img src="${image}" alt="" width="72" height="72">` : null}<div><a href="${urls.path(`/products/${encodeURIComponent(product.id)}`, { variant: variant.id })}">${product.title}</a>${
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
<p class="notice"><strong>Ordering is not open yet.</strong> This page shows what your order would cost; placing orders online is not available in this version of the store.</p>
<div class="buttons"><button class="btn" type="button" disabled>Place order (cash on delivery)</button><a class="btn btn-outline" href="${urls.path(`/products/${encodeURIComponent(product.id)}`)}">Back to the product</a></div>
</div></main>`
  return servicePage({ status: 200, title: `Checkout – ${store.name}`, urls, body, noindex: true })
}
