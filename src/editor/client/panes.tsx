// The settings pane: what is selected in the outline, as forms generated from the schema.
import { useState } from 'preact/hooks'
import { defaultsFor, humanize, newId } from './changes.ts'
import { SchemaForm, TextInput, type FormContext } from './schema-form.tsx'
import { sectionTitle } from './outline.tsx'
import type { Block, NavigationEntry, Page, Section, SectionTypeInfo, ThemeSchema } from './types.ts'

export type Draft = { settings: Record<string, unknown>; blocks?: Block[] | undefined; issues: Map<string, string> }

/** Saved values with the unsaved (refused) ones on top; null removes a key. */
export function merged(saved: Record<string, unknown>, draft: Record<string, unknown> | undefined): Record<string, unknown> {
  const out = { ...saved }
  for (const [k, v] of Object.entries(draft ?? {})) {
    if (v === null) delete out[k]
    else out[k] = v
  }
  return out
}

/** Every message the service gave, so one that belongs to no field is not lost. */
function IssueList(props: { issues: Map<string, string> }) {
  return (
    <ul class="issues">
      {[...props.issues].map(([path, message]) => (
        <li key={path}>{message}</li>
      ))}
    </ul>
  )
}

function DraftNotice(props: { draft: Draft | null; onDiscard: () => void }) {
  if (!props.draft) return null
  return (
    <div class="notice error" role="alert">
      <p>Not saved: the service refused this change. Fix the fields marked below, or discard it.</p>
      <IssueList issues={props.draft.issues} />
      <button type="button" onClick={props.onDiscard}>
        Discard unsaved change
      </button>
    </div>
  )
}

export function SectionPane(props: {
  section: Section
  info: SectionTypeInfo | undefined
  draft: Draft | null
  ctx: FormContext
  onSettings: (settings: Record<string, unknown>, blocks: Block[] | undefined) => void
  onDiscard: () => void
  onDuplicate: () => void
  onDelete: () => void
}) {
  const { section, info, draft, ctx } = props
  const settings = merged(section.settings, draft?.settings)
  const blocks = draft?.blocks ?? section.blocks ?? []
  const issues = draft?.issues ?? new Map<string, string>()
  const pendingSettings = draft?.settings ?? {}
  const sendSettings = (key: string, value: unknown) => props.onSettings({ ...pendingSettings, [key]: value }, draft?.blocks)
  const sendBlocks = (next: Block[]) => props.onSettings(pendingSettings, next)
  if (!info) return <p>This section's type ({section.type}) is not in the catalogue.</p>
  return (
    <div>
      <h2>{sectionTitle(section)}</h2>
      <p class="help">{info.description}</p>
      <DraftNotice draft={draft} onDiscard={props.onDiscard} />
      {issues.get('') ? <p class="error">{issues.get('')}</p> : null}
      <fieldset class="bare" disabled={ctx.disabled}>
        <legend class="visually-hidden">Settings</legend>
        <SchemaForm schema={info.settingsSchema} value={settings} prefix="settings" issues={issues} onCommit={sendSettings} ctx={ctx} />
      </fieldset>
      {info.blocks.length > 0 ? <Blocks info={info} blocks={blocks} issues={issues} ctx={ctx} onChange={sendBlocks} /> : null}
      {ctx.disabled ? null : (
        <div class="row actions">
          <button type="button" onClick={props.onDuplicate}>
            Duplicate section
          </button>
          <button type="button" class="danger" onClick={props.onDelete}>
            Delete section
          </button>
        </div>
      )}
    </div>
  )
}

function Blocks(props: { info: SectionTypeInfo; blocks: Block[]; issues: Map<string, string>; ctx: FormContext; onChange: (blocks: Block[]) => void }) {
  const { info, blocks, issues, ctx } = props
  const [adding, setAdding] = useState(info.blocks[0]?.type ?? '')
  const swap = (i: number, j: number) => props.onChange(blocks.map((b, k) => (k === i ? blocks[j]! : k === j ? blocks[i]! : b)))
  return (
    <section class="blocks" aria-labelledby="blocks-heading">
      <h3 id="blocks-heading">Blocks</h3>
      {blocks.length === 0 ? <p class="empty">No blocks yet.</p> : null}
      <ol class="plain">
        {blocks.map((block, i) => {
          const schema = info.blocks.find((b) => b.type === block.type)?.settingsSchema
          const label = `${humanize(block.type)} ${i + 1}`
          return (
            <li key={block.id}>
              <details open={[...issues.keys()].some((k) => k.startsWith(`blocks[${i}]`))}>
                <summary>{label}</summary>
                {schema ? (
                  <SchemaForm schema={schema} value={block.settings} prefix={`blocks[${i}].settings`} issues={issues} ctx={ctx} onCommit={(key, value) => props.onChange(blocks.map((b, k) => (k === i ? { ...b, settings: merged(b.settings, { [key]: value }) } : b)))} />
                ) : null}
                {ctx.disabled ? null : (
                  <div class="row">
                    <button type="button" disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move ${label} up`}>
                      Up
                    </button>
                    <button type="button" disabled={i === blocks.length - 1} onClick={() => swap(i, i + 1)} aria-label={`Move ${label} down`}>
                      Down
                    </button>
                    <button type="button" onClick={() => props.onChange([...blocks.slice(0, i + 1), { ...block, id: newId('b') }, ...blocks.slice(i + 1)])} aria-label={`Duplicate ${label}`}>
                      Duplicate
                    </button>
                    <button type="button" class="danger" onClick={() => props.onChange(blocks.filter((_, k) => k !== i))} aria-label={`Delete ${label}`}>
                      Delete
                    </button>
                  </div>
                )}
              </details>
            </li>
          )
        })}
      </ol>
      {ctx.disabled ? null : (
        <div class="row">
          <label for="add-block" class="visually-hidden">
            Block type
          </label>
          <select id="add-block" value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
            {info.blocks.map((b) => (
              <option key={b.type} value={b.type}>
                {humanize(b.type)}
              </option>
            ))}
          </select>
          <button
            type="button"
            onClick={() => {
              const schema = info.blocks.find((b) => b.type === adding)?.settingsSchema
              if (schema) props.onChange([...blocks, { id: newId('b'), type: adding, settings: defaultsFor(schema) }])
            }}
          >
            Add block
          </button>
        </div>
      )}
    </section>
  )
}

export function AddPane(props: { types: SectionTypeInfo[]; layoutFull: boolean; draft: { type: string; settings: Record<string, unknown>; issues: Map<string, string> } | null; ctx: FormContext; onPick: (type: string) => void; onDraft: (settings: Record<string, unknown>) => void; onAdd: () => void; onCancel: () => void }) {
  const { draft } = props
  if (draft) {
    const info = props.types.find((t) => t.type === draft.type)
    if (!info) return null
    return (
      <div>
        <h2>New {humanize(draft.type)} section</h2>
        <p class="help">{info.description}</p>
        {draft.issues.size > 0 ? (
          <div class="notice error" role="alert">
            <p>Not added yet: fix the fields marked below.</p>
            <IssueList issues={draft.issues} />
          </div>
        ) : null}
        <SchemaForm schema={info.settingsSchema} value={draft.settings} prefix="settings" issues={draft.issues} ctx={props.ctx} onCommit={(key, value) => props.onDraft(merged(draft.settings, { [key]: value }))} />
        <div class="row actions">
          <button type="button" class="primary" onClick={props.onAdd}>
            Add to page
          </button>
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  return (
    <div>
      <h2>Add a section</h2>
      {props.layoutFull ? <p class="notice">This layout is full; delete a section first.</p> : null}
      <ul class="catalogue">
        {props.types.map((t) => (
          <li key={t.type}>
            <button type="button" disabled={props.layoutFull} onClick={() => props.onPick(t.type)} aria-describedby={`type-${t.type}`}>
              {humanize(t.type)}
            </button>
            <p class="help" id={`type-${t.type}`}>
              {t.description}
            </p>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function TokensPane(props: { schema: ThemeSchema; tokens: Record<string, unknown>; draft: Draft | null; ctx: FormContext; onTokens: (tokens: Record<string, unknown>) => void; onDiscard: () => void }) {
  const pending = props.draft?.settings ?? {}
  return (
    <div>
      <h2>Colours, font and logo</h2>
      <DraftNotice draft={props.draft} onDiscard={props.onDiscard} />
      <SchemaForm schema={props.schema.document.properties.theme} value={merged(props.tokens, pending)} prefix="tokens" issues={props.draft?.issues ?? new Map()} ctx={props.ctx} onCommit={(key, value) => props.onTokens({ ...pending, [key]: value })} />
    </div>
  )
}

export function NavigationPane(props: { navigation: NavigationEntry[]; issues: Map<string, string>; disabled: boolean; onChange: (navigation: NavigationEntry[]) => void }) {
  const nav = props.navigation
  const set = (i: number, patch: Partial<NavigationEntry>) => props.onChange(nav.map((e, k) => (k === i ? { ...e, ...patch } : e)))
  return (
    <div>
      <h2>Navigation</h2>
      <p class="help">The storefront's main menu. Links are storefront paths such as /products, /collections/… or /pages/…, or https:// addresses.</p>
      <ol class="plain nav-list">
        {nav.map((entry, i) => (
          <li key={i}>
            <fieldset class="group" disabled={props.disabled}>
              <legend>Link {i + 1}</legend>
              {(['label', 'href'] as const).map((key) => {
                const id = `nav-${i}-${key}`
                const error = props.issues.get(`navigation[${i}].${key}`)
                return (
                  <div key={key} class={`field${error ? ' has-error' : ''}`}>
                    <label for={id}>{key === 'label' ? 'Text' : 'Address'}</label>
                    <TextInput common={{ id, disabled: props.disabled, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined }} value={entry[key]} onCommit={(raw) => set(i, { [key]: raw })} />
                    {error ? <p class="error" id={`${id}-error`}>{error}</p> : null}
                  </div>
                )
              })}
              <div class="row">
                <button type="button" disabled={i === 0} aria-label={`Move link ${i + 1} up`} onClick={() => props.onChange(nav.map((e, k) => (k === i - 1 ? nav[i]! : k === i ? nav[i - 1]! : e)))}>
                  Up
                </button>
                <button type="button" class="danger" aria-label={`Delete link ${i + 1}`} onClick={() => props.onChange(nav.filter((_, k) => k !== i))}>
                  Delete
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      {props.disabled ? null : (
        <button type="button" onClick={() => props.onChange([...nav, { label: 'New link', href: '/' }])}>
          Add link
        </button>
      )}
    </div>
  )
}

export function PagesPane(props: { pages: Page[]; issues: Map<string, string>; disabled: boolean; onCreate: (title: string, slug: string) => void; onUpdate: (pageId: string, changes: Partial<Page>) => void; onDelete: (pageId: string) => void; onOpen: (pageId: string) => void }) {
  const [title, setTitle] = useState('')
  const [slug, setSlug] = useState('')
  const err = (key: string) => props.issues.get(key)
  return (
    <div>
      <h2>Custom pages</h2>
      {props.pages.length === 0 ? <p class="empty">No custom pages yet.</p> : null}
      <ul class="plain">
        {props.pages.map((page) => (
          <li key={page.id}>
            <fieldset class="group" disabled={props.disabled}>
              <legend>{page.title}</legend>
              <div class="field">
                <label for={`page-${page.id}-title`}>Title</label>
                <TextInput common={{ id: `page-${page.id}-title`, disabled: props.disabled }} value={page.title} onCommit={(raw) => props.onUpdate(page.id, { title: raw })} />
              </div>
              <div class="field">
                <label for={`page-${page.id}-slug`}>Address: /pages/…</label>
                <TextInput common={{ id: `page-${page.id}-slug`, disabled: props.disabled }} value={page.slug} onCommit={(raw) => props.onUpdate(page.id, { slug: raw })} />
              </div>
              <div class="field">
                <label for={`page-${page.id}-status`}>Status</label>
                <select id={`page-${page.id}-status`} value={page.status} onChange={(e) => props.onUpdate(page.id, { status: e.currentTarget.value as Page['status'] })}>
                  <option value="draft">Draft (previews only)</option>
                  <option value="published">Published (live once the theme is published)</option>
                </select>
              </div>
              <div class="row">
                <button type="button" onClick={() => props.onOpen(page.id)}>
                  Edit sections
                </button>
                <button type="button" class="danger" onClick={() => props.onDelete(page.id)}>
                  Delete page
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
      {props.disabled ? null : (
        <form
          class="group"
          onSubmit={(e) => {
            e.preventDefault()
            props.onCreate(title, slug)
          }}
        >
          <h3>New page</h3>
          <div class={`field${err('title') ? ' has-error' : ''}`}>
            <label for="new-page-title">Title</label>
            <input id="new-page-title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} aria-invalid={err('title') ? true : undefined} />
            {err('title') ? <p class="error">{err('title')}</p> : null}
          </div>
          <div class={`field${err('slug') ? ' has-error' : ''}`}>
            <label for="new-page-slug">Address: /pages/…</label>
            <input id="new-page-slug" value={slug} placeholder="about-us" onInput={(e) => setSlug(e.currentTarget.value)} aria-invalid={err('slug') ? true : undefined} />
            {err('slug') ? <p class="error">{err('slug')}</p> : null}
          </div>
          <button type="submit">Create page</button>
        </form>
      )}
    </div>
  )
}
