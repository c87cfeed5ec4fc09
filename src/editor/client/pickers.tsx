// Products and collections are chosen from the real catalogue (never typed as ids); images from
// the store's media library or uploaded through the media operation.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Api } from './api.ts'
import type { Catalogue } from './links.tsx'

export type MediaItem = { id: string; url: string; themeUrl: string; alt: string }

export type Pickers = {
  api: Api
  titles: Map<string, string>
  collections: { id: string; title: string }[]
  media: () => Promise<MediaItem[]>
  upload: (file: File) => Promise<MediaItem | string>
  /** Every product and collection by name and handle, for link fields (loaded once). */
  catalogue: () => Promise<Catalogue>
}

type Option = { id: string; title: string }

export function ReferenceField(props: {
  id: string
  kind: 'product' | 'collection'
  many: boolean
  value: unknown
  optional: boolean
  label: string
  describedBy: string | undefined
  disabled: boolean
  pickers: Pickers
  onCommit: (value: unknown) => void
}) {
  const { kind, many, pickers } = props
  const chosen: string[] = many
    ? Array.isArray(props.value)
      ? (props.value as string[])
      : []
    : typeof props.value === 'string'
      ? [props.value]
      : []
  const [query, setQuery] = useState('')
  const [results, setResults] = useState<Option[]>([])
  const [searching, setSearching] = useState(false)
  const seq = useRef(0)

  useEffect(() => {
    const mine = ++seq.current
    if (kind === 'collection') {
      const q = query.trim().toLowerCase()
      setResults(pickers.collections.filter((c) => c.title.toLowerCase().includes(q)).slice(0, 20))
      return
    }
    if (query.trim() === '') {
      setResults([])
      return
    }
    setSearching(true)
    const timer = setTimeout(async () => {
      const found = await pickers.api.products(query.trim())
      if (mine !== seq.current) return
      setSearching(false)
      if (!found.ok) return setResults([])
      for (const p of found.data.products) pickers.titles.set(p.id, p.title)
      setResults(found.data.products.filter((p) => p.status === 'active').map((p) => ({ id: p.id, title: p.title })))
    }, 200)
    return () => clearTimeout(timer)
  }, [query, kind])

  const set = (ids: string[]) =>
    props.onCommit(many ? (ids.length === 0 && props.optional ? null : ids) : (ids[0] ?? null))
  const title = (id: string) => pickers.titles.get(id) ?? id
  const noun = kind === 'product' ? 'product' : 'collection'

  return (
    <div class="picker">
      {chosen.length > 0 ? (
        <ul class="chosen" aria-label={`Chosen ${noun}s`}>
          {chosen.map((id, i) => (
            <li key={id}>
              <span>{title(id)}</span>
              {many && i > 0 ? (
                <button
                  type="button"
                  class="icon"
                  disabled={props.disabled}
                  aria-label={`Move ${title(id)} earlier`}
                  onClick={() => set(chosen.map((x, j) => (j === i - 1 ? id : j === i ? chosen[i - 1]! : x)))}
                >
                  ↑
                </button>
              ) : null}
              <button
                type="button"
                class="icon"
                disabled={props.disabled}
                aria-label={`Remove ${title(id)}`}
                onClick={() => set(chosen.filter((x) => x !== id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No {noun} chosen.</p>
      )}
      <input
        id={props.id}
        type="search"
        placeholder={`Search ${noun}s`}
        aria-describedby={props.describedBy}
        disabled={props.disabled}
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      <ul class="results" aria-label={`${noun} search results`} aria-busy={searching}>
        {results
          .filter((r) => !chosen.includes(r.id))
          .map((r) => (
            <li key={r.id}>
              <button type="button" disabled={props.disabled} onClick={() => set(many ? [...chosen, r.id] : [r.id])}>
                {many ? 'Add' : 'Choose'} {r.title}
              </button>
            </li>
          ))}
      </ul>
    </div>
  )
}

/** Choose from the media library or upload: the buttons, the upload's status and the library. */
function MediaChooser(props: {
  label: string
  disabled: boolean
  pickers: Pickers
  onChoose: (item: MediaItem) => void
  extra?: preact.ComponentChildren
}) {
  const [library, setLibrary] = useState<MediaItem[] | null>(null)
  const [note, setNote] = useState('')
  const choose = (item: MediaItem) => {
    setLibrary(null)
    props.onChoose(item)
  }
  // Read-only: nothing to choose or upload, so no button that looks as if it could be pressed.
  if (props.disabled) return null
  return (
    <>
      <div class="row">
        <button
          type="button"
          disabled={props.disabled}
          aria-label={`${props.label}: choose from library`}
          onClick={async () => setLibrary(library ? null : await props.pickers.media())}
        >
          {library ? 'Close library' : 'Choose from library'}
        </button>
        <label class="button">
          Upload image
          <input
            type="file"
            class="visually-hidden"
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            disabled={props.disabled}
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0]
              if (!file) return
              setNote('Uploading…')
              const uploaded = await props.pickers.upload(file)
              if (typeof uploaded === 'string') return setNote(uploaded)
              setNote('')
              choose(uploaded)
            }}
          />
        </label>
        {props.extra}
      </div>
      {note ? (
        <p class="help" role="status">
          {note}
        </p>
      ) : null}
      {library ? (
        library.length === 0 ? (
          <p class="empty">The media library is empty: upload an image.</p>
        ) : (
          <ul class="library" aria-label="Media library">
            {library.map((item) => (
              <li key={item.id}>
                <button type="button" onClick={() => choose(item)} aria-label={`Use ${item.alt || item.themeUrl}`}>
                  <img src={item.themeUrl} alt="" />
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </>
  )
}

/** The media library and upload for a field that holds an image's address alone (the logo). */
export function ImageUrlPicker(props: {
  label: string
  disabled: boolean
  pickers: Pickers
  onPick: (url: string) => void
}) {
  return (
    <div class="image-field">
      <MediaChooser
        label={props.label}
        disabled={props.disabled}
        pickers={props.pickers}
        onChoose={(item) => props.onPick(item.themeUrl)}
      />
    </div>
  )
}

export function ImageField(props: {
  id: string
  label: string
  value: { url: string; alt: string } | undefined
  optional: boolean
  disabled: boolean
  pickers: Pickers
  issues: Map<string, string>
  path: string
  onCommit: (value: unknown) => void
}) {
  const current = props.value && typeof props.value === 'object' ? props.value : undefined
  const [alt, setAlt] = useState(current?.alt ?? '')
  useEffect(() => setAlt(current?.alt ?? ''), [current?.alt])
  const urlError = props.issues.get(`${props.path}.url`)
  const altError = props.issues.get(`${props.path}.alt`)
  return (
    <div class="image-field">
      {current?.url ? <img class="thumb" src={current.url} alt="" /> : <p class="empty">No image.</p>}
      {urlError ? <p class="error">{urlError}</p> : null}
      <MediaChooser
        label={props.label}
        disabled={props.disabled}
        pickers={props.pickers}
        onChoose={(item) => props.onCommit({ url: item.themeUrl, alt: current?.alt || item.alt })}
        extra={
          current && props.optional ? (
            <button type="button" disabled={props.disabled} onClick={() => props.onCommit(null)}>
              Remove image
            </button>
          ) : null
        }
      />
      {current ? (
        <div class={`field${altError ? ' has-error' : ''}`}>
          <label for={`${props.id}-alt`}>Alternative text</label>
          <input
            id={`${props.id}-alt`}
            type="text"
            disabled={props.disabled}
            value={alt}
            aria-invalid={altError ? true : undefined}
            onInput={(e) => setAlt(e.currentTarget.value)}
            onChange={(e) => props.onCommit({ url: current.url, alt: e.currentTarget.value })}
          />
          {altError ? <p class="error">{altError}</p> : null}
        </div>
      ) : null}
    </div>
  )
}
