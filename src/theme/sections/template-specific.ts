// Sections that render the record a template is for (the current product,
// collection or blog post); each belongs to exactly one template.
import { z } from 'zod'
import { TEXT_LIMITS } from '../constants.ts'
import { SECTION_DEFAULTS } from '../section-defaults.ts'
import { columns, defineSection, plainText, richText, strictObject } from './fields.ts'

export const productDetails = defineSection('product-details', {
  description:
    'The product being viewed: gallery, title, price, availability, variant picker and add-to-cart, all read from the catalog at render time. Product template only; it must appear there exactly once.',
  templates: ['product'],
  settings: strictObject({
    imagePosition: z
      .enum(['left', 'right'])
      .meta({
        description: `Side of the gallery on wide screens. Default ${SECTION_DEFAULTS.productDetails.imagePosition}.`,
      })
      .optional(),
    galleryStyle: z
      .enum(['grid', 'carousel', 'stacked'])
      .meta({
        description: `How product images are laid out. Default ${SECTION_DEFAULTS.productDetails.galleryStyle}.`,
      })
      .optional(),
    showDescription: z
      .boolean()
      .meta({
        description: `Show the product's description. Default ${SECTION_DEFAULTS.productDetails.showDescription}.`,
      })
      .optional(),
    showShareLinks: z
      .boolean()
      .meta({ description: `Show share links. Default ${SECTION_DEFAULTS.productDetails.showShareLinks}.` })
      .optional(),
    buttonLabel: plainText(
      TEXT_LIMITS.label,
      `Text of the add-to-cart button. Default "${SECTION_DEFAULTS.productDetails.buttonLabel}".`,
    ).optional(),
  }),
})

export const collectionProducts = defineSection('collection-products', {
  description:
    'The products of the collection being viewed, paginated, with optional sorting and filters. Collection template only; it must appear there exactly once.',
  templates: ['collection'],
  settings: strictObject({
    showTitle: z
      .boolean()
      .meta({ description: `Show the collection title. Default ${SECTION_DEFAULTS.collectionProducts.showTitle}.` })
      .optional(),
    showDescription: z
      .boolean()
      .meta({
        description: `Show the collection description. Default ${SECTION_DEFAULTS.collectionProducts.showDescription}.`,
      })
      .optional(),
    columns: columns(2, 5).optional(),
    productsPerPage: z
      .int()
      .min(4)
      .max(48)
      .meta({
        description: `Products per page (4-48). Default ${SECTION_DEFAULTS.collectionProducts.productsPerPage}.`,
      })
      .optional(),
    showSort: z
      .boolean()
      .meta({ description: `Offer sorting. Default ${SECTION_DEFAULTS.collectionProducts.showSort}.` })
      .optional(),
    showFilters: z
      .boolean()
      .meta({ description: `Offer filters. Default ${SECTION_DEFAULTS.collectionProducts.showFilters}.` })
      .optional(),
  }),
})

export const article = defineSection('article', {
  description:
    "The blog post being viewed: title, cover image, author, date and content come from the store. Blog post template only; it must appear there exactly once. Its own body is optional text shown after the post's content.",
  templates: ['blogPost'],
  settings: strictObject({
    showAuthor: z
      .boolean()
      .meta({ description: `Show the author. Default ${SECTION_DEFAULTS.article.showAuthor}.` })
      .optional(),
    showDate: z
      .boolean()
      .meta({ description: `Show the publication date. Default ${SECTION_DEFAULTS.article.showDate}.` })
      .optional(),
    showCoverImage: z
      .boolean()
      .meta({ description: `Show the cover image. Default ${SECTION_DEFAULTS.article.showCoverImage}.` })
      .optional(),
    width: z
      .enum(['narrow', 'normal', 'wide'])
      .meta({ description: `Content width. Default ${SECTION_DEFAULTS.article.width}.` })
      .optional(),
    body: richText(
      TEXT_LIMITS.longText,
      'Text shown after the post content, for example a sign-off or a call to action.',
    ).optional(),
  }),
})

/** The section a non-home template is built around; validation requires exactly one. */
export const REQUIRED_TEMPLATE_SECTION = {
  product: 'product-details',
  collection: 'collection-products',
  blogPost: 'article',
} as const
