// The buy box of the product details and featured product sections: price, stock, variant
// picker, quantity, the order button and the cash-on-delivery terms; and the product gallery.
import type { Product } from '../../queries/commerce/schemas.ts'
import { money, type Env } from '../env.ts'
import { EMPTY, html, joinHtml, type Html } from '../../web/html.ts'
import { SIZES } from '../images.ts'
import { catalogImage, productPrice, stockLine, variantPrice } from './fields.ts'

function optionLegend(product: Product): string {
  const names = product.options.map((o) => o.name).filter((n) => n.trim() !== '')
  return names.length > 0 ? names.join(' / ') : 'Options'
}

function codTerms(env: Env): Html {
  const checkout = env.store.checkout
  const parts: string[] = ['Pay in cash when your order arrives.']
  if (checkout && checkout.codFee.cents > 0) parts.push(`Cash-on-delivery fee: ${money(env, checkout.codFee)}.`)
  if (checkout?.freeShippingThreshold) parts.push(`Free delivery from ${money(env, checkout.freeShippingThreshold)}.`)
  if (checkout?.orderConfirmation.required) parts.push('We call to confirm every order before it ships.')
  return html`<div class="cod-box"><strong><svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><rect x="2" y="6" width="20" height="12" rx="2"/><circle cx="12" cy="12" r="2.5"/></svg>Cash on delivery</strong><p>${parts.join(' ')}</p></div>`
}

/**
 * Price, stock, variant picker, quantity and the order button. The form posts the variant and
 * quantity to the shop's cart (src/storefront/shop-routes.ts: no per-visitor token, since the page
 * is publicly cached; the cart refuses posts from other sites); the checked variant's price and
 * stock show through CSS :has, so the page needs no script.
 */
export function buyBox(
  product: Product,
  env: Env,
  options: { buttonLabel: string; preselect: string | null },
): { prices: Html; form: Html; scope: string } {
  const scope = env.nextId('pd')
  const variants = product.variants
  const available = variants.filter((v) => v.availableForSale)
  const chosen = available.find((v) => v.id === options.preselect) ?? available[0] ?? null
  const action = env.urls.path('/cart/add')
  const soldOut = chosen === null
  let prices: Html
  let picker: Html = EMPTY
  if (variants.length > 1 && !soldOut) {
    env.styles.variantSwitch(scope, variants.length)
    prices = joinHtml(
      variants.map(
        (v, i) =>
          html`<div class="variant-price ${scope}-p${i}">${variantPrice(v, env)}${stockLine(v.availableForSale, v.inventoryQuantity)}</div>`,
      ),
    )
    picker = html`<fieldset><legend>${optionLegend(product)}</legend><div class="variant-options">${variants.map(
      (v, i) =>
        html`<label class="variant-option"><input type="radio" name="variant" id="${`${scope}-v${i}`}" value="${v.id}"${v.id === chosen.id ? html` checked` : null}${
          v.availableForSale ? null : html` disabled`
        }><span>${v.title}${v.availableForSale ? '' : ' (sold out)'}</span></label>`,
    )}</div></fieldset>`
  } else {
    const only = chosen ?? variants[0] ?? null
    prices = only
      ? html`${variantPrice(only, env)}${stockLine(!soldOut, only.inventoryQuantity)}`
      : html`${productPrice(product, env, 'price product-price')}${stockLine(false, null)}`
    if (chosen) picker = html`<input type="hidden" name="variant" value="${chosen.id}">`
  }
  const qtyId = `${scope}-qty`
  const form = html`<form class="buy-form" method="post" action="${action}">
${picker}
<div class="qty"><label for="${qtyId}">Quantity</label><input id="${qtyId}" type="number" name="quantity" value="1" min="1" max="10" inputmode="numeric"${soldOut ? html` disabled` : null}></div>
${soldOut ? html`<button class="btn btn-block" type="submit" disabled>Sold out</button>` : html`<button class="btn btn-block" type="submit">${options.buttonLabel}</button>`}
${codTerms(env)}
</form>`
  return { prices, form, scope }
}

export function gallery(product: Product, env: Env, style: 'grid' | 'carousel' | 'stacked', eager: boolean): Html {
  const images = product.images
  if (images.length === 0) return html`<div class="product-gallery"><div class="card-media"></div></div>`
  const sizes = (i: number) =>
    style === 'carousel'
      ? images.length > 1
        ? SIZES.productCarousel
        : SIZES.productMain
      : style === 'grid' && i > 0
        ? SIZES.productHalf
        : SIZES.productMain
  const figures = images.map(
    (img, i) =>
      html`<figure>${catalogImage(img, i === 0 ? product.title : `${product.title}, image ${i + 1}`, env, { eager: eager && i === 0, sizes: sizes(i) })}${
        style === 'carousel' && images.length > 1
          ? html`<span class="gallery-count" aria-hidden="true">${i + 1} / ${images.length}</span>`
          : null
      }</figure>`,
  )
  if (style === 'carousel') {
    return html`<div class="product-gallery"><div class="gallery-carousel${images.length > 1 ? ' multi' : ''}" role="group" aria-label="${`${product.title}: ${images.length} images`}" tabindex="0">${figures}</div></div>`
  }
  return html`<div class="product-gallery"><div class="gallery-${style}">${figures}</div></div>`
}
