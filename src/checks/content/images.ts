// Rules `image-alt` and `catalogue-image-alt`. In the theme schema an empty alt means
// "decorative"; for images that carry meaning (image with text, gallery, logo list) that is worth
// a question, not a refusal. Hero and banner images are backgrounds under text, avatars sit beside
// the author's name, and the store logo's alt is the store name: none is asked about.
import type { ThemeDocument } from '../../theme/document.ts'
import type { Found } from '../finding.ts'
import type { CatalogueFacts } from '../input.ts'
import { blank, blocksOf, layoutsOf, settingsOf, type Settings } from '../layouts.ts'
import { RULES } from '../rules.ts'

const imageOf = (s: Settings): Settings | null =>
  s.image !== null && typeof s.image === 'object' ? (s.image as Settings) : null

export function imageAltFindings(doc: ThemeDocument, catalogue: CatalogueFacts): Found[] {
  const out: Found[] = []
  const ask = (template: Found['template'], sectionId: string, blockId: string | undefined, what: string) =>
    out.push({
      rule: 'image-alt',
      severity: RULES['image-alt'].severity,
      template,
      sectionId,
      ...(blockId !== undefined ? { blockId } : {}),
      setting: 'image.alt',
      message: `${what} has no alternative text, which marks it as decorative. Is this image decorative?`,
      fix: 'If the image shows something the shopper should know about, describe it in image.alt (one short sentence); leave it empty only for pure decoration.',
    })
  for (const layout of layoutsOf(doc))
    for (const section of layout.sections) {
      const s = settingsOf(section)
      if (section.type === 'image-with-text') {
        const image = imageOf(s)
        if (image && blank(image.alt)) ask(layout.place, section.id, undefined, 'The image beside the text')
      }
      if (section.type === 'gallery' || section.type === 'logo-list')
        for (const block of blocksOf(section)) {
          const image = imageOf(block.settings ?? {})
          // A gallery caption already says what the picture is.
          if (image && blank(image.alt) && blank(block.settings?.caption))
            ask(layout.place, section.id, block.id, section.type === 'gallery' ? 'A gallery image' : 'A logo')
        }
      if (section.type === 'featured-product' && typeof s.productId === 'string') {
        const product = catalogue.products.get(s.productId)
        if (product && product.imagesWithoutAlt > 0)
          out.push({
            rule: 'catalogue-image-alt',
            severity: RULES['catalogue-image-alt'].severity,
            template: layout.place,
            sectionId: section.id,
            setting: 'productId',
            message: `${product.imagesWithoutAlt} image(s) of “${product.title}” have no alternative text in the catalogue; the storefront names them after the product.`,
            fix: 'Describe the product’s images in the catalogue (the merchant’s platform); the theme cannot.',
            subject: product.id,
          })
      }
    }
  return out
}
