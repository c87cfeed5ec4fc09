// The outline: which layout is shown, and its sections in order. Sections are reordered by
// dragging the handle or, with the handle focused, by Arrow Up / Arrow Down (sortable.tsx).
import type { ComponentChildren } from 'preact'
import { useRef } from 'preact/hooks'
import { EDITOR_PLACES, sectionLabel, templateLabel } from '../../theme/merchant-texts.ts'
import { hasUnsaved } from './unsaved.ts'
import { MoveHandle, useHandleFocus, useSortable } from './sortable.tsx'
import type { TemplateName } from '../../theme/constants.ts'
import type { Page, Section, Target } from './types.ts'

// The theme-wide panes, in the order the outline lists them.
const THEME_PANES = ['tokens', 'navigation', 'pages'] as const

export type Selection =
  | { kind: 'section'; id: string }
  | { kind: 'add'; index?: number }
  | { kind: 'tokens' }
  | { kind: 'navigation' }
  | { kind: 'pages' }
  | null

export const targetKey = (t: Target) => ('template' in t ? `template:${t.template}` : `page:${t.pageId}`)
export { templateLabel }

/** The id of a section's check badges in the outline (its button's description). */
export const badgesId = (sectionId: string) => `checks-${sectionId}`

export function sectionTitle(section: Section): string {
  const s = section.settings
  const text = [s.heading, s.text, s.title].find((v) => typeof v === 'string' && v.trim() !== '') as string | undefined
  return text ? `${sectionLabel(section.type)}: ${text}` : sectionLabel(section.type)
}

export function Outline(props: {
  templates: TemplateName[]
  pages: Page[]
  where: Target
  layout: Section[]
  selection: Selection
  readOnly: boolean
  focusHandle: string | null
  /** The theme checks' summary, shown first. */
  checks: ComponentChildren
  /** A section's check badges ("1 error") with the id badgesId(sectionId), or null for none. */
  badges: (sectionId: string) => ComponentChildren
  onWhere: (t: Target) => void
  onSelect: (s: Selection) => void
  onMove: (sectionId: string, index: number) => void
}) {
  const list = useRef<HTMLOListElement>(null)
  useSortable(list, !props.readOnly, props.onMove)
  useHandleFocus(list, props.focusHandle, [props.layout])

  const selectedId = props.selection?.kind === 'section' ? props.selection.id : null
  return (
    // With typed text unsaved, a click here keeps the field focused so the editor can ask first
    // (a list box is let open: the field saves as it loses the focus).
    <nav
      class="outline"
      aria-label="Theme outline"
      onMouseDown={(e) => {
        if (hasUnsaved() && !(e.target as Element).closest('select')) e.preventDefault()
      }}
    >
      {props.checks}
      <div class="field">
        <label for="where">Editing</label>
        <select
          id="where"
          value={targetKey(props.where)}
          onChange={(e) => {
            const [kind, id] = e.currentTarget.value.split(':') as [string, string]
            props.onWhere(kind === 'template' ? { template: id as TemplateName } : { pageId: id })
          }}
        >
          <optgroup label="Templates">
            {props.templates.map((t) => (
              <option key={t} value={`template:${t}`}>
                {templateLabel(t)}
              </option>
            ))}
          </optgroup>
          {props.pages.length > 0 ? (
            <optgroup label="Custom pages">
              {props.pages.map((p) => (
                <option key={p.id} value={`page:${p.id}`}>
                  {p.title}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </div>
      <h2 id="sections-heading">Sections</h2>
      <ol class="sections" ref={list} aria-labelledby="sections-heading">
        {props.layout.map((section, index) => {
          const badges = props.badges(section.id)
          return (
            <li
              key={section.id}
              data-sort-id={section.id}
              data-section-id={section.id}
              class={section.id === selectedId ? 'selected' : ''}
            >
              {props.readOnly ? null : (
                <MoveHandle
                  id={section.id}
                  index={index}
                  count={props.layout.length}
                  title={sectionTitle(section)}
                  onMove={props.onMove}
                />
              )}
              <button
                type="button"
                class="select"
                aria-current={section.id === selectedId ? 'true' : undefined}
                aria-describedby={badges ? badgesId(section.id) : undefined}
                onClick={() => props.onSelect({ kind: 'section', id: section.id })}
              >
                <span>{sectionTitle(section)}</span>
                {badges}
              </button>
            </li>
          )
        })}
      </ol>
      {props.layout.length === 0 ? <p class="empty">No sections yet.</p> : null}
      {props.readOnly ? null : (
        <button type="button" class="primary wide" onClick={() => props.onSelect({ kind: 'add' })}>
          Add section
        </button>
      )}
      <h2>Theme</h2>
      <ul class="plain">
        {THEME_PANES.map((kind) => (
          <li key={kind}>
            <button
              type="button"
              class="link"
              aria-current={props.selection?.kind === kind ? 'true' : undefined}
              onClick={() => props.onSelect({ kind })}
            >
              {EDITOR_PLACES[kind]}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
