// Pieces every section renderer shares: images, buttons, headings, prices, product cards and the
// look-up of referenced products and collections. A reference the catalog no longer has renders
// nothing and is reported.
import type { Collection, Image, Product, Variant } from '../../queries/commerce/schemas.ts'
import { obj, text } from '../document.ts'
import { heading, money, type Env, type HeadingLevel } from '../env.ts'
import { segment } from '../urls.ts'
import { html, joinHtml, type Html } from '../../web/html.ts'
import { gridSizes, heightSizes, responsiveImage } from '../images.ts'

export const ALIGNMENTS = ['left', 'center', 'right'] as const
export const WIDTHS = ['narrow', 'normal', 'wide'] as const
export const SIDES = ['left', 'right'] as const

export type SectionContext = {
  /** The level of the section's own heading: 1 for the page's main heading, else 2. */
  level: HeadingLevel
  /** True for the first section of the page (images load eagerly). */
  first: boolean
}

export type ImgOptions = {
  /** The slot's `sizes` (src/render/images.ts), or the height it is shown at (logos). */
  sizes: string | { height: number }
  className?: string
  /** Candidate for the page's lead image (high priority, preloaded); otherwise lazy. */
  eager?: boolean
}

/** A theme image ({ url, alt }); nothing when the URL is unsafe or missing. */
export function themeImage(value: unknown, env: Env, options: ImgOptions): Html | null {
  const image = obj(value)
  const src = env.urls.image(image.url)
  if (src === null) return null
  const alt = typeof image.alt === 'string' ? image.alt : ''
  const sizes = typeof options.sizes === 'string' ? options.sizes : heightSizes(env, src, options.sizes.height)
  return responsiveImage(src, alt, env, { ...options, sizes })
}

/** A catalog image, with its intrinsic size. */
export function catalogImage(image: Image | null, fallbackAlt: string, env: Env, options: ImgOptions): Html | null {
  if (image === null) return null
  const src = env.urls.image(image.url)
  if (src === null) return null
  const alt = image.alt.trim() !== '' ? image.alt : fallbackAlt
  const sizes = typeof options.sizes === 'string' ? options.sizes : heightSizes(env, src, options.sizes.height)
  return responsiveImage(src, alt, env, { ...options, sizes, width: image.width, height: image.height })
}

export function button(value: unknown, env: Env, className: string): Html | null {
  const b = obj(value)
  const label = text(b.label)
  const href = env.urls.link(b.href)
  if (label === undefined || href === null) return null
  return html`<a class="${className}" href="${href}">${label}</a>`
}

export function sectionHeading(value: unknown, ctx: SectionContext, className = ''): Html | null {
  const content = text(value)
  return content === undefined ? null : heading(ctx.level, content, className)
}

// Customers see products and collections by handle; a theme's id links answer 301 (routes.ts).
export const productPath = (env: Env, product: Pick<Product, 'handle'>) =>
  env.urls.path(`/products/${segment(product.handle)}`)
export const collectionPath = (env: Env, collection: Pick<Collection, 'handle'>) =>
  env.urls.path(`/collections/${segment(collection.handle)}`)

/** The product's price: one price, "From" a range, and the former price struck through. */
export function productPrice(product: Product, env: Env, className = 'price'): Html {
  const range = product.priceRange
  if (range === null) return html`<p class="${className}"><span class="now">Price on request</span></p>`
  const from = range.min.cents !== range.max.cents
  const was = product.compareAtPriceRange
  const onSale = was !== null && was.max.cents > range.min.cents
  return html`<p class="${className}"><span class="now">${from ? `From ${money(env, range.min)}` : money(env, range.min)}</span>${
    onSale && was
      ? html`<span class="was"><span class="visually-hidden">Regular price </span>${money(env, was.max)}</span>`
      : null
  }</p>`
}

export function variantPrice(variant: Variant, env: Env): Html {
  const was = variant.compareAtPrice
  const onSale = was !== null && was.cents > variant.price.cents
  const save = onSale && was ? Math.round(((was.cents - variant.price.cents) / was.cents) * 100) : 0
  return html`<p class="price product-price"><span class="now">${money(env, variant.price)}</span>${
    onSale && was
      ? html`<span class="was"><span class="visually-hidden">Regular price </span>${money(env, was)}</span><span class="save">Save ${save}%</span>`
      : null
  }</p>`
}

export function stockLine(available: boolean, quantity: number | null): Html {
  if (!available) return html`<p class="stock out">Sold out</p>`
  if (quantity !== null && quantity <= 5) return html`<p class="stock low">Only ${quantity} left</p>`
  return html`<p class="stock">In stock, ready to ship</p>`
}

/** A product card: image, title, price, sale and sold-out badges. */
export function productCard(product: Product, env: Env, level: HeadingLevel, sizes: string): Html {
  const href = productPath(env, product)
  const onSale =
    product.compareAtPriceRange !== null &&
    product.priceRange !== null &&
    product.compareAtPriceRange.max.cents > product.priceRange.min.cents
  const badge = !product.availableForSale
    ? html`<span class="badge sold-out">Sold out</span>`
    : onSale
      ? html`<span class="badge">Sale</span>`
      : null
  const title = html`<a href="${href}">${product.title}</a>`
  return html`<article class="card${product.availableForSale ? '' : ' is-sold-out'}">
<div class="card-media">${badge}${catalogImage(product.featuredImage, product.title, env, { sizes })}</div>
<p class="card-vendor">${product.vendor}</p>
${heading(level, title, 'card-title')}
${productPrice(product, env)}
</article>`
}

export function productGridHtml(products: readonly Product[], env: Env, columns: number, level: HeadingLevel): Html {
  const sizes = gridSizes(columns)
  return html`<div class="grid cols-${columns}">${products.map((p) => productCard(p, env, level, sizes))}</div>`
}

/** Products of the page data among ids, in order; removed ones reported, inactive ones skipped. */
export function resolveProducts(ids: readonly unknown[], env: Env, sectionId: string): Product[] {
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
export function visibleProducts(ids: readonly string[], env: Env): Product[] {
  return ids.flatMap((id) => {
    const product = env.data.products.get(id)
    return product?.visibleOnStorefront ? [product] : []
  })
}

export function resolveCollection(id: unknown, env: Env, sectionId: string): Collection | null {
  if (typeof id !== 'string') return null
  const collection = env.data.collections.get(id)
  if (collection === undefined) env.report.missing('collection', id, sectionId)
  return collection ?? null
}

export function paragraphs(value: string): Html {
  return joinHtml(
    value
      .split(/\n\s*\n|\r\n\s*\r\n/)
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => html`<p>${p}</p>`),
  )
}
