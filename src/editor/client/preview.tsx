// The storefront preview: the service's own renderer in a same-origin iframe. Its pages run no
// script (their CSP forbids it), so the editor listens for clicks on them from here and marks
// the selected section with an outline.
//
// Each device lays the page out at its own width in CSS pixels (Desktop 1,280, Tablet 768,
// Mobile 390), so the storefront's media queries pick that device's layout; a frame wider than
// the pane is scaled down to fit it whole (a CSS transform), never clipped or scrolled sideways.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { hasUnsaved } from './unsaved.ts'

const WIDTHS = { desktop: 1280, tablet: 768, mobile: 390 } as const
type Width = keyof typeof WIDTHS

/** The stage's inner size, followed as the window or the panes change. */
function useSize(ref: { current: HTMLElement | null }): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 })
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const measure = () => {
      const style = getComputedStyle(el)
      const padX = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight)
      const padY = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom)
      setSize({ width: Math.max(0, el.clientWidth - padX), height: Math.max(0, el.clientHeight - padY) })
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return size
}

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
    // A field with typed text keeps the focus (it would save on losing it) until the merchant has
    // answered whether to save it; the click below then asks.
    doc.addEventListener(
      'mousedown',
      (event) => {
        if (hasUnsaved()) event.preventDefault()
      },
      true,
    )
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

  const stage = useRef<HTMLDivElement>(null)
  const room = useSize(stage)
  const px = WIDTHS[width]
  // Scaled down when the pane is narrower than the device, never up; the frame is made taller by
  // the same factor so that, scaled, it still fills the pane's height.
  const scale = room.width > 0 ? Math.min(1, room.width / px) : 1
  const height = Math.max(480, room.height) / scale
  return (
    <section class="preview" aria-label="Preview">
      {/* biome-ignore lint/a11y/useSemanticElements: a toolbar of toggle buttons, not a form's fieldset */}
      <div class="toolbar" role="group" aria-label="Preview width">
        {(Object.keys(WIDTHS) as Width[]).map((w) => (
          <button
            key={w}
            type="button"
            aria-pressed={w === width}
            title={`${WIDTHS[w]} pixels wide`}
            onClick={() => setWidth(w)}
          >
            {w[0]!.toUpperCase() + w.slice(1)}
          </button>
        ))}
      </div>
      <div class="stage" ref={stage}>
        {/* The box takes the scaled size, so the pane lays out what is seen. */}
        <div class="device" style={{ width: `${px * scale}px`, height: `${height * scale}px` }}>
          <iframe
            ref={frame}
            class={`frame ${width}`}
            title="Storefront preview"
            src={props.src}
            onLoad={onLoad}
            data-width={px}
            style={{ width: `${px}px`, height: `${height}px`, transform: `scale(${scale})` }}
          />
        </div>
      </div>
      <p class="help scale-note" aria-live="polite">
        {width[0]!.toUpperCase() + width.slice(1)}: {px} pixels wide
        {scale < 1 ? `, shown at ${Math.round(scale * 100)}%` : ''}
      </p>
    </section>
  )
}
