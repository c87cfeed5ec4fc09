// The layouts of a theme document as the checks visit them: every template and custom page with
// the place findings name it by.
import { REFERENCE_KEYS, TEMPLATE_NAMES } from '../theme/constants.ts'
import type { Section, ThemeDocument } from '../theme/document.ts'
import type { Place } from './input.ts'

export type Layout = { place: Exclude<Place, 'theme'>; sections: readonly Section[]; label: string }

export function layoutsOf(doc: ThemeDocument): Layout[] {
  return [
    ...TEMPLATE_NAMES.map((name) => ({ place: name, sections: doc.templates[name], label: `the ${name} template` })),
    ...doc.pages.map((p) => ({ place: `page:${p.id}` as const, sections: p.layout, label: `the page ${p.slug}` })),
  ]
}

export type Settings = Readonly<Record<string, unknown>>

export const settingsOf = (x: { settings?: unknown }): Settings =>
  x.settings !== null && typeof x.settings === 'object' ? (x.settings as Settings) : {}

export const blocksOf = (section: Section): readonly { id: string; type: string; settings: Settings }[] =>
  'blocks' in section && Array.isArray(section.blocks) ? (section.blocks as never) : []

export const blank = (v: unknown): boolean => typeof v !== 'string' || v.trim() === ''

/** The products and collections a section names by id, with the setting that names each. */
export function referencesOf(section: Section): { kind: 'product' | 'collection'; id: string; setting: string }[] {
  const s = settingsOf(section)
  const out: { kind: 'product' | 'collection'; id: string; setting: string }[] = []
  for (const [key, kind] of Object.entries(REFERENCE_KEYS)) {
    const value = s[key]
    if (typeof value === 'string') out.push({ kind, id: value, setting: key })
    else if (Array.isArray(value))
      value.forEach((id, i) => {
        if (typeof id === 'string') out.push({ kind, id, setting: `${key}[${i}]` })
      })
  }
  return out
}
