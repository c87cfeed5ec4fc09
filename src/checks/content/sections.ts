// Rules `missing-reference`, `empty-section` and `section-count`. Whether a section shows
// anything is read from the storefront's own rendering of its template or page: a section that
// renders nothing has no wrapper there (or an empty one), whatever the reason, so the rule needs no
// copy of the renderer's logic; the document and the catalogue only explain why.
import type { Section, ThemeDocument } from '../../theme/document.ts'
import type { Found } from '../finding.ts'
import { elementsOf, sectionWrappers, type El } from '../html.ts'
import type { CatalogueFacts, RenderedPage } from '../input.ts'
import { layoutsOf, referencesOf, settingsOf, type Settings } from '../layouts.ts'
import { RULES, SECTIONS_PER_PAGE_LIMIT } from '../rules.ts'

export function missingReferenceFindings(doc: ThemeDocument, catalogue: CatalogueFacts): Found[] {
  const out: Found[] = []
  for (const layout of layoutsOf(doc))
    for (const section of layout.sections)
      for (const { kind, id, setting } of referencesOf(section)) {
        const product = kind === 'product' ? catalogue.products.get(id) : undefined
        const exists = kind === 'product' ? product !== undefined : catalogue.collections.has(id)
        if (exists && (kind === 'collection' || product?.visible)) continue
        out.push({
          rule: 'missing-reference',
          severity: RULES['missing-reference'].severity,
          template: layout.place,
          sectionId: section.id,
          setting,
          message: exists
            ? `The product “${product!.title}” is ${product!.status}, not on sale: the section leaves it out.`
            : `The ${kind} ${id} is no longer in the catalogue: the section leaves it out.`,
          fix:
            kind === 'product'
              ? 'Replace it with a product on sale (listProducts / get_products), or remove it.'
              : 'Replace it with an existing collection (listCollections / get_collections), or remove it.',
          subject: id,
        })
      }
  return out
}

// What an empty section of each type is missing, in the merchant's words.
function why(section: Section, catalogue: CatalogueFacts, onProductPage: boolean): { message: string; fix: string } {
  const s: Settings = settingsOf(section)
  switch (section.type) {
    case 'product-grid': {
      if (s.source === 'manual')
        return {
          message: 'None of its products is on sale, so the product grid shows nothing.',
          fix: 'Pick products on sale (listProducts / get_products) or use source newest.',
        }
      if (s.source === 'collection') {
        const c = typeof s.collectionId === 'string' ? catalogue.collections.get(s.collectionId) : undefined
        return {
          message: c
            ? `The collection “${c.title}” has no products on sale${onProductPage ? ' besides the product shown' : ''}, so the product grid shows nothing.`
            : `Its collection ${String(s.collectionId)} no longer exists, so the product grid shows nothing.`,
          fix: 'Choose a collection with products, or use source newest.',
        }
      }
      return {
        message:
          catalogue.visibleProducts === 0
            ? 'The store has no products on sale yet, so the product grid shows nothing.'
            : 'The product grid has nothing to show here.',
        fix: 'Remove the section until the store has products, or keep it knowingly.',
      }
    }
    case 'collection-list':
      return {
        message: 'None of its collections exists any more, so the collection list shows nothing.',
        fix: 'Choose collections from listCollections / get_collections.',
      }
    case 'featured-product':
      return {
        message: 'Its product is not in the catalogue or not on sale, so the section shows nothing.',
        fix: 'Feature a product on sale (listProducts / get_products).',
      }
    case 'faq':
      return { message: 'The FAQ has no questions.', fix: 'Add question blocks, or remove the section.' }
    case 'testimonials':
      return {
        message: 'The testimonials have no quotes.',
        fix: 'Add the merchant’s real quotes, or remove the section.',
      }
    case 'gallery':
    case 'logo-list':
      return {
        message: `The ${section.type === 'gallery' ? 'gallery' : 'logo list'} has no image it can show.`,
        fix: 'Add image blocks with media URLs (listMedia / get_media), or remove the section.',
      }
    case 'announcement-bar':
      return { message: 'The announcement bar has no text.', fix: 'Write its message, or remove the section.' }
    default:
      return { message: `The ${section.type} section shows nothing.`, fix: 'Fill in its content, or remove it.' }
  }
}

const SHOWS_NOTHING_BY_DESIGN = new Set(['spacer'])

function showsSomething(wrapper: El | undefined): boolean {
  if (wrapper === undefined) return false
  if (wrapper.ownText.trim() !== '') return true
  for (const el of elementsOf(wrapper))
    if (el.ownText.trim() !== '' || el.tag === 'img' || el.tag === 'input') return true
  return false
}

export function emptySectionFindings(
  doc: ThemeDocument,
  catalogue: CatalogueFacts,
  pages: readonly RenderedPage[],
): Found[] {
  const out: Found[] = []
  const byPlace = new Map(pages.map((p) => [p.place as string, p]))
  for (const layout of layoutsOf(doc)) {
    const page = byPlace.get(layout.place)
    if (!page) continue
    const wrappers = sectionWrappers(page.root)
    for (const section of layout.sections) {
      if (SHOWS_NOTHING_BY_DESIGN.has(section.type) || showsSomething(wrappers.get(section.id))) continue
      const reason = why(section, catalogue, layout.place === 'product')
      out.push({
        rule: 'empty-section',
        severity: RULES['empty-section'].severity,
        template: layout.place,
        sectionId: section.id,
        message: reason.message,
        fix: reason.fix,
      })
    }
  }
  return out
}

export function sectionCountFindings(doc: ThemeDocument): Found[] {
  return layoutsOf(doc)
    .filter((layout) => layout.sections.length > SECTIONS_PER_PAGE_LIMIT)
    .map((layout) => ({
      rule: 'section-count' as const,
      severity: RULES['section-count'].severity,
      template: layout.place,
      message: `${layout.label} has ${layout.sections.length} sections; more than ${SECTIONS_PER_PAGE_LIMIT} make a page long and heavy.`,
      fix: 'Merge or remove sections, or move some to a custom page.',
    }))
}
