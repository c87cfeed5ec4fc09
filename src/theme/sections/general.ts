// Sections that may appear in any template and on custom pages.
import { z } from 'zod'
import { PLACEMENTS, TEXT_LIMITS } from '../constants.ts'
import { SECTION_DEFAULTS } from '../section-defaults.ts'
import {
  alignment,
  button,
  collectionId,
  collectionIds,
  columns,
  defineBlock,
  defineSection,
  defineSectionWithBlocks,
  image,
  plainText,
  productId,
  productIds,
  richText,
  strictObject,
  url,
} from './fields.ts'

const heading = () => plainText(TEXT_LIMITS.heading, 'Heading shown above the section content.').optional()
const overlayOpacity = (fallback: number) =>
  z
    .int()
    .min(0)
    .max(80)
    .meta({
      description: `Darkening laid over the image, in percent (0-80), so text stays readable. Default ${fallback}.`,
    })
const imagePosition = (fallback: string) =>
  z.enum(['left', 'right']).meta({ description: `Side of the image on wide screens. Default ${fallback}.` })

export const hero = defineSection('hero', {
  description:
    'Large introduction at the top of a page: a headline, an optional subheading, an optional background image and up to two buttons. Best used once, as the first section of the home page.',
  templates: PLACEMENTS,
  settings: strictObject({
    heading: plainText(TEXT_LIMITS.heading, 'Main headline.', { min: 1 }),
    subheading: plainText(TEXT_LIMITS.text, 'Supporting text under the headline.', { multiline: true }).optional(),
    image: image.meta({ description: 'Background image; omit for a plain background in the theme colors.' }).optional(),
    primaryButton: button.optional(),
    secondaryButton: button.optional(),
    alignment: alignment.optional(),
    height: z
      .enum(['small', 'medium', 'large', 'full'])
      .meta({ description: `Section height. Default ${SECTION_DEFAULTS.hero.height}.` })
      .optional(),
    overlayOpacity: overlayOpacity(SECTION_DEFAULTS.hero.overlayOpacity).optional(),
  }),
})

const productGridSettings = strictObject({
  heading: heading(),
  source: z.enum(['newest', 'collection', 'manual']).meta({
    description:
      "Which products to show: 'newest' (most recently added products; no ids needed), 'collection' (products of collectionId) or 'manual' (exactly productIds, in that order).",
  }),
  collectionId: collectionId
    .meta({
      description:
        "Id of an existing collection (from listCollections or get_collections; never invented). Required when source is 'collection'; not allowed otherwise.",
    })
    .optional(),
  productIds: productIds
    .meta({
      description:
        "Ids of existing products (from listProducts or get_products; never invented), in display order. Required (at least one) when source is 'manual'; not allowed otherwise.",
    })
    .optional(),
  limit: z
    .int()
    .min(1)
    .max(TEXT_LIMITS.referencesPerSection)
    .meta({
      description: `Maximum number of products shown (1-${TEXT_LIMITS.referencesPerSection}).`,
    }),
  columns: columns(2, 5).optional(),
}).superRefine((settings, ctx) => {
  const misuse = (path: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: [path], message, params: { code: 'VALIDATION_FAILED' } })
  if (settings.source === 'collection' && settings.collectionId === undefined)
    misuse('collectionId', "collectionId is required when source is 'collection'")
  if (settings.source !== 'collection' && settings.collectionId !== undefined)
    misuse('collectionId', "collectionId is only used when source is 'collection'")
  if (settings.source === 'manual' && (settings.productIds ?? []).length === 0)
    misuse('productIds', "productIds (at least one) is required when source is 'manual'")
  if (settings.source !== 'manual' && settings.productIds !== undefined)
    misuse('productIds', "productIds is only used when source is 'manual'")
})

export const productGrid = defineSection('product-grid', {
  description:
    'Grid of product cards (image, title, price and availability come from the catalog at render time). Choose products by source: newest, a collection, or a manual list of real product ids.',
  templates: PLACEMENTS,
  settings: productGridSettings,
})

export const richTextSection = defineSection('rich-text', {
  description: 'A block of formatted text (paragraphs, lists, links, headings) with an optional heading.',
  templates: PLACEMENTS,
  settings: strictObject({
    heading: heading(),
    body: richText(TEXT_LIMITS.richText, 'The formatted text.'),
    alignment: alignment.optional(),
    width: z
      .enum(['narrow', 'normal', 'wide'])
      .meta({ description: `Content width. Default ${SECTION_DEFAULTS.richText.width}.` })
      .optional(),
  }),
})

export const featuredProduct = defineSection('featured-product', {
  description:
    'Spotlight on one product with its images, title, price, availability and add-to-cart button, all read from the catalog at render time.',
  templates: PLACEMENTS,
  settings: strictObject({
    productId,
    heading: heading(),
    imagePosition: imagePosition(SECTION_DEFAULTS.featuredProduct.imagePosition).optional(),
    showDescription: z
      .boolean()
      .meta({
        description: `Show the product's description. Default ${SECTION_DEFAULTS.featuredProduct.showDescription}.`,
      })
      .optional(),
  }),
})

export const collectionList = defineSection('collection-list', {
  description: 'Cards linking to collections, each with its image and title from the catalog.',
  templates: PLACEMENTS,
  settings: strictObject({
    heading: heading(),
    collectionIds: collectionIds.min(1),
    columns: columns(2, 5).optional(),
  }),
})

export const imageWithText = defineSection('image-with-text', {
  description: 'An image beside formatted text, with an optional button. Good for brand stories and highlights.',
  templates: PLACEMENTS,
  settings: strictObject({
    image,
    heading: heading(),
    body: richText(TEXT_LIMITS.longText, 'Text beside the image.').optional(),
    button: button.optional(),
    imagePosition: imagePosition(SECTION_DEFAULTS.imageWithText.imagePosition).optional(),
  }),
})

export const imageBanner = defineSection('image-banner', {
  description: 'A wide image with an optional heading, short text and button laid over it.',
  templates: PLACEMENTS,
  settings: strictObject({
    image,
    heading: heading(),
    text: plainText(TEXT_LIMITS.text, 'Short text under the heading.', { multiline: true }).optional(),
    button: button.optional(),
    height: z
      .enum(['small', 'medium', 'large'])
      .meta({ description: `Banner height. Default ${SECTION_DEFAULTS.imageBanner.height}.` })
      .optional(),
    alignment: alignment.optional(),
    overlayOpacity: overlayOpacity(SECTION_DEFAULTS.imageBanner.overlayOpacity).optional(),
  }),
})

export const testimonials = defineSectionWithBlocks('testimonials', {
  description: 'Customer quotes, one testimonial block each. Use only real quotes supplied by the merchant.',
  templates: PLACEMENTS,
  settings: strictObject({ heading: heading(), columns: columns(1, 3).optional() }),
  block: defineBlock(
    'testimonial',
    'One customer quote.',
    strictObject({
      quote: plainText(TEXT_LIMITS.text, 'The quote.', { min: 1, multiline: true }),
      author: plainText(TEXT_LIMITS.label, 'Who said it.', { min: 1 }),
      role: plainText(TEXT_LIMITS.label, 'Role or place of the author, for example "Lisbon".').optional(),
      avatar: image.meta({ description: 'Portrait of the author.' }).optional(),
    }),
  ),
})

export const faq = defineSectionWithBlocks('faq', {
  description: 'Frequently asked questions, one question block each, shown as an expandable list.',
  templates: PLACEMENTS,
  settings: strictObject({ heading: heading() }),
  block: defineBlock(
    'question',
    'One question and its answer.',
    strictObject({
      question: plainText(TEXT_LIMITS.heading, 'The question.', { min: 1 }),
      answer: richText(TEXT_LIMITS.longText, 'The answer.'),
    }),
  ),
})

export const gallery = defineSectionWithBlocks('gallery', {
  description: 'A grid of images, one image block each, with optional captions and links.',
  templates: PLACEMENTS,
  settings: strictObject({
    heading: heading(),
    columns: columns(2, 6).optional(),
    aspectRatio: z
      .enum(['square', 'portrait', 'landscape', 'original'])
      .meta({ description: `Crop of every image. Default ${SECTION_DEFAULTS.gallery.aspectRatio}.` })
      .optional(),
  }),
  block: defineBlock(
    'image',
    'One gallery image.',
    strictObject({
      image,
      caption: plainText(TEXT_LIMITS.heading, 'Caption under the image.').optional(),
      href: url('Optional link when the image is clicked.').optional(),
    }),
  ),
})

export const announcementBar = defineSection('announcement-bar', {
  description: 'A thin bar with one short message, for example a delivery note. Best placed first in a layout.',
  templates: PLACEMENTS,
  settings: strictObject({
    text: plainText(TEXT_LIMITS.heading, 'The message.', { min: 1 }),
    link: url('Optional link for the whole bar.').optional(),
    colorScheme: z
      .enum(['primary', 'secondary', 'contrast'])
      .meta({
        description: `Which theme color fills the bar. Default ${SECTION_DEFAULTS.announcementBar.colorScheme}.`,
      })
      .optional(),
  }),
})

export const logoList = defineSectionWithBlocks('logo-list', {
  description: 'A row of logos (press mentions, partners, certifications), one logo block each.',
  templates: PLACEMENTS,
  settings: strictObject({
    heading: heading(),
    grayscale: z
      .boolean()
      .meta({ description: `Show logos in grayscale. Default ${SECTION_DEFAULTS.logoList.grayscale}.` })
      .optional(),
  }),
  block: defineBlock(
    'logo',
    'One logo.',
    strictObject({
      image,
      href: url('Optional link for the logo.').optional(),
    }),
  ),
})

export const spacer = defineSection('spacer', {
  description: 'Vertical space between sections, optionally with a divider line.',
  templates: PLACEMENTS,
  settings: strictObject({
    height: z.int().min(8).max(240).meta({ description: 'Height in CSS pixels (8-240).' }),
    showDivider: z
      .boolean()
      .meta({ description: `Draw a thin line in the middle. Default ${SECTION_DEFAULTS.spacer.showDivider}.` })
      .optional(),
  }),
})

export const newsletter = defineSection('newsletter', {
  description:
    'Email sign-up form. The service receives the submission and handles consent; the theme only sets the wording (there is no form action to configure).',
  templates: PLACEMENTS,
  settings: strictObject({
    heading: plainText(TEXT_LIMITS.heading, 'Invitation to subscribe.', { min: 1 }),
    text: plainText(TEXT_LIMITS.text, 'What subscribers get.', { multiline: true }).optional(),
    buttonLabel: plainText(
      TEXT_LIMITS.label,
      `Submit button text. Default "${SECTION_DEFAULTS.newsletter.buttonLabel}".`,
    ).optional(),
    placeholder: plainText(
      TEXT_LIMITS.label,
      `Placeholder of the email field. Default "${SECTION_DEFAULTS.newsletter.placeholder}".`,
    ).optional(),
    successMessage: plainText(TEXT_LIMITS.text, 'Shown after signing up.').optional(),
  }),
})
