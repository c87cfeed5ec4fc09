// One renderer per section type of the catalogue (src/theme/sections/*), split the same way:
// shared pieces in sections/fields.ts, the buy box in sections/buy-box.ts, the general
// sections in sections/general.ts, the template sections in sections/template-specific.ts.
// Settings are read defensively and the documented defaults apply when a setting is absent.
import type { Collection } from '../queries/commerce/schemas.ts'
import type { SectionType } from '../theme/sections.ts'
import { text, type SectionView } from './document.ts'
import type { Env } from './env.ts'
import type { Html } from '../web/html.ts'
import type { SectionContext } from './sections/fields.ts'
import {
  announcementBar,
  collectionCards,
  collectionList,
  faq,
  featuredProduct,
  galleryImages,
  hero,
  imageBanner,
  imageWithText,
  logoList,
  newsletter,
  productGrid,
  richTextSection,
  spacer,
  testimonials,
} from './sections/general.ts'
import { article, collectionProducts, productDetails, type BlogPost } from './sections/template-specific.ts'

export { productCard, type SectionContext } from './sections/fields.ts'
export { announcementBar } from './sections/general.ts'
export type { BlogPost } from './sections/template-specific.ts'

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
