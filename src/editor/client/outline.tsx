// The outline: which layout is shown, and its sections in order. Sections are reordered by
// dragging the handle (SortableJS) or, with the handle focused, by Arrow Up / Arrow Down.
import Sortable from 'sortablejs'
import { useEffect, useRef } from 'preact/hooks'
import { humanize } from './changes.ts'
import type { Page, Section, Target } from './types.ts'

export type Selection = { kind: 'section'; id: string } | { kind: 'add' } | { kind: 'tokens' } | { kind: 'navigation' } | { kind: 'pages' } | null

export const targetKey = (t: Target) => ('template' in t ? `template:${t.template}` : `page:${t.pageId}`)
const TEMPLATE_LABELS: Record<string, string> = { home: 'Home page', product: 'Product page', collection: 'Collection page', blogPost: 'Blog post' }
export const templateLabel = (name: string) => TEMPLATE_LABELS[name] ?? humanize(name)

export function sectionTitle(section: Section): string {
  const s = section.settings
  const text = [s.heading, s.text, s.title].find((v) => typeof v === 'string' && v.trim() !== '') as string | undefined
  return text ? `${humanize(section.type)}: ${text}` : humanize(section.type)
}

export function Outline(props: {
  templates: string[]
  pages: Page[]
  where: Target
  layout: Section[]
  selection: Selection
  readOnly: boolean
  focusHandle: string | null
  onWhere: (t: Target) => void
  onSelect: (s: Selection) => void
  onMove: (sectionId: string, index: number) => void
}) {
  const list = useRef<HTMLOListElement>(null)
  const moveRef = useRef(props.onMove)
  moveRef.current = props.onMove

  useEffect(() => {
    if (!list.current || props.readOnly) return
    const sortable = Sortable.create(list.current, {
      handle: '.handle',
      // Mouse and touch events rather than native drag and drop: the same on every device.
      forceFallback: true,
      animation: 120,
      onEnd(event) {
        const { item, from, oldIndex, newIndex } = event
        if (oldIndex === undefined || newIndex === undefined || oldIndex === newIndex) return
        // Put the node back where Preact left it; the saved change re-renders the list.
        from.removeChild(item)
        from.insertBefore(item, from.children[oldIndex] ?? null)
        const id = item.dataset.sectionId
        if (id) moveRef.current(id, newIndex)
      },
    })
    return () => sortable.destroy()
  }, [props.readOnly])

  useEffect(() => {
    if (props.focusHandle) list.current?.querySelector<HTMLElement>(`[data-handle="${CSS.escape(props.focusHandle)}"]`)?.focus()
  }, [props.focusHandle, props.layout])

  const selectedId = props.selection?.kind === 'section' ? props.selection.id : null
  return (
    <nav class="outline" aria-label="Theme outline">
      <div class="field">
        <label for="where">Editing</label>
        <select
          id="where"
          value={targetKey(props.where)}
          onChange={(e) => {
            const [kind, id] = e.currentTarget.value.split(':') as [string, string]
            props.onWhere(kind === 'template' ? { template: id } : { pageId: id })
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
        {props.layout.map((section, index) => (
          <li key={section.id} data-section-id={section.id} class={section.id === selectedId ? 'selected' : ''}>
            {props.readOnly ? null : (
              <button
                type="button"
                class="handle"
                data-handle={section.id}
                aria-label={`Move ${sectionTitle(section)} (position ${index + 1} of ${props.layout.length}): drag, or press Arrow Up or Arrow Down`}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowUp' && index > 0) {
                    e.preventDefault()
                    props.onMove(section.id, index - 1)
                  } else if (e.key === 'ArrowDown' && index < props.layout.length - 1) {
                    e.preventDefault()
                    props.onMove(section.id, index + 1)
                  }
                }}
              >
                <span aria-hidden="true">⠿</span>
              </button>
            )}
            <button type="button" class="select" aria-current={section.id === selectedId ? 'true' : undefined} onClick={() => props.onSelect({ kind: 'section', id: section.id })}>
              {sectionTitle(section)}
            </button>
          </li>
        ))}
      </ol>
      {props.layout.length === 0 ? <p class="empty">No sections yet.</p> : null}
      {props.readOnly ? null : (
        <button type="button" class="primary wide" onClick={() => props.onSelect({ kind: 'add' })}>
          Add section
        </button>
      )}
      <h2>Theme</h2>
      <ul class="plain">
        <li>
          <button type="button" class="link" aria-current={props.selection?.kind === 'tokens' ? 'true' : undefined} onClick={() => props.onSelect({ kind: 'tokens' })}>
            Colours, font and logo
          </button>
        </li>
        <li>
          <button type="button" class="link" aria-current={props.selection?.kind === 'navigation' ? 'true' : undefined} onClick={() => props.onSelect({ kind: 'navigation' })}>
            Navigation
          </button>
        </li>
        <li>
          <button type="button" class="link" aria-current={props.selection?.kind === 'pages' ? 'true' : undefined} onClick={() => props.onSelect({ kind: 'pages' })}>
            Custom pages
          </button>
        </li>
      </ul>
    </nav>
  )
}
