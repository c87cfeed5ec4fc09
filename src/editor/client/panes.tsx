// The settings pane: what is selected in the outline, as forms generated from the schema.
import type { ComponentChildren } from 'preact'
import { useRef, useState } from 'preact/hooks'
import { blockLabel, EDITOR_PLACES, sectionHelp, sectionLabel } from '../../theme/merchant-texts.ts'
import { sectionDefaults } from '../../theme/section-defaults.ts'
import { defaultsFor, newId } from './changes.ts'
import { LinkPicker } from './links.tsx'
import { SchemaForm, TextInput, type FormContext } from './schema-form.tsx'
import { sectionTitle } from './outline.tsx'
import { MoveHandle, useHandleFocus, useSortable } from './sortable.tsx'
import type { Block, JsonSchema, NavigationEntry, Page, Section, SectionTypeInfo, ThemeSchema } from './types.ts'

export type Draft = { settings: Record<string, unknown>; blocks?: Block[] | undefined; issues: Map<string, string> }

/** Saved values with the unsaved (refused) ones on top; null removes a key. */
export function merged(
  saved: Record<string, unknown>,
  draft: Record<string, unknown> | undefined,
): Record<string, unknown> {
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
  /** What the theme checks found in this section, with the fixes. */
  findings: ComponentChildren
  blockLimit: number
  onSettings: (settings: Record<string, unknown>, blocks: Block[] | undefined, label?: string) => void
  onDiscard: () => void
  onDuplicate: () => void
  onDelete: () => void
  onAddNear: (offset: 0 | 1) => void
}) {
  const { section, info, draft, ctx } = props
  const settings = merged(section.settings, draft?.settings)
  const blocks = draft?.blocks ?? section.blocks ?? []
  const issues = draft?.issues ?? new Map<string, string>()
  const pendingSettings = draft?.settings ?? {}
  const sendSettings = (key: string, value: unknown) =>
    props.onSettings({ ...pendingSettings, [key]: value }, draft?.blocks)
  const sendBlocks = (next: Block[], label?: string) => props.onSettings(pendingSettings, next, label)
  if (!info) return <p>This section's type ({section.type}) is not in the catalogue.</p>
  return (
    <div>
      <h2>{sectionTitle(section)}</h2>
      <p class="help">{sectionHelp(section.type) || info.description}</p>
      {props.findings}
      <DraftNotice draft={draft} onDiscard={props.onDiscard} />
      {issues.get('') ? <p class="error">{issues.get('')}</p> : null}
      <fieldset class="bare" disabled={ctx.disabled}>
        <legend class="visually-hidden">Settings</legend>
        <SchemaForm
          schema={info.settingsSchema}
          value={settings}
          prefix="settings"
          issues={issues}
          onCommit={sendSettings}
          ctx={{ ...ctx, scope: section.type, defaults: sectionDefaults(section.type) }}
        />
      </fieldset>
      {info.blocks.length > 0 ? (
        <Blocks info={info} blocks={blocks} limit={props.blockLimit} issues={issues} ctx={ctx} onChange={sendBlocks} />
      ) : null}
      {ctx.disabled ? null : (
        <div class="row actions">
          <button type="button" onClick={() => props.onAddNear(0)}>
            Add section above
          </button>
          <button type="button" onClick={() => props.onAddNear(1)}>
            Add section below
          </button>
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

/** The blocks of a section, handled like the sections of a layout: select, reorder by drag or
 *  keyboard (the same handle), add, duplicate, delete. Each change replaces the section's blocks
 *  in one updateSection batch (the batch schema has no block-level operations). */
function Blocks(props: {
  info: SectionTypeInfo
  blocks: Block[]
  limit: number
  issues: Map<string, string>
  ctx: FormContext
  onChange: (blocks: Block[], label?: string) => void
}) {
  const { info, blocks, issues, ctx } = props
  const [adding, setAdding] = useState(info.blocks[0]?.type ?? '')
  const [selected, setSelected] = useState<string | null>(null)
  const [focusHandle, setFocusHandle] = useState<string | null>(null)
  const list = useRef<HTMLOListElement>(null)
  const title = (block: Block, i: number) => `${blockLabel(block.type)} ${i + 1}`
  const move = (id: string, index: number) => {
    const from = blocks.findIndex((b) => b.id === id)
    if (from < 0 || index < 0 || index >= blocks.length || from === index) return
    const next = blocks.filter((b) => b.id !== id)
    next.splice(index, 0, blocks[from]!)
    setFocusHandle(id)
    props.onChange(next, 'moved a block')
  }
  useSortable(list, !ctx.disabled, move)
  useHandleFocus(list, focusHandle, [blocks])
  // A block the service found a problem in is opened, so its message shows at its field.
  const withIssue = blocks.findIndex((_, i) => [...issues.keys()].some((k) => k.startsWith(`blocks[${i}]`)))
  const openId =
    selected && blocks.some((b) => b.id === selected) ? selected : withIssue >= 0 ? blocks[withIssue]!.id : null
  const openIndex = blocks.findIndex((b) => b.id === openId)
  const open = openIndex >= 0 ? blocks[openIndex]! : null
  const schema = open ? info.blocks.find((b) => b.type === open.type)?.settingsSchema : undefined
  const full = blocks.length >= props.limit
  return (
    <section class="blocks" aria-labelledby="blocks-heading">
      <h3 id="blocks-heading">Blocks</h3>
      {blocks.length === 0 ? <p class="empty">No blocks yet.</p> : null}
      <ol class="sortable" ref={list} aria-labelledby="blocks-heading">
        {blocks.map((block, i) => (
          <li key={block.id} data-sort-id={block.id} class={block.id === openId ? 'selected' : ''}>
            {ctx.disabled ? null : (
              <MoveHandle id={block.id} index={i} count={blocks.length} title={title(block, i)} onMove={move} />
            )}
            <button
              type="button"
              class="select"
              aria-expanded={block.id === openId}
              aria-controls={block.id === openId ? 'block-settings' : undefined}
              onClick={() => setSelected(block.id === openId ? '' : block.id)}
            >
              {title(block, i)}
              {blockSummary(block) ? <span class="summary">{blockSummary(block)}</span> : null}
            </button>
          </li>
        ))}
      </ol>
      {open ? (
        // biome-ignore lint/a11y/useSemanticElements: a fieldset's legend and box styles fight the pane's layout; a named group says the same
        <div class="block-settings" id="block-settings" role="group" aria-labelledby="block-settings-title">
          <h4 id="block-settings-title">{title(open, openIndex)} settings</h4>
          {schema ? (
            <SchemaForm
              schema={schema}
              value={open.settings}
              prefix={`blocks[${openIndex}].settings`}
              issues={issues}
              ctx={{ ...ctx, scope: `${info.type}.${open.type}` }}
              onCommit={(key, value) =>
                props.onChange(
                  blocks.map((b, k) =>
                    k === openIndex ? { ...b, settings: merged(b.settings, { [key]: value }) } : b,
                  ),
                )
              }
            />
          ) : (
            <p class="help">This block's type ({open.type}) is not in the catalogue.</p>
          )}
          {ctx.disabled ? null : (
            <div class="row">
              <button
                type="button"
                disabled={full}
                aria-label={`Duplicate ${title(open, openIndex)}`}
                onClick={() => {
                  const copy = { ...open, id: newId('b') }
                  setSelected(copy.id)
                  props.onChange(
                    [...blocks.slice(0, openIndex + 1), copy, ...blocks.slice(openIndex + 1)],
                    'duplicated a block',
                  )
                }}
              >
                Duplicate
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Delete ${title(open, openIndex)}`}
                onClick={() => {
                  setSelected(null)
                  props.onChange(
                    blocks.filter((_, k) => k !== openIndex),
                    'deleted a block',
                  )
                }}
              >
                Delete
              </button>
            </div>
          )}
        </div>
      ) : null}
      {ctx.disabled ? null : (
        <div class="row add-block">
          <label for="add-block" class="visually-hidden">
            Block type
          </label>
          <select id="add-block" value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
            {info.blocks.map((b) => (
              <option key={b.type} value={b.type}>
                {blockLabel(b.type)}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={full}
            onClick={() => {
              const schema = info.blocks.find((b) => b.type === adding)?.settingsSchema
              if (!schema) return
              const block = { id: newId('b'), type: adding, settings: defaultsFor(schema, ctx.samples) }
              setSelected(block.id)
              props.onChange([...blocks, block], 'added a block')
            }}
          >
            Add block
          </button>
          {full ? <p class="help">A section holds at most {props.limit} blocks.</p> : null}
        </div>
      )}
    </section>
  )
}

/** The first words of a block's text, so blocks of one type can be told apart in the list. */
function blockSummary(block: Block): string {
  const s = block.settings
  const preferred = ['question', 'heading', 'title', 'label', 'text', 'quote', 'name'].map((k) => s[k])
  const text = [...preferred, ...Object.values(s)].find(
    (v) => typeof v === 'string' && v.trim() !== '' && !v.startsWith('/') && !v.startsWith('#') && !/^https?:/.test(v),
  ) as string | undefined
  if (!text) return ''
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return plain.length > 40 ? `${plain.slice(0, 39)}…` : plain
}

/** Where a new section goes and which: picking a type adds it there at once, with its defaults. */
export function AddPane(props: {
  types: SectionTypeInfo[]
  layout: Section[]
  index: number
  layoutFull: boolean
  busy: boolean
  error: string | null
  onIndex: (index: number) => void
  onPick: (type: string) => void
}) {
  const { layout } = props
  const positions = [
    { index: 0, label: layout[0] ? `At the top, above ${sectionTitle(layout[0])}` : 'On the empty page' },
    ...layout.map((section, i) => ({
      index: i + 1,
      label: layout[i + 1]
        ? `Between ${sectionTitle(section)} and ${sectionTitle(layout[i + 1]!)}`
        : `At the bottom, below ${sectionTitle(section)}`,
    })),
  ]
  return (
    <div>
      <h2>Add a section</h2>
      {props.layoutFull ? <p class="notice">This page is full; delete a section first.</p> : null}
      <div class="field">
        <label for="add-where">Where</label>
        <select
          id="add-where"
          value={String(Math.min(props.index, layout.length))}
          onChange={(e) => props.onIndex(Number(e.currentTarget.value))}
        >
          {positions.map((p) => (
            <option key={p.index} value={String(p.index)}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      <p class="help">Choose a section: it appears on the page right away, ready to edit.</p>
      <ul class="catalogue">
        {props.types.map((t) => (
          <li key={t.type}>
            <button
              type="button"
              disabled={props.layoutFull || props.busy}
              onClick={() => props.onPick(t.type)}
              aria-describedby={`type-${t.type}`}
            >
              {sectionLabel(t.type)}
            </button>
            <p class="help" id={`type-${t.type}`}>
              {sectionHelp(t.type) || t.description}
            </p>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function TokensPane(props: {
  schema: ThemeSchema
  tokens: Record<string, unknown>
  draft: Draft | null
  ctx: FormContext
  /** What the theme checks found that these settings decide (text colours on every page). */
  findings: ComponentChildren
  onTokens: (tokens: Record<string, unknown>) => void
  onDiscard: () => void
}) {
  const pending = props.draft?.settings ?? {}
  return (
    <div>
      <h2>{EDITOR_PLACES.tokens}</h2>
      {props.findings}
      <DraftNotice draft={props.draft} onDiscard={props.onDiscard} />
      <SchemaForm
        schema={props.schema.document.properties.theme}
        value={merged(props.tokens, pending)}
        prefix="tokens"
        issues={props.draft?.issues ?? new Map()}
        ctx={props.ctx}
        onCommit={(key, value) => props.onTokens({ ...pending, [key]: value })}
      />
    </div>
  )
}

export type NavigationLimits = { entries: number; children: number }

/** The caps the navigation schema sets (maxItems of the menu and of an entry's children). */
export function navigationLimits(schema: JsonSchema): NavigationLimits {
  return { entries: schema.maxItems ?? 20, children: schema.items?.properties?.children?.maxItems ?? 20 }
}

const swapped = <T,>(list: T[], i: number, j: number) =>
  list.map((x, k) => (k === i ? list[j]! : k === j ? list[i]! : x))

/** Text and address of one menu link, each with the service's message at its path. */
function LinkFields(props: {
  idBase: string
  path: string
  entry: { label: string; href: string }
  issues: Map<string, string>
  disabled: boolean
  ctx: FormContext
  onChange: (patch: { label?: string; href?: string }) => void
}) {
  return (
    <>
      {(['label', 'href'] as const).map((key) => {
        const id = `${props.idBase}-${key}`
        const error = props.issues.get(`${props.path}.${key}`)
        const input = (
          <TextInput
            common={{
              id,
              disabled: props.disabled,
              'aria-invalid': error ? true : undefined,
              'aria-describedby':
                [error ? `${id}-error` : '', key === 'href' && props.entry.href ? `${id}-meaning` : '']
                  .filter(Boolean)
                  .join(' ') || undefined,
            }}
            value={props.entry[key]}
            onCommit={(raw) => props.onChange({ [key]: raw })}
          />
        )
        return (
          <div key={key} class={`field${error ? ' has-error' : ''}`}>
            <label for={id}>{key === 'label' ? 'Text' : 'Address'}</label>
            {key === 'href' ? (
              <LinkPicker
                id={id}
                label={`${props.entry.label || 'Link'}`}
                value={props.entry.href}
                pages={props.ctx.pages ?? []}
                pickers={props.ctx.pickers}
                disabled={props.disabled}
                describedBy={undefined}
                input={input}
                onPick={(href) => props.onChange({ href })}
              />
            ) : (
              input
            )}
            {error ? (
              <p class="error" id={`${id}-error`}>
                {error}
              </p>
            ) : null}
          </div>
        )
      })}
    </>
  )
}

/** Move up, move down and delete for an item of a list of `count`. */
function ListActions(props: {
  name: string
  index: number
  count: number
  onMove: (to: number) => void
  onDelete: () => void
}) {
  const { name, index, count } = props
  return (
    <div class="row">
      <button
        type="button"
        disabled={index === 0}
        aria-label={`Move ${name} up`}
        onClick={() => props.onMove(index - 1)}
      >
        Up
      </button>
      <button
        type="button"
        disabled={index === count - 1}
        aria-label={`Move ${name} down`}
        onClick={() => props.onMove(index + 1)}
      >
        Down
      </button>
      <button type="button" class="danger" aria-label={`Delete ${name}`} onClick={props.onDelete}>
        Delete
      </button>
    </div>
  )
}

/** The menu: top-level links and, under each, its sub-links (one level, as the schema allows). */
export function NavigationPane(props: {
  navigation: NavigationEntry[]
  limits: NavigationLimits
  draft: Draft | null
  disabled: boolean
  ctx: FormContext
  /** What the theme checks found in the menu (links to nothing, entries without a name). */
  findings: ComponentChildren
  onChange: (navigation: NavigationEntry[]) => void
  onDiscard: () => void
}) {
  const nav = props.navigation
  const issues = props.draft?.issues ?? new Map<string, string>()
  const { limits, disabled } = props
  const set = (i: number, patch: Partial<NavigationEntry>) =>
    props.onChange(nav.map((e, k) => (k === i ? { ...e, ...patch } : e)))
  // An entry without sub-links carries no children key at all.
  const setChildren = (i: number, children: { label: string; href: string }[]) =>
    props.onChange(
      nav.map((e, k) => {
        if (k !== i) return e
        const { children: _, ...rest } = e
        return children.length > 0 ? { ...rest, children } : rest
      }),
    )
  const listError = issues.get('navigation')
  return (
    <div>
      <h2>{EDITOR_PLACES.navigation}</h2>
      {props.findings}
      <p class="help">
        The storefront’s main menu: up to {limits.entries} links, each with up to {limits.children} sub-links. Choose
        where each leads (“Choose a link”), or type a path of your store or an https:// address.
      </p>
      <DraftNotice draft={props.draft} onDiscard={props.onDiscard} />
      {listError ? <p class="error">{listError}</p> : null}
      <ol class="plain nav-list">
        {nav.map((entry, i) => {
          const children = entry.children ?? []
          const name = `link ${i + 1}`
          const childError = issues.get(`navigation[${i}].children`)
          return (
            <li key={i}>
              <fieldset class="group" disabled={disabled}>
                <legend>Link {i + 1}</legend>
                <LinkFields
                  idBase={`nav-${i}`}
                  path={`navigation[${i}]`}
                  entry={entry}
                  issues={issues}
                  disabled={disabled}
                  ctx={props.ctx}
                  onChange={(patch) => set(i, patch)}
                />
                {disabled ? null : (
                  <ListActions
                    name={name}
                    index={i}
                    count={nav.length}
                    onMove={(to) => props.onChange(swapped(nav, i, to))}
                    onDelete={() => props.onChange(nav.filter((_, k) => k !== i))}
                  />
                )}
                <div class="sub-links">
                  <h3 id={`nav-${i}-children`}>Sub-links of {entry.label || name}</h3>
                  {childError ? <p class="error">{childError}</p> : null}
                  {children.length === 0 ? <p class="empty">No sub-links.</p> : null}
                  <ol class="plain" aria-labelledby={`nav-${i}-children`}>
                    {children.map((child, j) => (
                      <li key={j}>
                        <fieldset class="group child">
                          <legend>
                            Sub-link {i + 1}.{j + 1}
                          </legend>
                          <LinkFields
                            idBase={`nav-${i}-${j}`}
                            path={`navigation[${i}].children[${j}]`}
                            entry={child}
                            issues={issues}
                            disabled={disabled}
                            ctx={props.ctx}
                            onChange={(patch) =>
                              setChildren(
                                i,
                                children.map((c, k) => (k === j ? { ...c, ...patch } : c)),
                              )
                            }
                          />
                          {disabled ? null : (
                            <ListActions
                              name={`sub-link ${i + 1}.${j + 1}`}
                              index={j}
                              count={children.length}
                              onMove={(to) => setChildren(i, swapped(children, j, to))}
                              onDelete={() =>
                                setChildren(
                                  i,
                                  children.filter((_, k) => k !== j),
                                )
                              }
                            />
                          )}
                        </fieldset>
                      </li>
                    ))}
                  </ol>
                  {disabled ? null : (
                    <button
                      type="button"
                      disabled={children.length >= limits.children}
                      onClick={() => setChildren(i, [...children, { label: 'New sub-link', href: '/' }])}
                    >
                      Add sub-link to {name}
                    </button>
                  )}
                </div>
              </fieldset>
            </li>
          )
        })}
      </ol>
      {disabled ? null : (
        <button
          type="button"
          disabled={nav.length >= limits.entries}
          onClick={() => props.onChange([...nav, { label: 'New link', href: '/' }])}
        >
          Add link
        </button>
      )}
    </div>
  )
}

export function PagesPane(props: {
  pages: Page[]
  issues: Map<string, string>
  disabled: boolean
  onCreate: (title: string, slug: string) => void
  onUpdate: (pageId: string, changes: Partial<Page>) => void
  onDelete: (pageId: string) => void
  onOpen: (pageId: string) => void
}) {
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
                <TextInput
                  common={{ id: `page-${page.id}-title`, disabled: props.disabled }}
                  value={page.title}
                  onCommit={(raw) => props.onUpdate(page.id, { title: raw })}
                />
              </div>
              <div class="field">
                <label for={`page-${page.id}-slug`}>Address: /pages/…</label>
                <TextInput
                  common={{ id: `page-${page.id}-slug`, disabled: props.disabled }}
                  value={page.slug}
                  onCommit={(raw) => props.onUpdate(page.id, { slug: raw })}
                />
              </div>
              <div class="field">
                <label for={`page-${page.id}-status`}>Status</label>
                <select
                  id={`page-${page.id}-status`}
                  value={page.status}
                  onChange={(e) => props.onUpdate(page.id, { status: e.currentTarget.value as Page['status'] })}
                >
                  <option value="draft">Draft (previews only)</option>
                  <option value="published">Published (live once the theme is published)</option>
                </select>
              </div>
              <div class="row">
                <button type="button" onClick={() => props.onOpen(page.id)}>
                  Edit sections
                </button>
                {props.disabled ? null : (
                  <button type="button" class="danger" onClick={() => props.onDelete(page.id)}>
                    Delete page
                  </button>
                )}
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
            <input
              id="new-page-title"
              value={title}
              onInput={(e) => setTitle(e.currentTarget.value)}
              aria-invalid={err('title') ? true : undefined}
            />
            {err('title') ? <p class="error">{err('title')}</p> : null}
          </div>
          <div class={`field${err('slug') ? ' has-error' : ''}`}>
            <label for="new-page-slug">Address: /pages/…</label>
            <input
              id="new-page-slug"
              value={slug}
              placeholder="about-us"
              onInput={(e) => setSlug(e.currentTarget.value)}
              aria-invalid={err('slug') ? true : undefined}
            />
            {err('slug') ? <p class="error">{err('slug')}</p> : null}
          </div>
          <button type="submit">Create page</button>
        </form>
      )}
    </div>
  )
}
