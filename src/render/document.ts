// Reads a stored theme document defensively. Validation runs when a theme is written, but
// the renderer must not trust that: a corrupted or legacy document may have any shape. Every
// value is read with a type check and falls back to the documented default, so rendering
// never throws on data, and nothing unexpected (unknown keys, wrong types) reaches a page.
import {
  COLOR_PATTERN,
  FONTS,
  LIMITS,
  TEXT_LIMITS,
  THEME_PRESETS,
  type Font,
  type ThemePreset,
} from '../theme/constants.ts'
import { DEFAULT_TOKENS as NEUTRAL } from '../theme/default-theme.ts'
import { isSectionType, type SectionType } from '../theme/sections.ts'

export type Obj = Readonly<Record<string, unknown>>

export const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
export const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : [])
/** A string field, or undefined (plain text is escaped by the html tag, never trusted). */
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined)
export const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback)
export const int = (v: unknown, min: number, max: number, fallback: number): number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fallback
export const oneOf = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(v as T) ? (v as T) : fallback

export type Tokens = { preset: ThemePreset; primaryColor: string; secondaryColor: string; font: Font; logo: unknown }
export type NavLink = { label: string; href: unknown; children: { label: string; href: unknown }[] }
export type SectionView = {
  id: string
  type: SectionType
  settings: Obj
  blocks: { id: string; type: string; settings: Obj }[]
}
export type PageView = { id: string; slug: string; title: string; status: 'draft' | 'published'; layout: SectionView[] }
export type DocumentView = {
  tokens: Tokens
  navigation: NavLink[]
  templates: { home: SectionView[]; product: SectionView[]; collection: SectionView[]; blogPost: SectionView[] }
  pages: PageView[]
  /** Sections dropped because their type is unknown (reported, never rendered). */
  unknownSections: string[]
}

const DEFAULT_TOKENS: Tokens = {
  preset: NEUTRAL.theme,
  primaryColor: NEUTRAL.primaryColor,
  secondaryColor: NEUTRAL.secondaryColor,
  font: NEUTRAL.font,
  logo: NEUTRAL.logo,
}

const color = (v: unknown, fallback: string): string => (typeof v === 'string' && COLOR_PATTERN.test(v) ? v : fallback)

// What validation lets in is all a page ever shows: a longer list in a corrupt or legacy document
// is cut at the same limits.
function readSections(v: unknown, unknown: string[]): SectionView[] {
  const out: SectionView[] = []
  for (const raw of arr(v).slice(0, LIMITS.sectionsPerLayout)) {
    const s = obj(raw)
    const id = typeof s.id === 'string' ? s.id : ''
    if (!isSectionType(s.type)) {
      unknown.push(typeof s.type === 'string' ? s.type.slice(0, 40) : typeof s.type)
      continue
    }
    const blocks = arr(s.blocks)
      .slice(0, LIMITS.blocksPerSection)
      .map((b) => {
        const block = obj(b)
        return {
          id: typeof block.id === 'string' ? block.id : '',
          type: typeof block.type === 'string' ? block.type : '',
          settings: obj(block.settings),
        }
      })
    out.push({ id, type: s.type, settings: obj(s.settings), blocks })
  }
  return out
}

function readNavigation(v: unknown): NavLink[] {
  return arr(v)
    .slice(0, TEXT_LIMITS.navigationEntries)
    .flatMap((raw) => {
      const entry = obj(raw)
      const label = text(entry.label)
      if (label === undefined) return []
      const children = arr(entry.children)
        .slice(0, TEXT_LIMITS.navigationChildren)
        .flatMap((c) => {
          const child = obj(c)
          const childLabel = text(child.label)
          return childLabel === undefined ? [] : [{ label: childLabel, href: child.href }]
        })
      return [{ label, href: entry.href, children }]
    })
}

export function readDocument(document: unknown): DocumentView {
  const doc = obj(document)
  const t = obj(doc.theme)
  const templates = obj(doc.templates)
  const unknownSections: string[] = []
  const pages = arr(doc.pages).flatMap((raw): PageView[] => {
    const p = obj(raw)
    const slug = typeof p.slug === 'string' ? p.slug : ''
    if (slug === '') return []
    return [
      {
        id: typeof p.id === 'string' ? p.id : slug,
        slug,
        title: text(p.title) ?? slug,
        status: p.status === 'published' ? 'published' : 'draft',
        layout: readSections(p.layout, unknownSections),
      },
    ]
  })
  return {
    tokens: {
      preset: oneOf(t.theme, THEME_PRESETS, DEFAULT_TOKENS.preset),
      primaryColor: color(t.primaryColor, DEFAULT_TOKENS.primaryColor),
      secondaryColor: color(t.secondaryColor, DEFAULT_TOKENS.secondaryColor),
      font: oneOf(t.font, FONTS, DEFAULT_TOKENS.font),
      logo: t.logo ?? null,
    },
    navigation: readNavigation(doc.navigation),
    templates: {
      home: readSections(templates.home, unknownSections),
      product: readSections(templates.product, unknownSections),
      collection: readSections(templates.collection, unknownSections),
      blogPost: readSections(templates.blogPost, unknownSections),
    },
    pages,
    unknownSections,
  }
}
