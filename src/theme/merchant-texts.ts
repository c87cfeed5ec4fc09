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

// Help a merchant reads under a section's name and beside its settings in the editor. The
// schema's descriptions tell agents about ids, null and HTML; these say what the choice does
// on the page. A setting's help is looked up as "<section type>.<key>" first, then "<key>";
// a setting without an entry shows no help rather than an agent's words.
export const SECTION_HELP: Record<SectionType, string> = {
  'announcement-bar': 'A thin bar with one short message, such as a delivery note. Looks best at the very top.',
  article: 'The blog post itself: its title, cover image, author, date and text come from your store.',
  'collection-list': 'Cards that lead to your collections, each with its picture and name.',
  'collection-products': 'The products of the collection being viewed, page by page.',
  faq: 'Questions and answers that open when clicked. Add one question per block.',
  'featured-product': 'One product in the spotlight, with its pictures, price and an add-to-cart button.',
  gallery: 'A grid of pictures, each with an optional caption and link.',
  hero: 'A large welcome at the top of a page: a headline, a short text, a picture and up to two buttons.',
  'image-banner': 'A wide picture with a heading, a short text and a button on top of it.',
  'image-with-text': 'A picture beside some text, with an optional button. Good for telling your story.',
  'logo-list': 'A row of logos: press mentions, partners or certifications.',
  newsletter: 'A sign-up form for your e-mail newsletter.',
  'product-details': 'The product being viewed: pictures, price, options and the add-to-cart button.',
  'product-grid': 'A grid of products: your newest, those of a collection, or products you pick.',
  'rich-text': 'Text with a heading: paragraphs, lists, links and small headings.',
  spacer: 'Empty space between two sections, with an optional line.',
  testimonials: 'Quotes from your customers. Use only real quotes.',
}

export const SETTING_HELP: Record<string, string> = {
  heading: 'Shown above the section. Leave it empty for none.',
  'hero.heading': 'The big headline.',
  'hero.subheading': 'A sentence or two under the headline.',
  'hero.image': 'Shown behind the text. Without one, the background takes your theme colours.',
  overlayOpacity: 'Darkens the picture so the text stays readable: 0 for none, up to 80.',
  alignment: 'Where the text sits: left, centre or right.',
  'product-grid.source': 'Your newest products, the products of one collection, or the products you pick.',
  collectionId: 'Choose one of your collections by its name.',
  productIds: 'Search your products by name and add them in the order they should appear.',
  productId: 'Search your products by name.',
  collectionIds: 'Choose your collections by name, in the order they should appear.',
  limit: 'At most this many products are shown.',
  columns: 'How many side by side on a computer screen. Phones show fewer.',
  width: 'How wide the text runs across the page.',
  imagePosition: 'Which side the picture is on, on a computer screen. Phones show it above.',
  href: 'Where a click leads: a page of your store or another website.',
  link: 'Where a click on the bar leads, if anywhere.',
  label: 'The words on the button.',
  colorScheme: 'Which of your theme colours fills the bar.',
  grayscale: 'Shows every logo in shades of grey, so they look alike.',
  height: 'How tall the section is.',
  'spacer.height': 'The space in pixels, from 8 to 240.',
  aspectRatio: 'Every picture is cropped to this shape.',
  quote: 'The customer’s own words.',
  role: 'Where they live or what they do, for example “Lisbon”.',
  successMessage: 'Shown once someone has signed up.',
  placeholder: 'Shown in the empty e-mail box.',
  buttonLabel: 'The words on the button.',
  theme: 'The overall look: shapes, spacing and the size of text.',
  primaryColor: 'Buttons, links and accents.',
  secondaryColor: 'Highlights and the announcement bar.',
  font: 'Used for all text in your store.',
  logo: 'Shown at the top of every page. Without one, your store’s name is shown.',
  alt: 'Describes the picture for people who cannot see it, and for search engines.',
  caption: 'Shown under the picture.',
}

// The choices of a list ("newest", "center") as a merchant reads them; looked up as
// "<key>.<value>" first, then "<value>". A value that is a name (a font) is shown as it is.
export const OPTION_LABELS: Record<string, string> = {
  'source.newest': 'Newest products',
  'source.collection': 'Products of a collection',
  'source.manual': 'Products I pick',
  center: 'Centre',
  full: 'Full screen',
  'colorScheme.primary': 'Main colour',
  'colorScheme.secondary': 'Second colour',
  'colorScheme.contrast': 'Dark',
  original: 'As uploaded',
  'system-ui': 'The device’s own font',
}

export const sectionHelp = (type: string): string => SECTION_HELP[type as SectionType] ?? ''
export const settingHelp = (key: string, sectionType?: string): string =>
  (sectionType ? SETTING_HELP[`${sectionType}.${key}`] : undefined) ?? SETTING_HELP[key] ?? ''
export const optionLabel = (key: string, value: string | number): string => {
  const text = String(value)
  return OPTION_LABELS[`${key}.${text}`] ?? OPTION_LABELS[text] ?? (/^[a-z][a-z-]*$/.test(text) ? humanize(text) : text)
}

// The editor's own places a fix can send the merchant to (the outline's buttons).
export const EDITOR_PLACES = {
  tokens: 'Colours, font and logo',
  navigation: 'Navigation',
  pages: 'Custom pages',
} as const

// The theme checks (src/checks) in a shop owner's words. A finding's `fix` speaks to agents (tool
// names, document paths such as theme.primaryColor), so the dashboard and the editor show these
// instead: what is wrong in a few words, and what to do about it in the editor. Keyed by the
// checks' stable rule ids (test/theme/check-words.unit.test.ts holds every rule to an entry; the
// rule ids cannot be imported here, src/checks already depends on src/theme).
export const SEVERITY_WORDS = { error: 'Error', warning: 'Worth a look', info: 'Note' } as const
export type CheckSeverity = keyof typeof SEVERITY_WORDS

/** "1 error", "2 warnings": the editor's badges and counts. */
export function severityCount(severity: CheckSeverity, n: number): string {
  const word = { error: 'error', warning: 'warning', info: 'note' }[severity]
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** Where a finding is ("home", "page:<id>", "theme"), in words; a custom page by its title when known. */
export function checkPlaceLabel(template: string, pageTitle?: (pageId: string) => string | undefined): string {
  if (template === 'theme') return 'Every page'
  if (template.startsWith('page:')) return pageTitle?.(template.slice('page:'.length)) ?? 'A custom page'
  return templateLabel(template)
}

/** What the merchant's fix needs to know of a finding: its rule, where it is and what kind of section. */
export type CheckPlace = {
  rule: string
  setting?: string | undefined
  blockId?: string | undefined
  sectionType?: string
}

const quoted = (setting: string | undefined, fallback: string) =>
  `“${setting && !setting.startsWith('navigation') ? settingPathLabel(setting) : fallback}”`
const inNavigation = (f: CheckPlace) => f.setting?.startsWith('navigation') === true

const EMPTY_SECTION_FIXES: Record<string, string> = {
  'product-grid':
    'Under “Products to show”, pick products that are on sale, a collection that has products, or your newest products.',
  'collection-list': 'Choose collections of your store under “Collections”, or delete the section.',
  'featured-product': 'Choose a product that is on sale under “Product”.',
  'collection-products': 'Add products to your collections; until then the page lists nothing.',
  faq: 'Add a question, or delete the section.',
  testimonials: 'Add a customer’s real words, or delete the section.',
  gallery: 'Add pictures, or delete the section.',
  'logo-list': 'Add logos, or delete the section.',
  'announcement-bar': 'Write its message under “Text”, or delete the section.',
}

export const CHECK_TEXTS: Record<string, { title: string; fix: (f: CheckPlace) => string }> = {
  contrast: {
    title: 'Text hard to read',
    fix: (f) => {
      const token = f.setting?.replace(/^theme\./, '') ?? ''
      if (token === 'primaryColor' || token === 'secondaryColor') {
        const bar =
          f.sectionType === 'announcement-bar' ? ' Or set this bar’s “Colours” to “Dark”, which always reads.' : ''
        return `In “${EDITOR_PLACES.tokens}”, pick a darker (or much lighter) ${settingLabel(token).toLowerCase()}: the text on it then turns white or black, whichever reads.${bar}`
      }
      return `In “${EDITOR_PLACES.tokens}”, choose another “${settingLabel('theme')}”.`
    },
  },
  'contrast-over-image': {
    title: 'Text hard to read on the picture',
    fix: () =>
      `Raise “${settingLabel('overlayOpacity')}” in this section, choose a darker picture, or move the text (“${settingLabel('alignment')}”) over a darker part of it.`,
  },
  'image-alt': {
    title: 'Picture without a description',
    fix: () =>
      `If the picture shows something shoppers should know about, describe it in one short sentence under “${settingLabel('alt')}”. Leave it empty only for pure decoration.`,
  },
  'catalogue-image-alt': {
    title: 'Product pictures without a description',
    fix: () => 'Describe the product’s pictures where you manage your products; the theme cannot.',
  },
  'broken-link': {
    title: 'Link that leads nowhere',
    fix: (f) =>
      inNavigation(f)
        ? `In “${EDITOR_PLACES.navigation}”, choose a page for this link, or delete the link.`
        : `Choose a page for this link under ${quoted(f.setting, 'Link')} (“Choose a link” lists what exists), or remove the link.`,
  },
  'unavailable-link': {
    title: 'Link to something not available yet',
    fix: (f) =>
      `Link a published page or a product on sale under ${inNavigation(f) ? `“${EDITOR_PLACES.navigation}”` : quoted(f.setting, 'Link')}, or publish it first (your own pages under “${EDITOR_PLACES.pages}”).`,
  },
  'empty-link': {
    title: 'Link without words',
    fix: (f) =>
      f.setting === 'href' && f.blockId !== undefined
        ? `Describe the picture under “${settingLabel('alt')}” or give it a caption, so the link says where it leads.`
        : `In ${quoted(f.setting, 'Text')}, select the words to click and make them the link.`,
  },
  'button-label': {
    title: 'Button without text',
    fix: (f) =>
      inNavigation(f)
        ? `In “${EDITOR_PLACES.navigation}”, give the link a name, for example “Shop the collection”.`
        : `Write the words on the button under ${quoted(f.setting?.replace(/\.label$/, ''), 'Button')}, for example “Shop the collection”.`,
  },
  'missing-reference': {
    title: 'Product or collection no longer in your store',
    fix: (f) => `Choose products or collections that are in your store under ${quoted(f.setting, 'Products')}.`,
  },
  'empty-section': {
    title: 'Section that shows nothing',
    fix: (f) => EMPTY_SECTION_FIXES[f.sectionType ?? ''] ?? 'Fill in what it should show, or delete the section.',
  },
  'page-weight': {
    title: 'Page slow to load on phones',
    fix: () => 'Use fewer or smaller pictures on this page, or fewer sections.',
  },
  'section-count': {
    title: 'Very long page',
    fix: () => 'Delete or merge sections, or move some to a custom page.',
  },
  'checks-unavailable': {
    title: 'The checks could not run',
    fix: () => 'Your change was saved. Reload the editor to run the checks again.',
  },
}

export const checkTitle = (rule: string): string => CHECK_TEXTS[rule]?.title ?? humanize(rule)
export const checkFix = (f: CheckPlace): string => CHECK_TEXTS[f.rule]?.fix(f) ?? ''
