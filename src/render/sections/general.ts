// Renderers of the sections that may appear in any template and on custom pages
// (src/theme/sections/general.ts).
import type { Collection, Product } from '../../queries/commerce/schemas.ts'
import { arr, bool, int, oneOf, text, type Obj, type SectionView } from '../document.ts'
import { heading, type Env, type HeadingLevel } from '../env.ts'
import { SECTION_DEFAULTS } from '../../theme/section-defaults.ts'
import { html, richText, type Html } from '../../web/html.ts'
import { gridSizes, SIZES } from '../images.ts'
import { buyBox, gallery } from './buy-box.ts'
import {
  ALIGNMENTS,
  button,
  catalogImage,
  collectionPath,
  paragraphs,
  productGridHtml,
  productPath,
  resolveCollection,
  resolveProducts,
  sectionHeading,
  SIDES,
  themeImage,
  visibleProducts,
  WIDTHS,
  type SectionContext,
} from './fields.ts'

export function hero(s: Obj, env: Env, ctx: SectionContext): Html {
  const alignment = oneOf(s.alignment, ALIGNMENTS, SECTION_DEFAULTS.hero.alignment)
  const height = oneOf(s.height, ['small', 'medium', 'large', 'full'] as const, SECTION_DEFAULTS.hero.height)
  const image = themeImage(s.image, env, { eager: ctx.first, sizes: SIZES.fullBleed })
  const overlay = env.styles.overlay(int(s.overlayOpacity, 0, 80, SECTION_DEFAULTS.hero.overlayOpacity))
  const buttons = [button(s.primaryButton, env, 'btn'), button(s.secondaryButton, env, 'btn btn-outline')].filter(
    (b) => b !== null,
  )
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

export function productGrid(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const source = oneOf(s.source, ['newest', 'collection', 'manual'] as const, 'newest')
  const limit = int(s.limit, 1, 48, SECTION_DEFAULTS.productGrid.limit)
  const columns = int(s.columns, 2, 5, SECTION_DEFAULTS.productGrid.columns)
  let products: Product[]
  let more: Html | null = null
  if (source === 'manual') {
    products = resolveProducts(arr(s.productIds), env, section.id)
  } else if (source === 'collection') {
    const collection = resolveCollection(s.collectionId, env, section.id)
    if (collection === null) return null
    products = visibleProducts(collection.productIds, env)
    more = html`<a class="link-more" href="${collectionPath(env, collection)}">View all<span class="visually-hidden"> ${collection.title}</span> →</a>`
  } else {
    products = visibleProducts(env.data.newest, env)
    more = html`<a class="link-more" href="${env.urls.path('/products')}">Shop all →</a>`
  }
  // On a product page a grid ("You may also like") leaves out the product shown above it: the
  // product template serves every product, so even a hand-picked list would offer each of its
  // products on its own page.
  const shown = env.data.product?.id
  if (shown !== undefined) products = products.filter((p) => p.id !== shown)
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

export function richTextSection(s: Obj, env: Env, ctx: SectionContext): Html {
  const alignment = oneOf(s.alignment, ALIGNMENTS, SECTION_DEFAULTS.richText.alignment)
  const width = oneOf(s.width, WIDTHS, SECTION_DEFAULTS.richText.width)
  const widthClass = width === 'narrow' ? ' narrow' : width === 'wide' ? ' wide' : ''
  return html`<section class="section">
<div class="container${widthClass} align-${alignment}">
${sectionHeading(s.heading, ctx)}
<div class="prose">${richText(s.body, env.urls.basePath)}</div>
</div>
</section>`
}

export function featuredProduct(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const [product] = resolveProducts([s.productId], env, section.id)
  if (product === undefined) return null
  const side = oneOf(s.imagePosition, SIDES, SECTION_DEFAULTS.featuredProduct.imagePosition)
  const showDescription = bool(s.showDescription, SECTION_DEFAULTS.featuredProduct.showDescription)
  const box = buyBox(product, env, { buttonLabel: SECTION_DEFAULTS.productDetails.buttonLabel, preselect: null })
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

export function collectionList(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const columns = int(s.columns, 2, 5, SECTION_DEFAULTS.collectionList.columns)
  const collections = arr(s.collectionIds).flatMap((id) => {
    const c = resolveCollection(id, env, section.id)
    return c ? [c] : []
  })
  if (collections.length === 0) return null
  return collectionCards(collections, env, ctx, columns, sectionHeading(s.heading, ctx))
}

export function collectionCards(
  collections: readonly Collection[],
  env: Env,
  ctx: SectionContext,
  columns: number,
  title: Html | null,
): Html {
  const level: HeadingLevel = ctx.level === 1 ? 2 : 3
  const sizes = gridSizes(columns, 'one')
  return html`<section class="section">
<div class="container">
${title ? html`<div class="section-head">${title}</div>` : null}
<div class="grid one-col-mobile cols-${columns}">${collections.map(
    (c) =>
      html`<a class="collection-card" href="${collectionPath(env, c)}">${catalogImage(c.image, '', env, { sizes })}<div class="collection-body">${heading(level, c.title)}<span class="count">${c.productCount} ${
        c.productCount === 1 ? 'product' : 'products'
      }</span></div></a>`,
  )}</div>
</div>
</section>`
}

export function imageWithText(s: Obj, env: Env, ctx: SectionContext): Html {
  const side = oneOf(s.imagePosition, SIDES, SECTION_DEFAULTS.imageWithText.imagePosition)
  const image = themeImage(s.image, env, { eager: ctx.first, sizes: SIZES.split })
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

export function imageBanner(s: Obj, env: Env, ctx: SectionContext): Html {
  const height = oneOf(s.height, ['small', 'medium', 'large'] as const, SECTION_DEFAULTS.imageBanner.height)
  const alignment = oneOf(s.alignment, ALIGNMENTS, SECTION_DEFAULTS.imageBanner.alignment)
  const overlay = env.styles.overlay(int(s.overlayOpacity, 0, 80, SECTION_DEFAULTS.imageBanner.overlayOpacity))
  const image = themeImage(s.image, env, { eager: ctx.first, sizes: SIZES.fullBleed })
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

export function testimonials(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const quotes = section.blocks.filter((b) => b.type === 'testimonial' && text(b.settings.quote) !== undefined)
  if (quotes.length === 0) return null
  const columns = int(section.settings.columns, 1, 3, Math.min(SECTION_DEFAULTS.testimonials.columns, quotes.length))
  return html`<section class="section tinted">
<div class="container">
${(() => {
  const t = sectionHeading(section.settings.heading, ctx)
  return t ? html`<div class="section-title-center">${t}</div>` : null
})()}
<div class="quotes cols-${columns}">${quotes.map((b) => {
    const q = b.settings
    const avatar = themeImage(q.avatar, env, { sizes: SIZES.avatar })
    return html`<figure class="quote"><blockquote>${text(q.quote)}</blockquote><figcaption>${avatar}<span><span class="who">${text(q.author) ?? ''}</span>${
      text(q.role) !== undefined ? html`<span class="role">${text(q.role)}</span>` : null
    }</span></figcaption></figure>`
  })}</div>
</div>
</section>`
}

export function faq(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const questions = section.blocks.filter((b) => b.type === 'question' && text(b.settings.question) !== undefined)
  if (questions.length === 0) return null
  return html`<section class="section">
<div class="container narrow">
${(() => {
  const t = sectionHeading(section.settings.heading, ctx)
  return t ? html`<div class="section-title-center">${t}</div>` : null
})()}
<div class="faq-list">${questions.map(
    (b) =>
      html`<details><summary>${text(b.settings.question)}</summary><div class="answer prose">${richText(b.settings.answer, env.urls.basePath)}</div></details>`,
  )}</div>
</div>
</section>`
}

export function galleryImages(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const s = section.settings
  const columns = int(s.columns, 2, 6, SECTION_DEFAULTS.gallery.columns)
  const ratio = oneOf(
    s.aspectRatio,
    ['square', 'portrait', 'landscape', 'original'] as const,
    SECTION_DEFAULTS.gallery.aspectRatio,
  )
  const sizes = gridSizes(columns)
  const figures = section.blocks.flatMap((b) => {
    if (b.type !== 'image') return []
    const img = themeImage(b.settings.image, env, { sizes })
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
  const scheme = oneOf(
    s.colorScheme,
    ['primary', 'secondary', 'contrast'] as const,
    SECTION_DEFAULTS.announcementBar.colorScheme,
  )
  const href = env.urls.link(s.link)
  return href
    ? html`<a class="announcement scheme-${scheme}" href="${href}">${message}</a>`
    : html`<p class="announcement scheme-${scheme}">${message}</p>`
}

export function logoList(section: SectionView, env: Env, ctx: SectionContext): Html | null {
  const grayscale = bool(section.settings.grayscale, SECTION_DEFAULTS.logoList.grayscale)
  const logos = section.blocks.flatMap((b) => {
    if (b.type !== 'logo') return []
    const img = themeImage(b.settings.image, env, { sizes: { height: 56 } })
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

export function spacer(s: Obj, env: Env): Html {
  const height = env.styles.height(int(s.height, 8, 240, SECTION_DEFAULTS.spacer.height))
  const divider = bool(s.showDivider, SECTION_DEFAULTS.spacer.showDivider)
  return html`<div class="spacer ${height}${divider ? ' divider' : ''}" aria-hidden="true"></div>`
}

export function newsletter(s: Obj, env: Env, ctx: SectionContext): Html {
  const inputId = env.nextId('newsletter-email')
  const label = text(s.buttonLabel) ?? SECTION_DEFAULTS.newsletter.buttonLabel
  const placeholder = text(s.placeholder) ?? SECTION_DEFAULTS.newsletter.placeholder
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
