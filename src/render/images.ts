// Images on a page (issue 35 C). A media-library image (/media/<sha256>.<ext>) is a <picture>:
// AVIF and WebP sources and the <img> in the original's format, each a srcset of the widths
// src/images/variants.ts lists and the `sizes` of the slot it fills, with the original's width
// and height so the page never shifts. The copies are made on their first request (the media
// route). The page's lead image (the first one a section asks to load eagerly: the hero, the
// product's first photo) is fetched with high priority and preloaded from the head; every
// other image is lazy. An external https image is never fetched by the service, so it is a plain
// <img> with no copies and no width or height (docs/decisions/0142-external-images-are-never-fetched.md).
import { derivativeFormats, derivativePath, derivativeWidths, fallbackFormat, mediaHash } from '../images/variants.ts'
import { CONTENT_TYPES } from '../images/variants.ts'
import type { MediaSize } from '../queries/media-derivatives.ts'
import { html, type Html, type SafeUrl } from '../web/html.ts'
import type { Env } from './env.ts'

export type { MediaSize }

export type ImageOptions = {
  /** The slot's `sizes` (see SIZES and gridSizes). */
  sizes: string
  /** The page's lead image if none is yet: high priority and preloaded; otherwise lazy. */
  eager?: boolean
  className?: string
  /** Width and height when the caller knows them and the library does not (catalog images). */
  width?: number | null
  height?: number | null
}

const CONTAINER = 1240
const WIDE = `(min-width: ${CONTAINER + 80}px)`

/** `sizes` of the slots that do not depend on a column count. */
export const SIZES = {
  fullBleed: '100vw',
  split: `${WIDE} 580px, (min-width: 800px) 46vw, 92vw`,
  productMain: `${WIDE} 640px, (min-width: 860px) 50vw, 92vw`,
  productHalf: `${WIDE} 320px, (min-width: 860px) 25vw, 46vw`,
  productCarousel: `${WIDE} 570px, (min-width: 860px) 46vw, 82vw`,
  article: `${WIDE} ${CONTAINER}px, 92vw`,
  avatar: '44px',
} as const

/** `sizes` of an image in a grid of `columns` (product cards, collection cards, gallery). */
export function gridSizes(columns: number, mobile: 'two' | 'one' = 'two'): string {
  const cols = Math.max(1, Math.min(6, columns))
  const px = Math.round(CONTAINER / cols)
  const desktop = `${WIDE} ${px}px, (min-width: 800px) ${Math.round(92 / cols)}vw`
  if (mobile === 'one') return `${desktop}, (min-width: 640px) 46vw, 92vw`
  return cols >= 4 ? `${desktop}, (min-width: 560px) 31vw, 46vw` : `${desktop}, 46vw`
}

/** `sizes` of an image shown at a fixed height (logos): its width at that height. */
export const heightSizes = (env: Env, src: SafeUrl, height: number): string => {
  const size = mediaSize(env, src)
  return size?.width && size.height ? `${Math.ceil((size.width * height) / size.height)}px` : `${height * 4}px`
}

function mediaSize(env: Env, src: SafeUrl): MediaSize | undefined {
  const sha = mediaHash(src.value)
  return sha === null ? undefined : env.media.get(sha)
}

/** The preload of the page's lead image, for the document head (null when the page has none). */
export function leadPreload(env: Env): Html | null {
  return env.lead.preload
}

/** An image of the page: a <picture> of responsive copies for the media library's, else a plain <img>. */
export function responsiveImage(src: SafeUrl, alt: string, env: Env, options: ImageOptions): Html {
  const lead = options.eager === true && !env.lead.taken
  if (lead) env.lead.taken = true
  const sha = mediaHash(src.value)
  const size = sha === null ? undefined : env.media.get(sha)
  const width = size?.width ?? options.width ?? null
  const height = size?.height ?? options.height ?? null
  const loading = lead ? html` fetchpriority="high"` : html` loading="lazy"`
  const cls = options.className ? html` class="${options.className}"` : null
  const dims = width !== null && height !== null ? html` width="${width}" height="${height}"` : null

  if (sha === null || size === undefined || size.width === null || size.height === null) {
    if (lead) env.lead.preload = html`<link rel="preload" as="image" href="${src}" fetchpriority="high">`
    return html`<img${cls} src="${src}" alt="${alt}"${dims}${loading} decoding="async">`
  }
  const own = fallbackFormat(size.contentType)
  const widths = derivativeWidths(size.width)
  const srcsetOf = (format: NonNullable<typeof own>) =>
    env.urls.srcset(widths.map((w) => ({ path: derivativePath(sha, w, format), width: w })))
  // GIF keeps its animation: the original alone, described by its width.
  const imgSrcset = own === null ? env.urls.srcset([{ path: src.value, width: size.width }]) : srcsetOf(own)
  const sources = derivativeFormats(size.contentType)
    .filter((f) => f !== own)
    .map((f) => ({ type: CONTENT_TYPES[f], srcset: srcsetOf(f) }))
  if (lead) {
    const best = sources[0]
    env.lead.preload = best
      ? html`<link rel="preload" as="image" href="${src}" imagesrcset="${best.srcset}" imagesizes="${options.sizes}" type="${best.type}" fetchpriority="high">`
      : html`<link rel="preload" as="image" href="${src}" imagesrcset="${imgSrcset}" imagesizes="${options.sizes}" fetchpriority="high">`
  }
  const img = html`<img${cls} src="${src}" srcset="${imgSrcset}" sizes="${options.sizes}" alt="${alt}"${dims}${loading} decoding="async">`
  if (sources.length === 0) return img
  return html`<picture>${sources.map(
    (s) => html`<source type="${s.type}" srcset="${s.srcset}" sizes="${options.sizes}">`,
  )}${img}</picture>`
}
