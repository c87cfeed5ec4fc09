// One renderer per section type of the catalogue (src/theme/sections/*). Settings are read
// defensively and the documented defaults apply when a setting is absent (see DEFAULTS).
// Product and collection references resolve to the catalog data loaded for the page; a
// reference the catalog no longer has renders nothing and is reported.
import type { Collection, Image, Product, Variant } from '../queries/commerce/schemas.ts'
import type { SectionType } from '../theme/sections.ts'
import { arr, bool, int, obj, oneOf, text, type Obj, type SectionView } from './document.ts'
import { heading, money, type Env, type HeadingLevel, type Listing } from './env.ts'
import { EMPTY, html, joinHtml, richText, type Html } from './html.ts'
import { segment } from './urls.ts'

/** The documented defaults (from the settings descriptions in src/theme/sections). */
export const DEFAULTS = {
  hero: { alignment: 'center', height: 'large', overlayOpacity: 30 },
  productGrid: { limit: 8, columns: 4 },
  richText: { alignment: 'left', width: 'normal' },
  featuredProduct: { imagePosition: 'left', showDescription: true },
  collectionList: { columns: 3 },
  imageWithText: { imagePosition: 'left' },
  imageBanner: { height: 'medium', alignment: 'center', overlayOpacity: 30 },
  testimonials: { columns: 3 },
  gallery: { columns: 3, aspectRatio: 'square' },
  announcementBar: { colorScheme: 'primary' },
  logoList: { grayscale: true },
  spacer: { height: 40, showDivider: false },
  newsletter: { buttonLabel: 'Subscribe', placeholder: 'Email address', successMessage: 'Thanks for subscribing!' },
  productDetails: { imagePosition: 'left', galleryStyle: 'carousel', showDescription: true, showShareLinks: false, buttonLabel: 'Add to cart' },
  collectionProducts: { showTitle: true, showDescription: true, columns: 4, productsPerPage: 24, showSort: true, showFilters: false },
  article: { showAuthor: true, showDate: true, showCoverImage: true, width: 'narrow' },
} as const

const ALIGNMENTS = ['left', 'center', 'right'] as const
const WIDTHS = ['narrow', 'normal', 'wide'] as const
const SIDES = ['left', 'right'] as const

export type SectionContext = {
  /** The level of the section's own heading: 1 for the page's main heading, else 2. */
  level: HeadingLevel
  /** True for the first section of the page (images load eagerly). */
  first: boolean
}

// --- shared pieces -------------------------------------------------------------------

type ImgOptions = { className?: string; eager?: boolean; sizes?: string }

/** A theme image ({ url, alt }); nothing when the URL is unsafe or missing. */
function themeImage(value: unknown, env: Env, options: ImgOptions = {}): Html | null {
  const image = obj(value)
  const src = env.urls.image(image.url)
  if (src === null) return null
  const alt = typeof image.alt === 'string' ? image.alt : ''
  return options.eager
    ? html`<img class="${options.className ?? ''}" src="${src}" alt="${alt}" decoding="async" fetchpriority="high">`
    : html`<img class="${options.className ?? ''}" src="${src}" alt="${alt}" loading="lazy" decoding="async">`
}

/** A catalog image, with its intrinsic size when known. */
function catalogImage(image: Image | null, fallbackAlt: string, env: Env, options: ImgOptions = {}): Html | null {
  if (image === null) return null
  const src = env.urls.image(image.url)
  if (src === null) return null
  const alt = image.alt.trim() !== '' ? image.alt : fallbackAlt
  const w = image.width ?? undefined
  const h = image.height ?? undefined
  return options.eager
    ? html`<img src="${src}" alt="${alt}" width="${w}" height="${h}" decoding="async" fetchpriority="high">`
    : html`<img src="${src}" alt="${alt}" width="${w}" height="${h}" loading="lazy" decoding="async">`
}

function button(value: unknown, env: Env, className: string): Html | null {
  const b = obj(value)
  const label = text(b.label)
  const href = env.urls.link(b.href)
  if (label === undefined || href === null) return null
  return html`<a class="${className}" href="${href}">${label}</a>`
}

function sectionHeading(value: unknown, ctx: SectionContext, className = ''): Html | null {
  const content = text(value)
  return content === undefined ? null : heading(ctx.level, content, className)
}

const productPath = (env: Env, product: Product) => env.urls.path(`/products/${segment(product.id)}`)
const collectionPath = (env: Env, id: string) => env.urls.path(`/collections/${segment(id)}`)

/** The product's price: one price, "From" a range, and the former price struck through. */
function productPrice(product: Product, env: Env, className = 'price'): Html {
  const range = product.priceRange
  if (range === null) return html`<p class="${className}"><span class="now">Price on request</span></p>`
  const from = range.min.cents !== range.max.cents
  const was = product.compareAtPriceRange
  const onSale = was !== null && was.max.cents > range.min.cents
  return html`<p class="${className}"><span class="now">${from ? `From ${money(env, range.min)}` : money(env, range.min)}</span>${
    onSale && was ? html`<span class="was"><span class="visually-hidden">Regular price </span>${money(env, was.max)}</span>` : null
  }</p>`
}

function variantPrice(variant: Variant, env: Env): Html {
  const was = variant.compareAtPrice
  const onSale = was !== null && was.cents > variant.price.cents
  const save = onSale && was ? Math.round(((was.cents - variant.price.cents) / was.cents) * 100) : 0
  return html`<p class="price product-price"><span class="now">${money(env, variant.price)}</span>${
    onSale && was ? html`<span class="was"><span class="visually-hidden">Regular price </span>${money(env, was)}</span><span class="save">Save ${save}%</span>` : null
  }</p>`
}

function stockLine(available: boolean, quantity: number | null): Html {
  if (!available) return html`<p class="stock out">Sold out</p>`
  if (quantity !== null && quantity <= 5) return html`<p class="stock low">Only ${quantity} left</p>`
  return html`<p class="stock">In stock, ready to ship</p>`
}

/** A product card: image, title, price, sale and sold-out badges. */
export function productCard(product: Product, env: Env, level: HeadingLevel = 3): Html {
  const href = productPath(env, product)
  const onSale = product.compareAtPriceRange !== null && product.priceRange !== null && product.compareAtPriceRange.max.cents > product.priceRange.min.cents
  const badge = !product.availableForSale ? html`<span class="badge sold-out">Sold out</span>` : onSale ? html`<span class="badge">Sale</span>` : null
  const title = html`<a href="${href}">${product.title}</a>`
  return html`<article class="card${product.availableForSale ? '' : ' is-sold-out'}">
<div class="card-media">${badge}${catalogImage(product.featuredImage, product.title, env)}</div>
<p class="card-vendor">${product.vendor}</p>
${heading(level, title, 'card-title')}
${productPrice(product, env)}
</article>`
}

function productGridHtml(products: readonly Product[], env: Env, columns: number, level: HeadingLevel): Html {
  return html`<div class="grid cols-${columns}">${products.map((p) => productCard(p, env, level))}</div>`
}

/** Products of the page data among ids, in order; removed ones reported, inactive ones skipped. */
function resolveProducts(ids: readonly unknown[], env: Env, sectionId: string): Product[] {
  const out: Product[] = []
  for (const raw of ids) {
    if (typeof raw !== 'string') continue
    const product = env.data.products.get(raw)
    if (product === undefined) env.report.missing('product', raw, sectionId)
    else if (!product.visibleOnStorefront) env.report.hidden(raw, sectionId)
    else out.push(product)
  }
  return out
}

/** Products the catalog itself lists (newest, a collection's members): no theme reference to report. */
function visibleProducts(ids: readonly string[], env: Env): Product[] {
  return ids.flatMap((id) => {
    const product = env.data.products.get(id)
    return product?.visibleOnStorefront ? [product] : []
  })
}

function resolveCollection(id: unknown, env: Env, sectionId: string): Collection | null {
  if (typeof id !== 'string') return null
  const collection = env.data.collections.get(id)
  if (collection === undefined) env.report.missing('collection', id, sectionId)
  return collection ?? null
}

function paragraphs(value: string): Html {
  return joinHtml(
    value
      .split(/\n\s*\n|\r\n\s*\r\n/)
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => html`<p>${p}</p>`),
  )
}

// --- the buy box (product details and featured product) --------------------------------

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
 * Price, stock, variant picker, quantity and the order button. The form is a GET to the
 * service's checkout page; the checked variant's price and stock show through CSS :has,
 * so the page needs no script.
 */
function buyBox(product: Product, env: Env, options: { buttonLabel: string; preselect: string | null }): { prices: Html; form: Html; scope: string } {
  const scope = env.nextId('pd')
  const variants = product.variants
  const available = variants.filter((v) => v.availableForSale)
  const chosen = available.find((v) => v.id === options.preselect) ?? available[0] ?? null
  const action = env.urls.path('/checkout')
  const soldOut = chosen === null
  let prices: Html
  let picker: Html = EMPTY
  if (variants.length > 1 && !soldOut) {
    env.styles.variantSwitch(scope, variants.length)
    prices = joinHtml(
      variants.map(
        (v, i) => html`<div class="variant-price ${scope}-p${i}">${variantPrice(v, env)}${stockLine(v.availableForSale, v.inventoryQuantity)}</div>`,
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
    prices = only ? html`${variantPrice(only, env)}${stockLine(!soldOut, only.inventoryQuantity)}` : html`${productPrice(product, env, 'price product-price')}${stockLine(false, null)}`
    if (chosen) picker = html`<input type="hidden" name="variant" value="${chosen.id}">`
  }
  const qtyId = `${scope}-qty`
  const form = html`<form class="buy-form" method="get" action="${action}">
${picker}
<div class="qty"><label for="${qtyId}">Quantity</label><input id="${qtyId}" type="number" name="quantity" value="1" min="1" max="10" inputmode="numeric"${soldOut ? html` disabled` : null}></div>
${soldOut ? html`<button class="btn btn-block" type="submit" disabled>Sold out</button>` : html`<button class="btn btn-block" type="submit">${options.buttonLabel}</button>`}
${codTerms(env)}
</form>`
  return { prices, form, scope }
}

function gallery(product: Product, env: Env, style: 'grid' | 'carousel' | 'stacked', eager: boolean): Html {
  const images = product.images
  if (images.length === 0) return html`<div class="product-gallery"><div class="card-media"></div></div>`
  const figures = images.map(
    (img, i) =>
      html`<figure>${catalogImage(img, i === 0 ? product.title : `${product.title}, image ${i + 1}`, env, { eager: eager && i === 0 })}${
        style === 'carousel' && images.length > 1 ? html`<span class="gallery-count" aria-hidden="true">${i + 1} / ${images.length}</span>` : null
      }</figure>`,
  )
  if (style === 'carousel') {
    return html`<div class="product-gallery"><div class="gallery-carousel${images.length > 1 ? ' multi' : ''}" role="group" aria-label="${`${product.title}: ${images.length} images`}" tabindex="0">${figures}</div></div>`
  }
  return html`<div class="product-gallery"><div class="gallery-${style}">${figures}</div></div>`
}

// --- section renderers ------------------------------------------------------------------

function hero(s: Obj, env: Env, ctx: SectionContext): Html {
  const alignment = oneOf(s.alignment, ALIGNMENTS, DEFAULTS.hero.alignment)
  const height = oneOf(s.height, ['small', 'medium', 'large', 'full'] as const, DEFAULTS.hero.height)
  const image = themeImage(s.image, env, { eager: ctx.first })
  const overlay = env.styles.overlay(int(s.overlayOpacity, 0, 80, DEFAULTS.hero.overlayOpacity))
  const buttons = [button(s.primaryButton, env, 'btn'), button(s.secondaryButton, env, 'btn btn-outline')].filter((b) => b !== null)
  const headingText = text(s.heading) ?? ''
  return html`<section class="hero h-${height} align-${alignment} on-dark${image ? ' has-image' : ''} ${overlay}">
${image ? html`<div class="hero-media">${image}</div>` : null}
<div class="container"><div class="hero-content">
${headingText ? heading(ctx.level, headingText) : null}
${text(s.subheading) !== undefined ? html`<p>${text(s.subheading)}</p>` : null}
${buttons.length > 0 ? html`<div class="buttons">${buttons}</div>` : null}
</div></div>
</section>`
}

function productGrid(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const source = oneOf(s.source, ['newest', 'collection', 'manual'] as const, 'newest')
  const limit = int(s.limit, 1, 48, DEFAULTS.productGrid.limit)
  const columns = int(s.columns, 2, 5, DEFAULTS.productGrid.columns)
  let products: Product[]
  let more: Html | null = null
  if (source === 'manual') {
    products = resolveProducts(arr(s.productIds), env, section.id)
  } else if (source === 'collection') {
    const collection = resolveCollection(s.collectionId, env, section.id)
    if (collection === null) return null
    products = visibleProducts(collection.productIds, env)
    more = html`<a class="link-more" href="${collectionPath(env, collection.id)}">View all<span class="visually-hidden"> ${collection.title}</span> →</a>`
  } else {
    products = visibleProducts(env.data.newest, env)
    more = html`<a class="link-more" href="${env.urls.path('/products')}">Shop all →</a>`
  }
  products = products.slice(0, limit)
  if (products.length === 0) return null
  const title = sectionHeading(s.heading, ctx)
  return html`<section class="section">
<div class="container">
${title || more ? html`<div class="section-head">${title ?? html`<span></span>`}${more}</div>` : null}
${productGridHtml(products, env, columns, ctx.level === 1 ? 2 : 3)}
</div>
</section>`
}

function richTextSection(s: Obj, env: Env, ctx: SectionContext): Html {
  const alignment = oneOf(s.alignment, ALIGNMENTS, DEFAULTS.richText.alignment)
  const width = oneOf(s.width, WIDTHS, DEFAULTS.richText.width)
  const widthClass = width === 'narrow' ? ' narrow' : width === 'wide' ? ' wide' : ''
  return html`<section class="section">
<div class="container${widthClass} align-${alignment}">
${sectionHeading(s.heading, ctx)}
<div class="prose">${richText(s.body, env.urls.basePath)}</div>
</div>
</section>`
}

function featuredProduct(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const [product] = resolveProducts([s.productId], env, section.id)
  if (product === undefined) return null
  const side = oneOf(s.imagePosition, SIDES, DEFAULTS.featuredProduct.imagePosition)
  const showDescription = bool(s.showDescription, DEFAULTS.featuredProduct.showDescription)
  const box = buyBox(product, env, { buttonLabel: DEFAULTS.productDetails.buttonLabel, preselect: null })
  const eyebrow = text(s.heading)
  const title = html`<a href="${productPath(env, product)}">${product.title}</a>`
  // The section heading (if any) is the section's heading; the product title sits under it.
  return html`<section class="section tinted">
<div class="container">
${eyebrow ? heading(ctx.level, eyebrow, 'section-title-center') : null}
<div class="product-layout${side === 'right' ? ' media-right' : ''}">
${gallery(product, env, 'carousel', false)}
<div class="product-info ${box.scope}">
<p class="product-vendor">${product.vendor}</p>
${heading(eyebrow ? ((ctx.level + 1) as HeadingLevel) : ctx.level, title)}
${box.prices}
${showDescription && product.description ? html`<div class="prose">${paragraphs(product.description)}</div>` : null}
${box.form}
</div>
</div>
</div>
</section>`
}

function collectionList(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const columns = int(s.columns, 2, 5, DEFAULTS.collectionList.columns)
  const collections = arr(s.collectionIds).flatMap((id) => {
    const c = resolveCollection(id, env, section.id)
    return c ? [c] : []
  })
  if (collections.length === 0) return null
  return collectionCards(collections, env, ctx, columns, sectionHeading(s.heading, ctx))
}

function collectionCards(collections: readonly Collection[], env: Env, ctx: SectionContext, columns: number, title: Html | null): Html {
  const level: HeadingLevel = ctx.level === 1 ? 2 : 3
  return html`<section class="section">
<div class="container">
${title ? html`<div class="section-head">${title}</div>` : null}
<div class="grid one-col-mobile cols-${columns}">${collections.map(
    (c) => html`<a class="collection-card" href="${collectionPath(env, c.id)}">${catalogImage(c.image, '', env)}<div class="collection-body">${heading(level, c.title)}<span class="count">${c.productCount} ${
      c.productCount === 1 ? 'product' : 'products'
    }</span></div></a>`,
  )}</div>
</div>
</section>`
}

function imageWithText(s: Obj, env: Env, ctx: SectionContext): Html {
  const side = oneOf(s.imagePosition, SIDES, DEFAULTS.imageWithText.imagePosition)
  const image = themeImage(s.image, env, { eager: ctx.first })
  return html`<section class="section">
<div class="container split${side === 'right' ? ' media-right' : ''}">
${image ? html`<div class="split-media">${image}</div>` : null}
<div>
${sectionHeading(s.heading, ctx)}
<div class="prose">${richText(s.body, env.urls.basePath)}</div>
${(() => {
  const b = button(s.button, env, 'btn')
  return b ? html`<div class="buttons">${b}</div>` : null
})()}
</div>
</div>
</section>`
}

function imageBanner(s: Obj, env: Env, ctx: SectionContext): Html {
  const height = oneOf(s.height, ['small', 'medium', 'large'] as const, DEFAULTS.imageBanner.height)
  const alignment = oneOf(s.alignment, ALIGNMENTS, DEFAULTS.imageBanner.alignment)
  const overlay = env.styles.overlay(int(s.overlayOpacity, 0, 80, DEFAULTS.imageBanner.overlayOpacity))
  const image = themeImage(s.image, env, { eager: ctx.first })
  const b = button(s.button, env, 'btn')
  return html`<section class="banner h-${height} on-dark ${overlay}">
${image ? html`<div class="banner-media">${image}</div>` : null}
<div class="container align-${alignment}"><div class="banner-content${alignment === 'center' ? ' align-center' : ''}">
${sectionHeading(s.heading, ctx)}
${text(s.text) !== undefined ? html`<p>${text(s.text)}</p>` : null}
${b ? html`<div class="buttons">${b}</div>` : null}
</div></div>
</section>`
}

function testimonials(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const quotes = section.blocks.filter((b) => b.type === 'testimonial' && text(b.settings.quote) !== undefined)
  if (quotes.length === 0) return null
  const columns = int(section.settings.columns, 1, 3, Math.min(DEFAULTS.testimonials.columns, quotes.length))
  return html`<section class="section tinted">
<div class="container">
${(() => {
  const t = sectionHeading(section.settings.heading, ctx)
  return t ? html`<div class="section-title-center">${t}</div>` : null
})()}
<div class="quotes cols-${columns}">${quotes.map((b) => {
    const q = b.settings
    const avatar = themeImage(q.avatar, env)
    return html`<figure class="quote"><blockquote>${text(q.quote)}</blockquote><figcaption>${avatar}<span><span class="who">${text(q.author) ?? ''}</span>${
      text(q.role) !== undefined ? html`<span class="role">${text(q.role)}</span>` : null
    }</span></figcaption></figure>`
  })}</div>
</div>
</section>`
}

function faq(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const questions = section.blocks.filter((b) => b.type === 'question' && text(b.settings.question) !== undefined)
  if (questions.length === 0) return null
  return html`<section class="section">
<div class="container narrow">
${(() => {
  const t = sectionHeading(section.settings.heading, ctx)
  return t ? html`<div class="section-title-center">${t}</div>` : null
})()}
<div class="faq-list">${questions.map(
    (b) => html`<details><summary>${text(b.settings.question)}</summary><div class="answer prose">${richText(b.settings.answer, env.urls.basePath)}</div></details>`,
  )}</div>
</div>
</section>`
}

function galleryImages(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const columns = int(s.columns, 2, 6, DEFAULTS.gallery.columns)
  const ratio = oneOf(s.aspectRatio, ['square', 'portrait', 'landscape', 'original'] as const, DEFAULTS.gallery.aspectRatio)
  const figures = section.blocks.flatMap((b) => {
    if (b.type !== 'image') return []
    const img = themeImage(b.settings.image, env)
    if (img === null) return []
    const caption = text(b.settings.caption)
    const href = env.urls.link(b.settings.href)
    const inner = html`${img}${caption !== undefined ? html`<figcaption>${caption}</figcaption>` : null}`
    return [html`<figure>${href ? html`<a href="${href}">${inner}</a>` : inner}</figure>`]
  })
  if (figures.length === 0) return null
  return html`<section class="section">
<div class="container">
${(() => {
  const t = sectionHeading(s.heading, ctx)
  return t ? html`<div class="section-head">${t}</div>` : null
})()}
<div class="gallery cols-${columns} ratio-${ratio}">${figures}</div>
</div>
</section>`
}

export function announcementBar(s: Obj, env: Env): Html | null {
  const message = text(s.text)
  if (message === undefined) return null
  const scheme = oneOf(s.colorScheme, ['primary', 'secondary', 'contrast'] as const, DEFAULTS.announcementBar.colorScheme)
  const href = env.urls.link(s.link)
  return href
    ? html`<a class="announcement scheme-${scheme}" href="${href}">${message}</a>`
    : html`<p class="announcement scheme-${scheme}">${message}</p>`
}

function logoList(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const grayscale = bool(section.settings.grayscale, DEFAULTS.logoList.grayscale)
  const logos = section.blocks.flatMap((b) => {
    if (b.type !== 'logo') return []
    const img = themeImage(b.settings.image, env)
    if (img === null) return []
    const href = env.urls.link(b.settings.href)
    return [html`<li>${href ? html`<a href="${href}">${img}</a>` : img}</li>`]
  })
  if (logos.length === 0) return null
  return html`<section class="section">
<div class="container">
${(() => {
  const t = sectionHeading(section.settings.heading, ctx)
  return t ? html`<div class="section-title-center">${t}</div>` : null
})()}
<ul class="logos${grayscale ? ' grayscale' : ''}" role="list">${logos}</ul>
</div>
</section>`
}

function spacer(s: Obj, env: Env): Html {
  const height = env.styles.height(int(s.height, 8, 240, DEFAULTS.spacer.height))
  const divider = bool(s.showDivider, DEFAULTS.spacer.showDivider)
  return html`<div class="spacer ${height}${divider ? ' divider' : ''}" aria-hidden="true"></div>`
}

function newsletter(s: Obj, env: Env, ctx: SectionContext): Html {
  const inputId = env.nextId('newsletter-email')
  const label = text(s.buttonLabel) ?? DEFAULTS.newsletter.buttonLabel
  const placeholder = text(s.placeholder) ?? DEFAULTS.newsletter.placeholder
  return html`<section class="section">
<div class="container"><div class="newsletter">
${heading(ctx.level, text(s.heading) ?? 'Newsletter')}
${text(s.text) !== undefined ? html`<p>${text(s.text)}</p>` : null}
<form method="post" action="${env.urls.path('/newsletter')}">
<label class="visually-hidden" for="${inputId}">${placeholder}</label>
<input id="${inputId}" type="email" name="email" required autocomplete="email" placeholder="${placeholder}">
<button class="btn" type="submit">${label}</button>
</form>
</div></div>
</section>`
}

function productDetails(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const product = env.data.product
  if (product === null) return null
  const s = section.settings
  const side = oneOf(s.imagePosition, SIDES, DEFAULTS.productDetails.imagePosition)
  const style = oneOf(s.galleryStyle, ['grid', 'carousel', 'stacked'] as const, DEFAULTS.productDetails.galleryStyle)
  const showDescription = bool(s.showDescription, DEFAULTS.productDetails.showDescription)
  const showShare = bool(s.showShareLinks, DEFAULTS.productDetails.showShareLinks)
  const box = buyBox(product, env, { buttonLabel: text(s.buttonLabel) ?? DEFAULTS.productDetails.buttonLabel, preselect: env.query.variant })
  const crumbs = html`<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="${env.urls.path('/')}">Home</a></li><li><a href="${env.urls.path('/products')}">Products</a></li><li aria-current="page">${product.title}</li></ol></nav>`
  return html`<section class="section section-tight">
<div class="container">
${crumbs}
<div class="product-layout${side === 'right' ? ' media-right' : ''}">
${gallery(product, env, style, true)}
<div class="product-info ${box.scope}">
${product.vendor ? html`<p class="product-vendor">${product.vendor}</p>` : null}
${heading(ctx.level, product.title)}
${box.prices}
${box.form}
${showDescription && product.description ? html`<div class="product-description">${heading(ctx.level === 1 ? 2 : 3, 'Description')}<div class="prose">${paragraphs(product.description)}</div></div>` : null}
${showShare ? shareLinks(product, env) : null}
</div>
</div>
</div>
</section>`
}

function shareLinks(product: Product, env: Env): Html | null {
  // Share the live address of the product (a preview link must never leave the preview).
  const live = `${env.liveUrl}/products/${segment(product.id)}`
  const encoded = encodeURIComponent(live)
  const links = [
    ['WhatsApp', env.urls.external(`https://wa.me/?text=${encodeURIComponent(`${product.title} ${live}`)}`)],
    ['Facebook', env.urls.external(`https://www.facebook.com/sharer/sharer.php?u=${encoded}`)],
    ['X', env.urls.external(`https://x.com/intent/post?url=${encoded}&text=${encodeURIComponent(product.title)}`)],
  ] as const
  const items = links.flatMap(([name, href]) => (href ? [html`<a href="${href}" rel="noopener noreferrer">${name}<span class="visually-hidden"> (share)</span></a>`] : []))
  return items.length > 0 ? html`<div class="share"><span>Share:</span>${items}</div>` : null
}

function listingTools(listing: Listing, s: Obj, env: Env): Html | null {
  const showSort = bool(s.showSort, DEFAULTS.collectionProducts.showSort)
  const showFilters = bool(s.showFilters, DEFAULTS.collectionProducts.showFilters)
  const count = html`<p class="result-count" role="status">${listing.total} ${listing.total === 1 ? 'product' : 'products'}</p>`
  if (!showSort && !showFilters) return html`<div class="listing-tools">${count}</div>`
  const sortId = env.nextId('sort')
  const minId = env.nextId('min')
  const maxId = env.nextId('max')
  const sortLabels: [string, string][] = [
    ['featured', 'Featured'],
    ['newest', 'Newest'],
    ['price-asc', 'Price, low to high'],
    ['price-desc', 'Price, high to low'],
    ['title-asc', 'Name, A to Z'],
  ]
  const q = env.query
  return html`<div class="listing-tools">
${count}
<form method="get" action="${env.urls.path(listing.basePath)}">
${showFilters ? html`<label class="check"><input type="checkbox" name="available" value="1"${q.inStock ? html` checked` : null}> In stock only</label>
<label for="${minId}">Min price<input id="${minId}" type="number" name="min" min="0" step="1" inputmode="numeric" value="${q.minPrice ?? ''}"></label>
<label for="${maxId}">Max price<input id="${maxId}" type="number" name="max" min="0" step="1" inputmode="numeric" value="${q.maxPrice ?? ''}"></label>` : null}
${showSort ? html`<label for="${sortId}">Sort by<select id="${sortId}" name="sort">${sortLabels.map(
    ([value, label]) => html`<option value="${value}"${value === listing.sort ? html` selected` : null}>${label}</option>`,
  )}</select></label>` : null}
<button class="btn btn-outline" type="submit">Apply</button>
</form>
</div>`
}

function pagination(listing: Listing, env: Env): Html | null {
  if (listing.pageCount <= 1) return null
  const q = env.query
  const params = (page: number) => ({
    page: page > 1 ? page : undefined,
    sort: q.sort ?? undefined,
    available: q.inStock ? '1' : undefined,
    min: q.minPrice ?? undefined,
    max: q.maxPrice ?? undefined,
  })
  const items: Html[] = []
  if (listing.page > 1) items.push(html`<li><a href="${env.urls.path(listing.basePath, params(listing.page - 1))}" rel="prev">← <span class="visually-hidden">Previous page</span></a></li>`)
  for (let p = 1; p <= listing.pageCount; p++) {
    if (p !== 1 && p !== listing.pageCount && Math.abs(p - listing.page) > 2) {
      if (p === 2 || p === listing.pageCount - 1) items.push(html`<li><span aria-hidden="true">…</span></li>`)
      continue
    }
    items.push(
      p === listing.page
        ? html`<li><span aria-current="page"><span class="visually-hidden">Page </span>${p}</span></li>`
        : html`<li><a href="${env.urls.path(listing.basePath, params(p))}"><span class="visually-hidden">Page </span>${p}</a></li>`,
    )
  }
  if (listing.page < listing.pageCount) items.push(html`<li><a href="${env.urls.path(listing.basePath, params(listing.page + 1))}" rel="next"><span class="visually-hidden">Next page</span> →</a></li>`)
  return html`<nav class="pagination" aria-label="Pagination"><ul>${items}</ul></nav>`
}

function collectionProducts(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const listing = env.data.listing
  if (listing === null) return null
  const s = section.settings
  const showTitle = bool(s.showTitle, DEFAULTS.collectionProducts.showTitle)
  const showDescription = bool(s.showDescription, DEFAULTS.collectionProducts.showDescription)
  const columns = int(s.columns, 2, 5, DEFAULTS.collectionProducts.columns)
  const title = heading(ctx.level, listing.title, showTitle ? '' : 'visually-hidden')
  return html`<section class="section section-tight">
<div class="container">
<div class="listing-head">${title}${showDescription && listing.description ? html`<p>${listing.description}</p>` : null}</div>
${listingTools(listing, s, env)}
${listing.products.length > 0 ? productGridHtml(listing.products, env, columns, ctx.level === 1 ? 2 : 3) : html`<div class="empty"><p>No products match.</p><a class="btn btn-outline" href="${env.urls.path(listing.basePath)}">Show all</a></div>`}
${pagination(listing, env)}
</div>
</section>`
}

/** The sample post of the blog post template (the store has no blog yet; see page.ts). */
export type BlogPost = { title: string; author: string; date: Date; cover: Image | null; paragraphs: string[]; sample: boolean }

function article(section: SectionView, env: Env, ctx: SectionContext, post: BlogPost | null): Html | null {
  if (post === null) return null
  const s = section.settings
  const width = oneOf(s.width, WIDTHS, DEFAULTS.article.width)
  const widthClass = width === 'narrow' ? ' narrow' : width === 'wide' ? ' wide' : ''
  const showAuthor = bool(s.showAuthor, DEFAULTS.article.showAuthor)
  const showDate = bool(s.showDate, DEFAULTS.article.showDate)
  const showCover = bool(s.showCoverImage, DEFAULTS.article.showCoverImage)
  const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(post.date)
  const cover = showCover ? catalogImage(post.cover, '', env, { eager: true }) : null
  return html`<article class="section">
<div class="container${widthClass}">
${post.sample ? html`<p class="sample-note">This is a sample post that shows how the blog post template looks. ${env.store.name} has not published blog posts yet.</p>` : null}
${heading(ctx.level, post.title)}
${showAuthor || showDate ? html`<p class="article-meta">${showAuthor ? html`<span>By ${post.author}</span>` : null}${showDate ? html`<time datetime="${post.date.toISOString().slice(0, 10)}">${date}</time>` : null}</p>` : null}
${cover ? html`<div class="article-cover">${cover}</div>` : null}
<div class="prose">${post.paragraphs.map((p) => html`<p>${p}</p>`)}${richText(s.body, env.urls.basePath)}</div>
</div>
</article>`
}

export type SectionExtras = { post: BlogPost | null }

/** Renders one section; null when it has nothing to show. Never throws on document data. */
export function renderSection(section: SectionView, env: Env, ctx: SectionContext, extras: SectionExtras): Html | null {
  const s = section.settings
  const type: SectionType = section.type
  switch (type) {
    case 'hero':
      return hero(s, env, ctx)
    case 'product-grid':
      return productGrid(section, env, ctx)
    case 'rich-text':
      return richTextSection(s, env, ctx)
    case 'featured-product':
      return featuredProduct(section, env, ctx)
    case 'collection-list':
      return collectionList(section, env, ctx)
    case 'image-with-text':
      return imageWithText(s, env, ctx)
    case 'image-banner':
      return imageBanner(s, env, ctx)
    case 'testimonials':
      return testimonials(section, env, ctx)
    case 'faq':
      return faq(section, env, ctx)
    case 'gallery':
      return galleryImages(section, env, ctx)
    case 'announcement-bar':
      return announcementBar(s, env)
    case 'logo-list':
      return logoList(section, env, ctx)
    case 'spacer':
      return spacer(s, env)
    case 'newsletter':
      return newsletter(s, env, ctx)
    case 'product-details':
      return productDetails(section, env, ctx)
    case 'collection-products':
      return collectionProducts(section, env, ctx)
    case 'article':
      return article(section, env, ctx, extras.post)
  }
  return null
}

/** Which section types carry a heading that can be the page's h1. */
export function canLeadPage(section: SectionView): boolean {
  if (section.type === 'hero') return text(section.settings.heading) !== undefined
  if (section.type === 'image-banner') return text(section.settings.heading) !== undefined
  return section.type === 'product-details' || section.type === 'collection-products' || section.type === 'article'
}

/** Every collection of the store as cards (the /collections page). */
export function allCollectionsSection(collections: readonly Collection[], env: Env): Html {
  return collectionCards(collections, env, { level: 1, first: false }, 3, null)
}
