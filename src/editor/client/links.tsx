// Link fields: a merchant picks where a click leads (the home page, one of the theme's pages, a
// collection or a product, found by name) or types an outside address; the field says in words
// where its link leads, and flags a link to a page, product or collection that does not exist.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Pickers } from './pickers.tsx'

export type Named = { id: string; handle: string; title: string }
/** What a link can lead to; `complete` is false when the catalogue was too large to load whole. */
export type Catalogue = { products: Named[]; collections: Named[]; complete: boolean }
export type SitePage = { title: string; slug: string }

type Meaning = { text: string; missing: boolean }

const find = (list: Named[], ref: string) => list.find((x) => x.handle === ref || x.id === ref)

/** Where `href` leads, in words, and whether it leads nowhere. */
export function meaningOf(href: string, pages: SitePage[], catalogue: Catalogue | null): Meaning | null {
  const path = href.trim()
  if (path === '') return null
  if (/^https:\/\//i.test(path)) return { text: `Another website: ${path}`, missing: false }
  if (path === '/') return { text: 'Home page', missing: false }
  if (path === '/products') return { text: 'All products', missing: false }
  if (path === '/collections') return { text: 'All collections', missing: false }
  const match = /^\/(pages|products|collections)\/([^/?#]+)\/?(?:[?#].*)?$/.exec(path)
  if (!match) return { text: `A page of your store: ${path}`, missing: false }
  const [, kind, raw] = match
  const ref = decodeURIComponent(raw!)
  if (kind === 'pages') {
    const page = pages.find((p) => p.slug === ref)
    return page
      ? { text: `Page: ${page.title}`, missing: false }
      : { text: `There is no page “${ref}” in this theme: the link leads nowhere.`, missing: true }
  }
  const list = kind === 'products' ? catalogue?.products : catalogue?.collections
  const noun = kind === 'products' ? 'product' : 'collection'
  const found = list ? find(list, ref) : undefined
  if (found) return { text: `${noun === 'product' ? 'Product' : 'Collection'}: ${found.title}`, missing: false }
  if (!catalogue?.complete) return { text: `A ${noun}: ${ref}`, missing: false }
  return { text: `Your store has no ${noun} “${ref}”: the link leads nowhere.`, missing: true }
}

type Choice = { label: string; group: string; href: string }

export function LinkPicker(props: {
  id: string
  label: string
  value: string
  pages: SitePage[]
  pickers: Pickers
  disabled: boolean
  describedBy: string | undefined
  input: preact.ComponentChildren
  onPick: (href: string) => void
}) {
  const { pickers } = props
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null)
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const search = useRef<HTMLInputElement>(null)
  useEffect(() => {
    let live = true
    void pickers.catalogue().then((c) => live && setCatalogue(c))
    return () => {
      live = false
    }
  }, [])
  useEffect(() => {
    if (open) search.current?.focus()
  }, [open])
  const meaning = meaningOf(props.value, props.pages, catalogue)
  const q = query.trim().toLowerCase()
  const matches = (title: string) => q === '' || title.toLowerCase().includes(q)
  const choices: Choice[] = [
    ...(matches('Home page') ? [{ label: 'Home page', group: 'Store', href: '/' }] : []),
    ...(matches('All products') ? [{ label: 'All products', group: 'Store', href: '/products' }] : []),
    ...props.pages
      .filter((p) => matches(p.title))
      .map((p) => ({ label: p.title, group: 'Pages', href: `/pages/${encodeURIComponent(p.slug)}` })),
    ...(catalogue?.collections ?? [])
      .filter((c) => matches(c.title))
      .slice(0, 8)
      .map((c) => ({ label: c.title, group: 'Collections', href: `/collections/${encodeURIComponent(c.handle)}` })),
    ...(catalogue?.products ?? [])
      .filter((p) => q !== '' && matches(p.title))
      .slice(0, 8)
      .map((p) => ({ label: p.title, group: 'Products', href: `/products/${encodeURIComponent(p.handle)}` })),
  ]
  return (
    <div class="link-field">
      {props.input}
      {meaning ? (
        <p class={meaning.missing ? 'error' : 'help link-meaning'} id={`${props.id}-meaning`}>
          {meaning.missing ? meaning.text : `Leads to: ${meaning.text}`}
        </p>
      ) : null}
      {props.disabled ? null : (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${props.id}-choices`}
          aria-label={open ? `Close the link choices for ${props.label}` : `Choose a link for ${props.label}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Close' : 'Choose a link'}
        </button>
      )}
      {open && !props.disabled ? (
        <div class="link-choices" id={`${props.id}-choices`}>
          <label for={`${props.id}-search`}>Search pages, collections and products</label>
          <input
            id={`${props.id}-search`}
            ref={search}
            type="search"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
          <p class="help">Or type an address that starts with https:// in the box above.</p>
          {choices.length === 0 ? <p class="empty">Nothing found.</p> : null}
          <ul class="results">
            {choices.map((c) => (
              <li key={c.href}>
                <button
                  type="button"
                  onClick={() => {
                    setOpen(false)
                    setQuery('')
                    props.onPick(c.href)
                  }}
                >
                  <span class="group-name">{c.group}</span> {c.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
