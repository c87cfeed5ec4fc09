// The live themes of the two demo stores: each starts from the store-aware default theme (its
// name, tagline, logo, hero image and information pages) and gets a design of its own, so a
// newcomer sees two different shops: Atlas bold and outdoorsy, Lumen quiet and editorial.
// Pure: the seed turns the document into the batch of edits an agent would send.
import { defaultThemeDocument, type StoreIdentity, type ThemeDocument } from '../theme/document.ts'
import type { Section } from '../theme/document.ts'
import type { DemoStore } from './demo-catalog.ts'

type Image = { url: string; alt: string }
type Design = (
  store: DemoStore,
  identity: StoreIdentity,
  banners: readonly Image[],
) => Pick<ThemeDocument, 'theme' | 'templates'> & { navigation?: ThemeDocument['navigation'] }

const collectionId = (store: DemoStore, handle: string): string => {
  const c = store.collections.find((x) => x.handle === handle)
  if (!c) throw new Error(`demo collection ${handle} is missing`)
  return c.id
}
const productId = (store: DemoStore, handle: string): string => {
  const p = store.products.find((x) => x.handle === handle)
  if (!p) throw new Error(`demo product ${handle} is missing`)
  return p.id
}
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const atlas: Design = (store, id, banners) => {
  const best = collectionId(store, 'best-sellers')
  const others = store.collections.filter((c) => c.id !== best).map((c) => c.id)
  return {
    theme: {
      theme: 'bold',
      primaryColor: id.primaryColor ?? '#3A5A40',
      secondaryColor: id.secondaryColor ?? '#DDA15E',
      font: 'Montserrat',
      logo: id.logo,
    },
    templates: {
      home: [
        {
          id: 'home-announcement',
          type: 'announcement-bar',
          settings: {
            text: `${id.freeDeliveryFrom ? `Free delivery from ${id.freeDeliveryFrom}` : 'Delivery across Morocco'} · Pay in cash on delivery`,
            link: '/pages/shipping-returns',
            colorScheme: 'secondary',
          },
        },
        {
          id: 'home-hero',
          type: 'hero',
          settings: {
            heading: store.name,
            subheading: id.tagline,
            ...(banners[0] ? { image: banners[0] } : {}),
            primaryButton: { label: 'Shop best sellers', href: `/collections/${best}` },
            secondaryButton: { label: 'All gear', href: '/products' },
            alignment: 'left',
            height: 'full',
            overlayOpacity: 55,
          },
        },
        {
          id: 'home-collections',
          type: 'collection-list',
          settings: { heading: 'Shop by adventure', collectionIds: others, columns: 4 },
        },
        {
          id: 'home-products',
          type: 'product-grid',
          settings: { heading: 'Best sellers', source: 'collection', collectionId: best, limit: 8, columns: 4 },
        },
        {
          id: 'home-about',
          type: 'image-with-text',
          settings: {
            ...(banners[1] ? { image: banners[1] } : { image: { url: id.logo ?? '/media/none.png', alt: '' } }),
            heading: 'Tested on Moroccan trails',
            body: `<p>${esc(id.description)}</p>`,
            button: { label: 'Our story', href: '/pages/about' },
            imagePosition: 'right',
          },
        },
        {
          id: 'home-quotes',
          type: 'testimonials',
          settings: { heading: 'From the trail', columns: 3 },
          blocks: [
            {
              id: 'quote-1',
              type: 'testimonial',
              settings: {
                quote:
                  'The Toubkal tent stood firm through a windy night at the refuge. Delivered to Marrakech in two days, paid at the door.',
                author: 'Youssef B.',
                role: 'Marrakech',
              },
            },
            {
              id: 'quote-2',
              type: 'testimonial',
              settings: {
                quote:
                  'They called to confirm my order within the hour. The boots were broken in after one weekend in the Rif.',
                author: 'Salma E.',
                role: 'Rabat',
              },
            },
            {
              id: 'quote-3',
              type: 'testimonial',
              settings: {
                quote: 'Everything our family needed for a week in Merzouga, in one parcel.',
                author: 'Omar A.',
                role: 'Casablanca',
              },
            },
          ],
        },
        {
          id: 'home-newest',
          type: 'product-grid',
          settings: { heading: 'New arrivals', source: 'newest', limit: 4, columns: 4 },
        },
        {
          id: 'home-newsletter',
          type: 'newsletter',
          settings: {
            heading: 'Trail notes',
            text: 'Routes, gear care and new arrivals, once a month.',
            buttonLabel: 'Sign up',
          },
        },
      ],
      product: [
        {
          id: 'product-details',
          type: 'product-details',
          settings: {
            showDescription: true,
            galleryStyle: 'grid',
            showShareLinks: true,
            buttonLabel: 'Order, pay on delivery',
          },
        },
        {
          id: 'product-more',
          type: 'product-grid',
          settings: { heading: 'Best sellers', source: 'collection', collectionId: best, limit: 4, columns: 4 },
        },
      ],
      collection: [
        {
          id: 'collection-products',
          type: 'collection-products',
          settings: { columns: 3, productsPerPage: 24, showFilters: true },
        },
      ],
      blogPost: [{ id: 'blog-post-article', type: 'article', settings: { showAuthor: true, showDate: true } }],
    },
  }
}

const lumen: Design = (store, id, banners) => ({
  theme: {
    theme: 'classic',
    primaryColor: id.primaryColor ?? '#E07A5F',
    secondaryColor: id.secondaryColor ?? '#3D405B',
    font: 'Playfair Display',
    logo: id.logo,
  },
  templates: {
    home: [
      {
        id: 'home-hero',
        type: 'hero',
        settings: {
          heading: store.name,
          subheading: id.tagline,
          ...(banners[0] ? { image: banners[0] } : {}),
          primaryButton: { label: 'Discover the collections', href: '/collections' },
          secondaryButton: { label: 'New in', href: '/products' },
          alignment: 'center',
          height: 'medium',
          overlayOpacity: 55,
        },
      },
      {
        id: 'home-about',
        type: 'rich-text',
        settings: {
          heading: 'Made slowly, to last',
          body: `<p>${esc(id.description)}</p><p><a href="/pages/about">Our story</a></p>`,
          alignment: 'center',
          width: 'narrow',
        },
      },
      {
        id: 'home-collections',
        type: 'collection-list',
        settings: {
          heading: 'Rooms',
          collectionIds: ['lighting-candles', 'bedroom', 'kitchen-dining'].map((h) => collectionId(store, h)),
          columns: 3,
        },
      },
      {
        id: 'home-featured',
        type: 'featured-product',
        settings: {
          heading: 'The lamp of the season',
          productId: productId(store, 'ceramic-table-lamp'),
          imagePosition: 'right',
        },
      },
      {
        id: 'home-story',
        type: 'image-with-text',
        settings: {
          ...(banners[1] ? { image: banners[1] } : { image: { url: id.logo ?? '/media/none.png', alt: '' } }),
          heading: 'From small European workshops',
          body: '<p>Linen washed in the Vosges, stoneware fired near Lyon, candles poured in Grasse. We visit every workshop we buy from.</p>',
          button: { label: 'Cash on delivery, explained', href: '/pages/cash-on-delivery' },
          imagePosition: 'left',
        },
      },
      {
        id: 'home-products',
        type: 'product-grid',
        settings: { heading: 'New in', source: 'newest', limit: 8, columns: 4 },
      },
      {
        id: 'home-faq',
        type: 'faq',
        settings: { heading: 'Good to know' },
        blocks: [
          {
            id: 'faq-pay',
            type: 'question',
            settings: {
              question: 'How do I pay?',
              answer: `<p>In cash, when your parcel arrives.${id.cashOnDelivery.fee ? ` A cash-on-delivery fee of ${esc(id.cashOnDelivery.fee)} is added.` : ''} <a href="/pages/cash-on-delivery">Details</a>.</p>`,
            },
          },
          {
            id: 'faq-delivery',
            type: 'question',
            settings: {
              question: 'Where do you deliver?',
              answer:
                '<p>Across France, Belgium and Luxembourg. <a href="/pages/shipping-returns">Rates and times</a>.</p>',
            },
          },
          {
            id: 'faq-confirm',
            type: 'question',
            settings: {
              question: 'Why do you call me?',
              answer: `<p>${esc(id.cashOnDelivery.confirmationPolicy ?? 'We confirm every order by phone before we prepare it.')}</p>`,
            },
          },
        ],
      },
      {
        id: 'home-newsletter',
        type: 'newsletter',
        settings: {
          heading: 'Letters from Lumen',
          text: 'New pieces and the stories of the people who make them, twice a season.',
        },
      },
    ],
    product: [
      {
        id: 'product-details',
        type: 'product-details',
        settings: { showDescription: true, imagePosition: 'right', galleryStyle: 'carousel' },
      },
      {
        id: 'product-more',
        type: 'product-grid',
        settings: { heading: 'You may also like', source: 'newest', limit: 4, columns: 4 },
      },
    ],
    collection: [
      {
        id: 'collection-products',
        type: 'collection-products',
        settings: { columns: 4, productsPerPage: 24, showSort: true },
      },
    ],
    blogPost: [
      { id: 'blog-post-article', type: 'article', settings: { showAuthor: true, showDate: true, width: 'narrow' } },
    ],
  },
})

const DESIGNS: Readonly<Record<string, Design>> = { atlas, lumen }

/** The demo store's live theme: the store-aware default with the store's own design. */
export function demoThemeDocument(store: DemoStore, identity: StoreIdentity, banners: readonly Image[]): ThemeDocument {
  const base = defaultThemeDocument(identity)
  const design = DESIGNS[store.slug]
  if (!design) return base
  const { theme, templates, navigation } = design(store, identity, banners)
  return {
    ...base,
    theme,
    templates: templates as ThemeDocument['templates'],
    navigation: navigation ?? base.navigation,
  }
}

type Edit = Record<string, unknown>

/**
 * The batch of edits that turns `from` (a theme just created) into `to`: the same path an agent
 * takes. Sections of `from` that `to` keeps by id are updated in place, the rest replaced.
 */
export function editsBetween(from: ThemeDocument, to: ThemeDocument): Edit[] {
  const edits: Edit[] = []
  for (const template of ['home', 'product', 'collection', 'blogPost'] as const) {
    const wanted = new Map(to.templates[template].map((s) => [s.id, s]))
    for (const s of from.templates[template])
      if (!wanted.has(s.id) || wanted.get(s.id)!.type !== s.type) edits.push({ op: 'deleteSection', sectionId: s.id })
    const kept = new Set(from.templates[template].filter((s) => wanted.get(s.id)?.type === s.type).map((s) => s.id))
    to.templates[template].forEach((section: Section, index) => {
      if (kept.has(section.id)) {
        const old = from.templates[template].find((s) => s.id === section.id)!.settings as Record<string, unknown>
        const removed = Object.fromEntries(
          Object.keys(old)
            .filter((k) => !(k in section.settings))
            .map((k) => [k, null]),
        )
        edits.push({
          op: 'updateSection',
          sectionId: section.id,
          settings: { ...removed, ...section.settings },
          ...('blocks' in section ? { blocks: section.blocks } : {}),
        })
        edits.push({ op: 'moveSection', sectionId: section.id, index })
      } else {
        edits.push({ op: 'createSection', target: { template }, index, section })
      }
    })
  }
  for (const page of to.pages) edits.push({ op: 'createPage', page })
  edits.push({ op: 'updateTokens', tokens: to.theme })
  edits.push({ op: 'setNavigation', navigation: to.navigation })
  return edits
}
