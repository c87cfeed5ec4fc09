// Reordering a list, the one way the editor does it (sections in the outline, blocks in a
// section): drag the item's handle (SortableJS) or, with the handle focused, press Arrow Up /
// Arrow Down. Either way the list's owner gets (id, new index) and saves one batch; the DOM is
// left as Preact rendered it, and the saved theme re-renders the list.
import Sortable from 'sortablejs'
import { useEffect, useRef } from 'preact/hooks'

type ListRef = { readonly current: HTMLElement | null }

export type MoveHandler = (id: string, index: number) => void

/** Makes the list under `list` sortable by its `.handle` buttons; items carry `data-sort-id`. */
export function useSortable(list: ListRef, enabled: boolean, onMove: MoveHandler) {
  const moveRef = useRef(onMove)
  moveRef.current = onMove
  useEffect(() => {
    if (!list.current || !enabled) return
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
        const id = item.dataset.sortId
        if (id) moveRef.current(id, newIndex)
      },
    })
    return () => sortable.destroy()
  }, [enabled])
}

/** Focuses the handle of `id` in `list` whenever `deps` change and `id` is set (after a move re-rendered the list). */
export function useHandleFocus(list: ListRef, id: string | null, deps: unknown[]) {
  useEffect(() => {
    if (id) list.current?.querySelector<HTMLElement>(`[data-handle="${CSS.escape(id)}"]`)?.focus()
  }, [id, ...deps])
}

/** The drag handle of one item, which also moves it with Arrow Up / Arrow Down. */
export function MoveHandle(props: { id: string; index: number; count: number; title: string; onMove: MoveHandler }) {
  const { id, index, count } = props
  return (
    <button
      type="button"
      class="handle"
      data-handle={id}
      aria-label={`Move ${props.title} (position ${index + 1} of ${count}): drag, or press Arrow Up or Arrow Down`}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp' && index > 0) {
          e.preventDefault()
          props.onMove(id, index - 1)
        } else if (e.key === 'ArrowDown' && index < count - 1) {
          e.preventDefault()
          props.onMove(id, index + 1)
        }
      }}
    >
      <span aria-hidden="true">⠿</span>
    </button>
  )
}
