// Rules `broken-link`, `unavailable-link`, `empty-link` and `button-label`: every link a theme
// carries (menu entries, buttons, announcement and image links, links in rich text) leads to
// something that exists and says what it is. Where a path leads is the storefront's own route
// table (src/render/routes.ts), so a route the storefront gains is a route the checks accept.
import { parseRoute, SAMPLE_POST_SLUG } from '../../render/routes.ts'
import type { ThemeDocument } from '../../theme/document.ts'
import type { Found } from '../finding.ts'
import { parseHtml, elementsOf, textOf } from '../html.ts'
import type { CatalogueFacts, Place } from '../input.ts'
import { blank, blocksOf, layoutsOf, settingsOf, type Settings } from '../layouts.ts'
import { RULES } from '../rules.ts'

export type LinkRef = {
  place: Place
  sectionId?: string
  blockId?: string
  setting: string
  href: string
  /** Buttons and menu entries: their label. */
  label?: unknown
  kind: 'button' | 'menu' | 'link' | 'image' | 'rich'
  /** Image links: whether something names the link (the image's alt or a caption). */
  named?: boolean
}

const RICH_KEYS = new Set(['body', 'answer'])
const BUTTON_KEYS = ['primaryButton', 'secondaryButton', 'button']

// The links of a rich-text value, by its text: documents keep most of their text between edits.
const anchorsOf = new Map<string, { href: string; named: boolean }[]>()

function richLinks(html: unknown, at: Omit<LinkRef, 'href' | 'kind'>, out: LinkRef[]): void {
  if (typeof html !== 'string' || !html.includes('<a')) return
  let anchors = anchorsOf.get(html)
  if (!anchors) {
    anchors = [...elementsOf(parseHtml(html))]
      .filter((a) => a.tag === 'a' && a.attrs.href !== undefined)
      .map((a) => ({ href: a.attrs.href!, named: textOf(a) !== '' || !blank(a.attrs.title) }))
    if (anchorsOf.size >= 2000) anchorsOf.clear()
    anchorsOf.set(html, anchors)
  }
  for (const a of anchors) out.push({ ...at, href: a.href, kind: 'rich', named: a.named })
}

function settingLinks(s: Settings, at: Omit<LinkRef, 'href' | 'kind' | 'setting'>, out: LinkRef[]): void {
  for (const key of BUTTON_KEYS) {
    const b = s[key]
    if (b !== null && typeof b === 'object' && typeof (b as Settings).href === 'string')
      out.push({
        ...at,
        setting: `${key}`,
        href: (b as Settings).href as string,
        label: (b as Settings).label,
        kind: 'button',
      })
  }
  if (typeof s.link === 'string') out.push({ ...at, setting: 'link', href: s.link, kind: 'link' })
  for (const key of RICH_KEYS) richLinks(s[key], { ...at, setting: key }, out)
}

/** Every link of the document, where it is. */
export function documentLinks(doc: ThemeDocument): LinkRef[] {
  const out: LinkRef[] = []
  for (const [i, entry] of doc.navigation.entries()) {
    out.push({ place: 'theme', setting: `navigation[${i}]`, href: entry.href, label: entry.label, kind: 'menu' })
    for (const [j, child] of (entry.children ?? []).entries())
      out.push({
        place: 'theme',
        setting: `navigation[${i}].children[${j}]`,
        href: child.href,
        label: child.label,
        kind: 'menu',
      })
  }
  for (const layout of layoutsOf(doc))
    for (const section of layout.sections) {
      const at = { place: layout.place, sectionId: section.id }
      settingLinks(settingsOf(section), at, out)
      for (const block of blocksOf(section)) {
        const s = block.settings ?? {}
        settingLinks(s, { ...at, blockId: block.id }, out)
        if (typeof s.href === 'string') {
          const image = (s.image ?? {}) as Settings
          out.push({
            ...at,
            blockId: block.id,
            setting: 'href',
            href: s.href,
            kind: 'image',
            named: !blank(image.alt) || !blank(s.caption),
          })
        }
      }
    }
  return out
}

/** The product and collection keys (ids or handles) the links name, for the catalogue look-up. */
export function linkedRecords(links: readonly LinkRef[]): { products: Set<string>; collections: Set<string> } {
  const products = new Set<string>()
  const collections = new Set<string>()
  for (const link of links) {
    const route = routeOf(link.href)
    if (route?.kind === 'product') products.add(route.ref)
    if (route?.kind === 'collection') collections.add(route.ref)
  }
  return { products, collections }
}

/** The storefront route of a site-relative link; null for other sites, e-mail and phone links, media files. */
function routeOf(href: string): ReturnType<typeof parseRoute> | null {
  if (!href.startsWith('/') || href.startsWith('//') || href.startsWith('/media/')) return null
  return parseRoute(href.split(/[?#]/)[0] ?? '')
}

type Verdict = { rule: 'broken-link' | 'unavailable-link'; what: string; fix: string } | null

function verdict(href: string, doc: ThemeDocument, catalogue: CatalogueFacts): Verdict {
  const route = routeOf(href)
  if (route === null) return null
  switch (route.kind) {
    case 'product': {
      const p = catalogue.products.get(route.ref) ?? catalogue.productsByHandle.get(route.ref)
      if (!p)
        return {
          rule: 'broken-link',
          what: `no product ${route.ref} in the catalogue`,
          fix: 'Link a product from listProducts / get_products (by id), or remove the link.',
        }
      if (!p.visible)
        return {
          rule: 'unavailable-link',
          what: `the product “${p.title}” is ${p.status}, not on sale`,
          fix: 'Link a product on sale, or make this one active in the catalogue.',
        }
      return null
    }
    case 'collection':
      return catalogue.collections.has(route.ref) || catalogue.collectionsByHandle.has(route.ref)
        ? null
        : {
            rule: 'broken-link',
            what: `no collection ${route.ref} in the catalogue`,
            fix: 'Link a collection from listCollections / get_collections (by id), or remove the link.',
          }
    case 'page': {
      const page = doc.pages.find((p) => p.slug === route.slug)
      if (!page)
        return {
          rule: 'broken-link',
          what: `the theme has no page ${route.slug}`,
          fix: `Create the page (createPage with slug ${route.slug}) or link one of: ${doc.pages.map((p) => p.slug).join(', ') || 'no pages yet'}.`,
        }
      if (page.status !== 'published')
        return {
          rule: 'unavailable-link',
          what: `the page ${route.slug} is a draft (only previews show it)`,
          fix: `Publish the page (updatePage status: published) or remove the link.`,
        }
      return null
    }
    case 'blog':
      return route.slug === SAMPLE_POST_SLUG
        ? null
        : { rule: 'broken-link', what: `there is no blog post ${route.slug}`, fix: 'Remove the link.' }
    case 'not-found':
      return {
        rule: 'broken-link',
        what: 'the storefront has no such page',
        fix: 'Link /, /products, /collections, /products/<id>, /collections/<id> or /pages/<slug>.',
      }
    default:
      return null
  }
}

const describe = (link: LinkRef) =>
  link.kind === 'menu'
    ? 'The menu entry'
    : link.kind === 'button'
      ? 'The button'
      : link.kind === 'rich'
        ? 'A link in the text'
        : 'The link'

const where = (link: LinkRef) => ({
  template: link.place,
  ...(link.sectionId !== undefined ? { sectionId: link.sectionId } : {}),
  ...(link.blockId !== undefined ? { blockId: link.blockId } : {}),
})

export function linkFindings(doc: ThemeDocument, catalogue: CatalogueFacts, links: readonly LinkRef[]): Found[] {
  const out: Found[] = []
  for (const link of links) {
    const labelled = link.kind === 'button' || link.kind === 'menu'
    if (labelled && blank(link.label)) {
      out.push({
        rule: 'button-label',
        severity: RULES['button-label'].severity,
        ...where(link),
        setting: `${link.setting}.label`,
        message: `${describe(link)} to ${link.href} has a blank label, so the storefront does not show it.`,
        fix: 'Give it a label that says where it leads, for example “Shop the collection”.',
        subject: link.href,
      })
      continue
    }
    if ((link.kind === 'rich' || link.kind === 'image') && link.named === false) {
      out.push({
        rule: 'empty-link',
        severity: RULES['empty-link'].severity,
        ...where(link),
        setting: link.setting,
        message:
          link.kind === 'image'
            ? `The image links to ${link.href} but neither its alternative text nor a caption says where.`
            : `A link to ${link.href} in the text has no words to click.`,
        fix:
          link.kind === 'image'
            ? 'Describe the image in image.alt (or add a caption); a link must be named.'
            : 'Put words inside the <a> element, for example <a href="…">Read our story</a>.',
        subject: link.href,
      })
    }
    const found = verdict(link.href, doc, catalogue)
    if (found === null) continue
    const setting = labelled ? `${link.setting}.href` : link.setting
    out.push({
      rule: found.rule,
      severity: RULES[found.rule].severity,
      ...where(link),
      setting,
      message: `${describe(link)} leads to ${link.href}, but ${found.what}.`,
      fix: found.fix,
      subject: link.href,
    })
  }
  return out
}
