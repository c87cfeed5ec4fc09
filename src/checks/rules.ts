// The rules of the theme checks: a stable id each (agents and the editor key on it), its severity,
// what it checks and why. docs/theme-checks.md documents every one (test/checks/rules.unit.test.ts
// holds the two together); the rule functions live beside this file, one per rule or family.

export type RuleSpec = {
  severity: 'error' | 'warning' | 'info'
  title: string
  checks: string
  why: string
}

export const RULES = {
  contrast: {
    severity: 'error',
    title: 'Text contrast',
    checks:
      'Every text and background pair the storefront draws for the theme (buttons, announcement bars, badges, the hero without image, footer, links, muted text) reaches WCAG 2.2 AA: 4.5:1, or 3:1 for large text.',
    why: 'Text below these ratios is hard or impossible to read for many shoppers, on a phone in daylight for everyone.',
  },
  'contrast-over-image': {
    severity: 'error',
    title: 'Text over an image',
    checks:
      'Text laid over a hero or image-banner image: the overlay colour and opacity composited over the mean colour of the part of the image the text covers (by the section’s alignment) reaches 4.5:1 (3:1 for headings).',
    why: 'White text on a light photo disappears; the overlay is there to darken it enough.',
  },
  'image-alt': {
    severity: 'warning',
    title: 'Alternative text of content images',
    checks:
      'Images that carry meaning (image with text, gallery, logo list) have alternative text. An empty alt declares the image decorative.',
    why: 'Screen readers skip an image with an empty alt; a shopper who cannot see it loses what it shows.',
  },
  'catalogue-image-alt': {
    severity: 'info',
    title: 'Product images without alternative text',
    checks: 'Product images a section shows have alternative text in the catalogue.',
    why: 'Without it the storefront can only repeat the product title ("Tent, image 2").',
  },
  'broken-link': {
    severity: 'error',
    title: 'Links to nothing',
    checks:
      'Links and buttons lead somewhere: products and collections that exist (by id or handle), pages of the theme, storefront paths that exist.',
    why: 'A button to a missing page is a dead end for a shopper ready to buy.',
  },
  'unavailable-link': {
    severity: 'warning',
    title: 'Links to something not on sale or not published',
    checks: 'Links to products that are draft or archived, and to theme pages still in draft.',
    why: 'Visitors of the live store get a “page not found” there until the product or page is published.',
  },
  'empty-link': {
    severity: 'error',
    title: 'Links without text',
    checks: 'Every link has text (or an image with alternative text) that says where it leads.',
    why: 'A link without a name is announced as “link” and nothing else.',
  },
  'button-label': {
    severity: 'error',
    title: 'Buttons without a label',
    checks: 'Buttons and menu entries have a label that is more than spaces.',
    why: 'The storefront leaves out a button or menu entry whose label is blank, so it never appears.',
  },
  'missing-reference': {
    severity: 'warning',
    title: 'Products or collections that no longer exist',
    checks: 'Products and collections a section references by id are still in the catalogue.',
    why: 'The storefront skips them silently; the section shows less than it was designed to.',
  },
  'empty-section': {
    severity: 'warning',
    title: 'Sections that render nothing',
    checks:
      'Each section shows something with the catalogue as it is: a product grid or collection list with items, an FAQ with questions, a gallery with images.',
    why: 'An empty section leaves a gap the merchant does not see in the editor, or is not shown at all.',
  },
  'page-weight': {
    severity: 'warning',
    title: 'Page weight on a phone',
    checks:
      'What a phone (390 px wide) downloads for each template and page: HTML, CSS and images as the storefront sends them, images at the size chosen for 390 px. More than 800 KB is reported.',
    why: 'Heavy pages are slow and costly on mobile data, where most cash-on-delivery shoppers are.',
  },
  'section-count': {
    severity: 'warning',
    title: 'Too many sections on a page',
    checks: 'A template or page holds at most 15 sections.',
    why: 'Long pages bury what matters and weigh more; shoppers rarely scroll that far.',
  },
  'checks-unavailable': {
    severity: 'info',
    title: 'Checks could not run',
    checks: 'Reported when the checks themselves failed (the change was still made).',
    why: 'An empty list must mean “nothing found”, never “not checked”.',
  },
} as const satisfies Record<string, RuleSpec>

export type RuleId = keyof typeof RULES
export const RULE_IDS = Object.keys(RULES) as [RuleId, ...RuleId[]]

export const PAGE_WEIGHT_LIMIT_BYTES = 800 * 1000
export const SECTIONS_PER_PAGE_LIMIT = 15
