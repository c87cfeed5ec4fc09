// The words a merchant reads for the theme's parts: sections, blocks, settings, templates and
// design tokens. One place, beside the schema, for the editor's forms, the activity view, the
// compare page and the checks. The schema's own descriptions speak to agents; these speak to a
// shop owner. A key without an entry here falls back to its words split apart ("showDate" →
// "Show date"), so a new setting is never shown as a raw key.
import type { SectionType } from './sections.ts'

export const SECTION_LABELS: Record<SectionType, string> = {
  'announcement-bar': 'Announcement bar',
  article: 'Article',
  'collection-list': 'Collection list',
  'collection-products': 'Collection products',
  faq: 'FAQ',
  'featured-product': 'Featured product',
  gallery: 'Gallery',
  hero: 'Hero',
  'image-banner': 'Image banner',
  'image-with-text': 'Image with text',
  'logo-list': 'Logo list',
  newsletter: 'Newsletter sign-up',
  'product-details': 'Product details',
  'product-grid': 'Product grid',
  'rich-text': 'Text',
  spacer: 'Spacer',
  testimonials: 'Testimonials',
}

export const BLOCK_LABELS: Record<string, string> = {
  testimonial: 'Testimonial',
  question: 'Question',
  image: 'Image',
  logo: 'Logo',
}

export const TEMPLATE_LABELS: Record<string, string> = {
  home: 'Home page',
  product: 'Product page',
  collection: 'Collection page',
  blogPost: 'Blog post',
}

// Setting keys, wherever they sit (section settings, block settings, buttons, tokens).
export const SETTING_LABELS: Record<string, string> = {
  alignment: 'Text alignment',
  alt: 'Image description (alt text)',
  answer: 'Answer',
  aspectRatio: 'Image shape',
  author: 'Author',
  avatar: 'Photo',
  body: 'Text',
  button: 'Button',
  buttonLabel: 'Button text',
  caption: 'Caption',
  collectionId: 'Collection',
  collectionIds: 'Collections',
  colorScheme: 'Colours',
  columns: 'Columns',
  font: 'Font',
  galleryStyle: 'Gallery style',
  grayscale: 'Show logos in grey',
  heading: 'Heading',
  height: 'Height',
  href: 'Link',
  image: 'Image',
  imagePosition: 'Image position',
  label: 'Text',
  limit: 'Number of products',
  link: 'Link',
  logo: 'Logo',
  overlayOpacity: 'Image darkening',
  placeholder: 'Placeholder text',
  primaryButton: 'Main button',
  primaryColor: 'Main colour',
  productId: 'Product',
  productIds: 'Products',
  productsPerPage: 'Products per page',
  question: 'Question',
  quote: 'Quote',
  role: 'Role or place',
  secondaryButton: 'Second button',
  secondaryColor: 'Second colour',
  showAuthor: 'Show author',
  showCoverImage: 'Show cover image',
  showDate: 'Show date',
  showDescription: 'Show description',
  showDivider: 'Show divider line',
  showFilters: 'Show filters',
  showShareLinks: 'Show share links',
  showSort: 'Show sorting',
  showTitle: 'Show title',
  source: 'Products to show',
  subheading: 'Subheading',
  successMessage: 'Message after signing up',
  text: 'Text',
  theme: 'Style',
  title: 'Title',
  url: 'Address',
  width: 'Width',
}

export function humanize(key: string): string {
  const words = key
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export const sectionLabel = (type: string): string => SECTION_LABELS[type as SectionType] ?? humanize(type)
export const blockLabel = (type: string): string => BLOCK_LABELS[type] ?? humanize(type)
export const templateLabel = (name: string): string => TEMPLATE_LABELS[name] ?? humanize(name)
export const settingLabel = (key: string): string => SETTING_LABELS[key] ?? humanize(key)

// A path inside a setting ("settings.primaryButton.href", "blocks.2.settings.quote") as the
// merchant reads it: "Main button › Link", "Quote". Array indexes and the structural words
// settings/blocks are not the merchant's vocabulary.
export function settingPathLabel(path: string | readonly (string | number)[]): string {
  const parts = (typeof path === 'string' ? path.split('.') : path.map(String)).filter(
    (p) => p !== 'settings' && p !== 'blocks' && p !== 'tokens' && !/^\d+$/.test(p),
  )
  return parts.map(settingLabel).join(' › ')
}
