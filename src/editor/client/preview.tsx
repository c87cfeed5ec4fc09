// The storefront preview: the service's own renderer in a same-origin iframe. Its pages run no
// script (their CSP forbids it), so the editor listens for clicks on them from here and marks
// the selected section with an outline.
import { useEffect, useRef, useState } from 'preact/hooks'

const WIDTHS = { desktop: null, tablet: 768, mobile: 390 } as const
type Width = keyof typeof WIDTHS

export function Preview(props: { src: string; selectedId: string | null; onSelect: (sectionId: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [width, setWidth] = useState<Width>('desktop')
  const selectRef = useRef(props.onSelect)
  selectRef.current = props.onSelect
  const selectedRef = useRef(props.selectedId)
  selectedRef.current = props.selectedId

  const mark = (scroll: boolean) => {
    const doc = frame.current?.contentDocument
    if (!doc) return
    for (const el of doc.querySelectorAll<HTMLElement>('[data-section-id]')) {
      const on = el.dataset.sectionId === selectedRef.current
      // Raised above its neighbours and its own content so the whole outline shows.
      el.style.outline = on ? '3px solid #2563eb' : ''
      el.style.outlineOffset = on ? '-3px' : ''
      el.style.position = on ? 'relative' : ''
      el.style.zIndex = on ? '5' : ''
      if (on && scroll) el.scrollIntoView({ block: 'nearest' })
    }
  }

  useEffect(() => mark(true), [props.selectedId])

  const onLoad = () => {
    const doc = frame.current?.contentDocument
    if (!doc) return
    doc.addEventListener(
      'click',
      (event) => {
        const target = event.target as Element | null
        const section = target?.closest<HTMLElement>('[data-section-id]')
        // In the editor a click chooses what to edit; it does not follow links or submit forms.
        event.preventDefault()
        if (section?.dataset.sectionId) selectRef.current(section.dataset.sectionId)
      },
      true,
    )
    mark(true)
  }

  const px = WIDTHS[width]
  return (
    <section class="preview" aria-label="Preview">
      {/* biome-ignore lint/a11y/useSemanticElements: a toolbar of toggle buttons, not a form's fieldset */}
      <div class="toolbar" role="group" aria-label="Preview width">
        {(Object.keys(WIDTHS) as Width[]).map((w) => (
          <button key={w} type="button" aria-pressed={w === width} onClick={() => setWidth(w)}>
            {w[0]!.toUpperCase() + w.slice(1)}
          </button>
        ))}
      </div>
      <div class="stage">
        <iframe
          ref={frame}
          class={`frame ${width}`}
          title="Storefront preview"
          src={props.src}
          onLoad={onLoad}
          data-width={px ?? 'full'}
        />
      </div>
    </section>
  )
}
