// Renderers of the sections that render the record a template is for: the product being
// viewed, the collection listing, the blog post (src/theme/sections/template-specific.ts).
import type { Image, Product } from '../../queries/commerce/schemas.ts'
import { bool, int, oneOf, text, type Obj, type SectionView } from '../document.ts'
import { heading, type Env, type Listing } from '../env.ts'
import { SECTION_DEFAULTS } from '../../theme/section-defaults.ts'
import { html, richText, type Html } from '../../web/html.ts'
import { segment } from '../urls.ts'
import { SIZES } from '../images.ts'
import { buyBox, gallery } from './buy-box.ts'
import { catalogImage, paragraphs, productGridHtml, SIDES, WIDTHS, type SectionContext } from './fields.ts'

export function productDetails(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const product = env.data.product
  if (product === null) return null
  const s = section.settings
  const side = oneOf(s.imagePosition, SIDES, SECTION_DEFAULTS.productDetails.imagePosition)
  const style = oneOf(
    s.galleryStyle,
    ['grid', 'carousel', 'stacked'] as const,
    SECTION_DEFAULTS.productDetails.galleryStyle,
  )
  const showDescription = bool(s.showDescription, SECTION_DEFAULTS.productDetails.showDescription)
  const showShare = bool(s.showShareLinks, SECTION_DEFAULTS.productDetails.showShareLinks)
  const box = buyBox(product, env, {
    buttonLabel: text(s.buttonLabel) ?? SECTION_DEFAULTS.productDetails.buttonLabel,
    preselect: env.query.variant,
  })
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
  const live = `${env.liveUrl}/products/${segment(product.handle)}`
  const encoded = encodeURIComponent(live)
  const links = [
    ['WhatsApp', env.urls.external(`https://wa.me/?text=${encodeURIComponent(`${product.title} ${live}`)}`)],
    ['Facebook', env.urls.external(`https://www.facebook.com/sharer/sharer.php?u=${encoded}`)],
    ['X', env.urls.external(`https://x.com/intent/post?url=${encoded}&text=${encodeURIComponent(product.title)}`)],
  ] as const
  const items = links.flatMap(([name, href]) =>
    href
      ? [html`<a href="${href}" rel="noopener noreferrer">${name}<span class="visually-hidden"> (share)</span></a>`]
      : [],
  )
  return items.length > 0 ? html`<div class="share"><span>Share:</span>${items}</div>` : null
}

function listingTools(listing: Listing, s: Obj, env: Env): Html | null {
  const showSort = bool(s.showSort, SECTION_DEFAULTS.collectionProducts.showSort)
  const showFilters = bool(s.showFilters, SECTION_DEFAULTS.collectionProducts.showFilters)
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
${
  showFilters
    ? html`<label class="check"><input type="checkbox" name="available" value="1"${q.inStock ? html` checked` : null}> In stock only</label>
<label for="${minId}">Min price<input id="${minId}" type="number" name="min" min="0" step="1" inputmode="numeric" value="${q.minPrice ?? ''}"></label>
<label for="${maxId}">Max price<input id="${maxId}" type="number" name="max" min="0" step="1" inputmode="numeric" value="${q.maxPrice ?? ''}"></label>`
    : null
}
${
  showSort
    ? html`<label for="${sortId}">Sort by<select id="${sortId}" name="sort">${sortLabels.map(
        ([value, label]) =>
          html`<option value="${value}"${value === listing.sort ? html` selected` : null}>${label}</option>`,
      )}</select></label>`
    : null
}
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
  if (listing.page > 1)
    items.push(
      html`<li><a href="${env.urls.path(listing.basePath, params(listing.page - 1))}" rel="prev">← <span class="visually-hidden">Previous page</span></a></li>`,
    )
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
  if (listing.page < listing.pageCount)
    items.push(
      html`<li><a href="${env.urls.path(listing.basePath, params(listing.page + 1))}" rel="next"><span class="visually-hidden">Next page</span> →</a></li>`,
    )
  return html`<nav class="pagination" aria-label="Pagination"><ul>${items}</ul></nav>`
}

export function collectionProducts(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const listing = env.data.listing
  if (listing === null) return null
  const s = section.settings
  const showTitle = bool(s.showTitle, SECTION_DEFAULTS.collectionProducts.showTitle)
  const showDescription = bool(s.showDescription, SECTION_DEFAULTS.collectionProducts.showDescription)
  const columns = int(s.columns, 2, 5, SECTION_DEFAULTS.collectionProducts.columns)
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
export type BlogPost = {
  title: string
  author: string
  date: Date
  cover: Image | null
  paragraphs: string[]
  sample: boolean
}

export function article(section: SectionView, env: Env, ctx: SectionContext, post: BlogPost | null): Html | null {
  if (post === null) return null
  const s = section.settings
  const width = oneOf(s.width, WIDTHS, SECTION_DEFAULTS.article.width)
  const widthClass = width === 'narrow' ? ' narrow' : width === 'wide' ? ' wide' : ''
  const showAuthor = bool(s.showAuthor, SECTION_DEFAULTS.article.showAuthor)
  const showDate = bool(s.showDate, SECTION_DEFAULTS.article.showDate)
  const showCover = bool(s.showCoverImage, SECTION_DEFAULTS.article.showCoverImage)
  const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(post.date)
  const cover = showCover ? catalogImage(post.cover, '', env, { eager: true, sizes: SIZES.article }) : null
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
