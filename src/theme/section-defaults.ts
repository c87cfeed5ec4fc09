// What a section looks like when an optional setting is absent: the renderer applies these, and
// the theme schema's descriptions of those settings quote them ("Default large.").
export const SECTION_DEFAULTS = {
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
  productDetails: {
    imagePosition: 'left',
    galleryStyle: 'carousel',
    showDescription: true,
    showShareLinks: false,
    buttonLabel: 'Add to cart',
  },
  collectionProducts: {
    showTitle: true,
    showDescription: true,
    columns: 4,
    productsPerPage: 24,
    showSort: true,
    showFilters: false,
  },
  article: { showAuthor: true, showDate: true, showCoverImage: true, width: 'narrow' },
} as const

// The defaults of a section type by its name in the document ("product-grid" → productGrid).
export function sectionDefaults(type: string): Readonly<Record<string, unknown>> {
  const key = type.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
  return (SECTION_DEFAULTS as Record<string, Record<string, unknown>>)[key] ?? {}
}
