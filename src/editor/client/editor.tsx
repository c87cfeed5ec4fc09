// The editor's state: the theme as last read from the service (and its ETag), what is selected,
// unsaved changes the service refused, the session's undo/redo stacks and a pending conflict.
// Every change goes to the service as one applyThemeBatch with If-Match.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Api, ApiError } from './api.ts'
import { sectionLabel } from '../../theme/merchant-texts.ts'
import { CheckBadges, ChecksSummary, FindingList, forMerchant, type CheckState } from './checks.tsx'
import { inverse, layoutOf, locate, newId, newSection, overwrites, relativeIssues, type Samples } from './changes.ts'
import { badgesId, Outline, targetKey, templateLabel, type Selection } from './outline.tsx'
import { AddPane, NavigationPane, navigationLimits, PagesPane, SectionPane, TokensPane, type Draft } from './panes.tsx'
import type { Catalogue, Named } from './links.tsx'
import type { MediaItem, Pickers } from './pickers.tsx'
import { Preview } from './preview.tsx'
import type { FormContext } from './schema-form.tsx'
import { discardAll, hasUnsaved, saveAll, unsavedLabels } from './unsaved.ts'
import type { Activity, Block, Operation, Target, Theme, ThemeDocument, ThemeSchema } from './types.ts'

export type Boot = { themeId: string; previewBase: string; themesUrl: string; activityUrl: string }

type Entry = { label: string; forward: Operation[]; backward: Operation[] }
type Mode = { kind: 'new' } | { kind: 'undo'; entry: Entry } | { kind: 'redo'; entry: Entry }
type Conflict = {
  label: string
  ops: Operation[]
  mode: Mode
  activity: Activity[]
  scope: string | null
  replaces: string[]
}
type Sent = { ok: true } | { ok: false; issues: Map<string, string> | null }

/** Products (up to 500) and collections for link fields; a larger catalogue is marked incomplete, so no link is flagged wrongly. */
async function loadCatalogue(api: Api): Promise<Catalogue> {
  const products: Named[] = []
  let cursor: string | undefined
  let complete = false
  for (let page = 0; page < 5; page++) {
    const found = await api.products('', cursor, 100)
    if (!found.ok) break
    products.push(...found.data.products.map((p) => ({ id: p.id, handle: p.handle, title: p.title })))
    cursor = found.pagination?.nextCursor ?? undefined
    if (!found.pagination?.hasMore || !cursor) {
      complete = true
      break
    }
  }
  const c = await api.collections()
  const collections = c.ok ? c.data.collections.map((x) => ({ id: x.id, handle: x.handle, title: x.title })) : []
  return { products, collections, complete: complete && c.ok && !c.pagination?.hasMore }
}

const editorUrlOf = (themeId: string) => `/dashboard/themes/editor?themeId=${encodeURIComponent(themeId)}`
const publishUrlOf = (themeId: string) => `/dashboard/themes/${encodeURIComponent(themeId)}/publish`

export function Editor(props: { api: Api; boot: Boot }) {
  const { api, boot } = props
  const [theme, setTheme] = useState<Theme | null>(null)
  const [schema, setSchema] = useState<ThemeSchema | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [where, setWhere] = useState<Target>({ template: 'home' })
  const [selection, setSelection] = useState<Selection>(null)
  const [drafts, setDrafts] = useState<Record<string, Draft>>({})
  const [addError, setAddError] = useState<string | null>(null)
  const [conflict, setConflict] = useState<Conflict | null>(null)
  const [status, setStatus] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [focusHandle, setFocusHandle] = useState<string | null>(null)
  const [history, setHistory] = useState<{ undo: Entry[]; redo: Entry[] }>({ undo: [], redo: [] })
  const [samples, setSamples] = useState<Samples>({ product: null, collection: null, image: null })
  const [leaving, setLeaving] = useState<{ labels: string[]; then: () => unknown } | null>(null)
  const saving = useRef(false)
  const catalogue = useRef<Promise<Catalogue> | null>(null)
  const etag = useRef('')
  const current = useRef<Theme | null>(null)
  const titles = useRef(new Map<string, string>()).current
  const [collections, setCollections] = useState<{ id: string; title: string }[]>([])
  const [checks, setChecks] = useState<CheckState | null>(null)

  const adopt = (next: Theme, tag: string | null) => {
    current.current = next
    etag.current = tag ?? `"${next.version}"`
    setTheme(next)
  }

  useEffect(() => {
    void (async () => {
      const [t, s, p, c, m] = await Promise.all([
        api.theme(boot.themeId),
        api.schema(),
        api.products('', undefined),
        api.collections(),
        api.media(),
      ])
      if (!t.ok) return setFailure(t.error.message)
      if (!s.ok) return setFailure(s.error.message)
      if (p.ok) for (const x of p.data.products) titles.set(x.id, x.title)
      if (c.ok) {
        for (const x of c.data.collections) titles.set(x.id, x.title)
        setCollections(c.data.collections)
      }
      setSamples({
        product: p.ok ? (p.data.products.find((x) => x.status === 'active')?.id ?? null) : null,
        collection: c.ok ? (c.data.collections[0]?.id ?? null) : null,
        image: m.ok && m.data.media[0] ? { url: m.data.media[0].themeUrl, alt: m.data.media[0].alt } : null,
      })
      setSchema(s.data)
      adopt(t.data, t.etag)
    })()
  }, [])

  // The theme checks of each version the editor shows, read again after every save (and after a
  // conflict brought a newer version), by version, so they judge exactly what was saved. An answer
  // for a version no longer shown is dropped.
  useEffect(() => {
    if (!theme) return
    const { id, version } = theme
    void api.checks(id, version).then((result) => {
      if (current.current?.id !== id || current.current.version !== version) return
      setChecks(
        result.ok
          ? { version, findings: result.data.findings }
          : { version, findings: [], failed: result.error.message },
      )
    })
  }, [theme?.id, theme?.version])

  // Leaving the editor (a link, a reload, closing the tab) with typed text not yet saved, or a
  // save still on its way: the browser asks first.
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (hasUnsaved() || saving.current) event.preventDefault()
    }
    addEventListener('beforeunload', ask)
    return () => removeEventListener('beforeunload', ask)
  }, [])

  const pickers: Pickers = useMemo(
    () => ({
      api,
      titles,
      collections,
      media: async () => {
        const found = await api.media()
        return found.ok ? found.data.media : []
      },
      catalogue: () => {
        catalogue.current ??= loadCatalogue(api)
        return catalogue.current
      },
      upload: async (file: File): Promise<MediaItem | string> => {
        const bytes = new Uint8Array(await file.arrayBuffer())
        let binary = ''
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
        const uploaded = await api.upload(btoa(binary), file.name.replace(/\.[^.]+$/, '').slice(0, 250))
        return uploaded.ok ? uploaded.data : uploaded.error.message
      },
    }),
    [collections],
  )

  if (failure)
    return (
      <main class="failure">
        <h1>The editor could not open this theme</h1>
        <p role="alert">{failure}</p>
        <p>
          <a href={boot.themesUrl}>Back to themes</a>
        </p>
      </main>
    )
  if (!theme || !schema)
    return (
      <p class="loading" role="status">
        Loading the editor…
      </p>
    )

  const doc = theme.document
  const readOnly = theme.status !== 'draft'
  const ctx: FormContext = { pickers, richText: schema.rules.richText, disabled: readOnly, samples, pages: doc.pages }
  const layout = layoutOf(doc, where)
  const placement = 'template' in where ? where.template : 'page'
  const selectedSection = selection?.kind === 'section' ? locate(doc, selection.id) : null
  const findings = forMerchant(checks?.findings ?? [])
  const findingsOf = (sectionId: string) => findings.filter((f) => f.sectionId === sectionId)
  const select = (s: Selection) => guard(() => (s?.kind === 'add' ? openAdd(s.index) : setSelection(s)))
  const showSection = (target: Target, sectionId: string) =>
    guard(() => {
      setWhere(target)
      setSelection({ kind: 'section', id: sectionId })
    })
  const findingList = (list: typeof findings, heading: string, showWhere = false) => (
    <FindingList
      findings={list}
      doc={doc}
      heading={heading}
      showWhere={showWhere}
      from={selection?.kind}
      onSelect={select}
      onShow={showSection}
    />
  )

  async function showConflict(
    label: string,
    ops: Operation[],
    mode: Mode,
    scope: string | null,
    base: ThemeDocument | null,
  ) {
    const [activity, fresh] = await Promise.all([api.activity(boot.themeId), api.theme(boot.themeId)])
    if (fresh.ok) adopt(fresh.data, fresh.etag)
    const replaces = base && fresh.ok ? overwrites(base, fresh.data.document, ops) : []
    setConflict({
      label,
      ops,
      mode,
      activity: activity.ok ? activity.data.activity.filter((a) => a.outcome === 'applied') : [],
      scope,
      replaces,
    })
    setStatus('This theme was changed elsewhere; your change was not saved.')
  }

  /** Sends one change as a batch against the version the editor shows. */
  async function send(
    label: string,
    ops: Operation[],
    mode: Mode = { kind: 'new' },
    scope: string | null = null,
  ): Promise<Sent> {
    const before = current.current
    if (!before) return { ok: false, issues: null }
    setBusy(true)
    saving.current = true
    setError(null)
    setStatus('Saving…')
    const backward = mode.kind === 'new' ? inverse(before.document, ops) : null
    const result = await api.batch(before.id, etag.current, ops)
    setBusy(false)
    saving.current = false
    if (result.ok) {
      adopt(result.data.theme, result.etag)
      setConflict(null)
      if (scope) setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== scope)))
      setHistory((h) => {
        if (mode.kind === 'undo') return { undo: h.undo.slice(0, -1), redo: [...h.redo, mode.entry] }
        if (mode.kind === 'redo') return { undo: [...h.undo, mode.entry], redo: h.redo.slice(0, -1) }
        return backward ? { undo: [...h.undo, { label, forward: ops, backward }], redo: [] } : h
      })
      setStatus(
        `Saved version ${result.data.theme.version}: ${mode.kind === 'undo' ? `undid ${label}` : mode.kind === 'redo' ? `redid ${label}` : label}.`,
      )
      return { ok: true }
    }
    return refused(result.error, label, ops, mode, scope, before.document)
  }

  async function refused(
    e: ApiError,
    label: string,
    ops: Operation[],
    mode: Mode,
    scope: string | null,
    base: ThemeDocument,
  ): Promise<Sent> {
    if (e.code === 'VERSION_CONFLICT') {
      await showConflict(label, ops, mode, scope, base)
      return { ok: false, issues: null }
    }
    if (e.status === 400 && e.details?.issues) {
      setStatus(`Not saved: ${e.message}`)
      return { ok: false, issues: relativeIssues(e.details.issues) }
    }
    setError(e.message)
    setStatus(`Not saved: ${e.message}`)
    return { ok: false, issues: null }
  }

  /** A change that may be refused with field issues: kept as a draft of `scope` until it saves or is discarded. */
  async function sendDraft(scope: string, label: string, ops: Operation[], draft: Omit<Draft, 'issues'>) {
    const sent = await send(label, ops, { kind: 'new' }, scope)
    if (!sent.ok && sent.issues) setDrafts((d) => ({ ...d, [scope]: { ...draft, issues: sent.issues! } }))
  }

  const discard = (scope: string) =>
    setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== scope)))

  const move = async (sectionId: string, index: number) => {
    setFocusHandle(null)
    const sent = await send('moved a section', [{ op: 'moveSection', sectionId, index }])
    if (sent.ok) setFocusHandle(sectionId)
  }

  const undo = () => {
    const entry = history.undo.at(-1)
    if (entry) void send(entry.label, entry.backward, { kind: 'undo', entry })
  }
  const redo = () => {
    const entry = history.redo.at(-1)
    if (entry) void send(entry.label, entry.forward, { kind: 'redo', entry })
  }

  const duplicate = async () => {
    const result = await api.duplicate(theme.id)
    if (result.ok) location.assign(editorUrlOf(result.data.id))
    else setError(result.error.message)
  }

  const reapply = async () => {
    if (!conflict) return
    const draft = conflict.scope ? drafts[conflict.scope] : undefined
    const sent = await send(conflict.label, conflict.ops, conflict.mode, conflict.scope)
    if (!sent.ok && sent.issues && conflict.scope && draft)
      setDrafts((d) => ({ ...d, [conflict.scope!]: { ...draft, issues: sent.issues! } }))
  }

  /** A link out of the editor that asks first about unsaved text (then follows it). */
  const leaveFor = (url: string) => (event: MouseEvent) => {
    if (!hasUnsaved()) return
    event.preventDefault()
    // "Save and continue" starts the save; the page is left once it is done.
    guard(async () => {
      while (saving.current) await new Promise((resolve) => setTimeout(resolve, 50))
      location.assign(url)
    })
  }

  /** Runs `then` (a move to another part of the theme), asking first if typed text is not saved. */
  const guard = (then: () => unknown) => {
    if (hasUnsaved()) setLeaving({ labels: unsavedLabels(), then })
    else then()
  }

  const changeWhere = (t: Target) =>
    guard(() => {
      setWhere(t)
      setSelection(null)
    })

  /** The add pane, for a place in the layout shown (below the selected section unless told). */
  const openAdd = (index?: number) => {
    const here = selectedSection && targetKey(selectedSection.target) === targetKey(where)
    const at = index ?? (here ? selectedSection.index + 1 : layout.length)
    setAddError(null)
    setSelection({ kind: 'add', index: at })
  }

  const pagePath = () => {
    if ('pageId' in where) return `/pages/${doc.pages.find((p) => p.id === where.pageId)?.slug ?? ''}`
    if (where.template === 'product') return samples.product ? `/products/${samples.product}` : '/products'
    if (where.template === 'collection')
      return samples.collection ? `/collections/${samples.collection}` : '/collections'
    if (where.template === 'blogPost') return '/blog/sample'
    return ''
  }
  const previewSrc = `${boot.previewBase}${pagePath()}?v=${theme.version}`

  let pane: preact.ComponentChildren = (
    <p class="help">Select a section in the outline or in the preview to edit its settings.</p>
  )
  if (selectedSection) {
    const s = selectedSection.section
    const scope = `section:${s.id}`
    pane = (
      <SectionPane
        key={s.id}
        section={s}
        info={schema.sections.find((t) => t.type === s.type)}
        draft={drafts[scope] ?? null}
        ctx={ctx}
        findings={findingList(findingsOf(s.id), 'What the theme checks found here')}
        onDiscard={() => discard(scope)}
        blockLimit={schema.limits.blocksPerSection}
        onSettings={(settings: Record<string, unknown>, blocks: Block[] | undefined, label?: string) => {
          const op: Operation = {
            op: 'updateSection',
            sectionId: s.id,
            ...(Object.keys(settings).length > 0 ? { settings } : {}),
            ...(blocks ? { blocks } : {}),
          }
          void sendDraft(
            scope,
            label ? `${label} in ${sectionLabel(s.type)}` : `changed ${sectionLabel(s.type)}`,
            [op],
            {
              settings,
              blocks,
            },
          )
        }}
        onDuplicate={() => {
          const copy = { ...s, id: newId(s.type) }
          void send(`duplicated ${sectionLabel(s.type)}`, [
            { op: 'createSection', target: selectedSection.target, index: selectedSection.index + 1, section: copy },
          ]).then((r) => r.ok && setSelection({ kind: 'section', id: copy.id }))
        }}
        onDelete={() => {
          void send(`deleted ${sectionLabel(s.type)}`, [{ op: 'deleteSection', sectionId: s.id }]).then(
            (r) => r.ok && setSelection(null),
          )
        }}
        onAddNear={(offset) => guard(() => openAdd(selectedSection.index + offset))}
      />
    )
  } else if (selection?.kind === 'add' && !readOnly) {
    const types = schema.sections.filter((t) => t.templates.includes(placement) && !t.requiredIn)
    const index = Math.min(selection.index ?? layout.length, layout.length)
    pane = (
      <AddPane
        types={types}
        layout={layout}
        index={index}
        layoutFull={layout.length >= schema.limits.sectionsPerLayout}
        busy={busy}
        error={addError}
        onIndex={(i) => setSelection({ kind: 'add', index: i })}
        onPick={async (type) => {
          const info = types.find((t) => t.type === type)
          if (!info) return
          setAddError(null)
          const section = newSection(info, samples)
          const sent = await send(`added ${sectionLabel(type)}`, [
            { op: 'createSection', target: where, index, section },
          ])
          if (sent.ok) setSelection({ kind: 'section', id: section.id })
          else if (sent.issues) setAddError(`Not added: ${[...sent.issues.values()].join(' ')}`)
        }}
      />
    )
  } else if (selection?.kind === 'tokens') {
    pane = (
      <TokensPane
        schema={schema}
        tokens={doc.theme}
        draft={drafts.tokens ?? null}
        ctx={ctx}
        findings={findingList(
          findings.filter((f) => f.setting?.startsWith('theme.')),
          'What the theme checks found in these settings',
          true,
        )}
        onDiscard={() => discard('tokens')}
        onTokens={(tokens) =>
          void sendDraft('tokens', 'changed the theme settings', [{ op: 'updateTokens', tokens }], { settings: tokens })
        }
      />
    )
  } else if (selection?.kind === 'navigation') {
    const draft = drafts.navigation
    pane = (
      <NavigationPane
        navigation={(draft?.settings.navigation as typeof doc.navigation | undefined) ?? doc.navigation}
        limits={navigationLimits(schema.document.properties.navigation)}
        draft={draft ?? null}
        disabled={readOnly}
        ctx={ctx}
        findings={findingList(
          findings.filter((f) => f.setting?.startsWith('navigation')),
          'What the theme checks found in the menu',
        )}
        onDiscard={() => discard('navigation')}
        onChange={(navigation) =>
          void sendDraft('navigation', 'changed the navigation', [{ op: 'setNavigation', navigation }], {
            settings: { navigation },
          })
        }
      />
    )
  } else if (selection?.kind === 'pages') {
    pane = (
      <PagesPane
        pages={doc.pages}
        issues={drafts.pages?.issues ?? new Map()}
        disabled={readOnly}
        onCreate={(title, slug) =>
          void sendDraft(
            'pages',
            `created page ${slug}`,
            [{ op: 'createPage', page: { id: newId('page'), title, slug, status: 'draft', layout: [] } }],
            { settings: {} },
          )
        }
        onUpdate={(pageId, changes) =>
          void sendDraft('pages', 'changed a page', [{ op: 'updatePage', pageId, changes }], { settings: {} })
        }
        onDelete={(pageId) => {
          if ('pageId' in where && where.pageId === pageId) setWhere({ template: 'home' })
          void send('deleted a page', [{ op: 'deletePage', pageId }])
        }}
        onOpen={(pageId) =>
          guard(() => {
            setWhere({ pageId })
            setSelection(null)
          })
        }
      />
    )
  }

  const label =
    'template' in where
      ? templateLabel(where.template)
      : (doc.pages.find((p) => p.id === where.pageId)?.title ?? 'Page')
  return (
    <div class="editor">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only keeps the focus in a field with unsaved text; the links do the work */}
      <header
        class="topbar"
        // With typed text unsaved, a click here keeps the field focused, so the link asks first.
        onMouseDown={(e) => {
          if (hasUnsaved()) e.preventDefault()
        }}
      >
        <a class="back" href={boot.themesUrl} onClick={leaveFor(boot.themesUrl)}>
          ← Themes
        </a>
        <h1>
          {theme.name} <span class={`badge ${theme.status}`}>{theme.status}</span>
        </h1>
        <div class="row">
          {readOnly ? null : (
            <>
              <button
                type="button"
                onClick={undo}
                disabled={history.undo.length === 0 || busy}
                aria-label={history.undo.length ? `Undo: ${history.undo.at(-1)!.label}` : 'Undo'}
              >
                Undo
              </button>
              <button
                type="button"
                onClick={redo}
                disabled={history.redo.length === 0 || busy}
                aria-label={history.redo.length ? `Redo: ${history.redo.at(-1)!.label}` : 'Redo'}
              >
                Redo
              </button>
            </>
          )}
          <a class="button" href={`${boot.previewBase}${pagePath()}`} target="_blank" rel="noopener">
            Preview
          </a>
          <a class="button" href={boot.activityUrl} onClick={leaveFor(boot.activityUrl)}>
            Activity
          </a>
          {readOnly ? (
            <button type="button" class="primary" disabled={busy} onClick={duplicate}>
              Edit a copy
            </button>
          ) : (
            // The dashboard's confirmation: what goes live against what is live now, both previews,
            // and the version shown as expectedVersion (src/dashboard/theme-publish.ts).
            <a class="button primary" href={publishUrlOf(theme.id)} onClick={leaveFor(publishUrlOf(theme.id))}>
              Publish…
            </a>
          )}
        </div>
      </header>
      <p class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {leaving ? (
        // A mouse click on these buttons leaves the focus in the field, which would save on losing it.
        <div
          class="notice warning"
          role="alertdialog"
          aria-labelledby="leaving-q"
          onMouseDown={(e) => e.preventDefault()}
        >
          <p id="leaving-q">
            <strong>Your text in {leaving.labels.map((l) => `“${l}”`).join(', ')} is not saved yet.</strong> Save it
            before moving on?
          </p>
          <div class="row">
            <button
              type="button"
              class="primary"
              onClick={() => {
                saveAll()
                setLeaving(null)
                leaving.then()
              }}
            >
              Save and continue
            </button>
            <button
              type="button"
              onClick={() => {
                discardAll()
                setLeaving(null)
                leaving.then()
              }}
            >
              Discard my text
            </button>
            <button type="button" onClick={() => setLeaving(null)}>
              Keep editing
            </button>
          </div>
        </div>
      ) : null}
      {readOnly ? (
        <div class="notice" role="note">
          <p>
            {theme.status === 'active'
              ? 'This is your live theme: what customers see now. Changes are made on a copy, which goes live only when you publish it.'
              : 'This theme is not a draft, so it cannot be changed. Changes are made on a copy, which goes live only when you publish it.'}{' '}
            “Edit a copy” (at the top) makes the copy and opens it here.
          </p>
        </div>
      ) : null}
      {conflict ? (
        <div class="notice warning" role="alert">
          <p>
            <strong>This theme changed while you were editing.</strong> Your change ({conflict.label}) was not saved.
            The editor now shows the latest version.
          </p>
          {conflict.activity.length > 0 ? (
            <ul class="activity">
              {conflict.activity.slice(0, 3).map((a, i) => (
                <li key={i}>
                  {a.who}, in {a.via}, <time dateTime={a.at}>{a.atText}</time>: {a.summary}
                </li>
              ))}
            </ul>
          ) : null}
          {conflict.replaces.length > 0 ? (
            <p>
              <strong>Re-applying replaces what changed meanwhile:</strong> {conflict.replaces.join(', ')}.
            </p>
          ) : null}
          <div class="row">
            <button type="button" class="primary" onClick={reapply}>
              {conflict.replaces.length > 0 ? 'Replace with my change' : 'Re-apply my change'}
            </button>
            <button type="button" onClick={() => setConflict(null)}>
              Discard my change
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <div class="notice error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <div class="panes">
        <Outline
          templates={schema.templates}
          pages={doc.pages}
          where={where}
          layout={layout}
          selection={selection}
          readOnly={readOnly}
          focusHandle={focusHandle}
          checks={
            <ChecksSummary
              checks={checks}
              version={theme.version}
              doc={doc}
              where={where}
              onSelect={select}
              onWhere={changeWhere}
              onShow={showSection}
            />
          }
          badges={(id) => {
            const found = findingsOf(id)
            return found.length > 0 ? <CheckBadges findings={found} id={badgesId(id)} /> : null
          }}
          onWhere={changeWhere}
          onSelect={select}
          onMove={(id, index) => void move(id, index)}
        />
        <Preview
          key={targetKey(where)}
          src={previewSrc}
          selectedId={selection?.kind === 'section' ? selection.id : null}
          onSelect={(id) => guard(() => setSelection({ kind: 'section', id }))}
        />
        <aside class="settings" aria-label={`Settings (${label})`}>
          {pane}
        </aside>
      </div>
    </div>
  )
}
