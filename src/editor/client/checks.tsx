// What the theme checks found in the version the editor shows, for the merchant: badges on the
// outline's sections ("1 error"), the findings of the selected section with the fix a shop owner
// can make here, and a summary at the top of the outline for what belongs to no section shown
// (the whole theme, the page itself, other pages). Texts come from src/theme/merchant-texts.ts;
// a finding's own `fix` speaks to agents and is never shown. Notes (severity info) are for agents.
import type { ComponentChildren } from 'preact'
import {
  blockLabel,
  checkFix,
  checkTitle,
  EDITOR_PLACES,
  SEVERITY_WORDS,
  severityCount,
  checkPlaceLabel,
} from '../../theme/merchant-texts.ts'
import { locate } from './changes.ts'
import { sectionTitle, type Selection } from './outline.tsx'
import type { Finding, Target, ThemeDocument } from './types.ts'

/** The checks of one version; `failed` when they could not be read. */
export type CheckState = { version: number; findings: Finding[]; failed?: string }

export const forMerchant = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.severity !== 'info')

/** Where a layout's findings are placed by the checks ("home", "page:<id>"). */
export const placeOf = (where: Target): string => ('template' in where ? where.template : `page:${where.pageId}`)

const targetOf = (place: string): Target | null =>
  place.startsWith('page:')
    ? { pageId: place.slice('page:'.length) }
    : place === 'theme'
      ? null
      : { template: place as Extract<Target, { template: string }>['template'] }

const placeLabel = (doc: ThemeDocument, place: string): string =>
  checkPlaceLabel(place, (id) => doc.pages.find((p) => p.id === id)?.title)

function counts(findings: readonly Finding[]): string[] {
  const errors = findings.filter((f) => f.severity === 'error').length
  const warnings = findings.filter((f) => f.severity === 'warning').length
  return [
    ...(errors ? [severityCount('error', errors)] : []),
    ...(warnings ? [severityCount('warning', warnings)] : []),
  ]
}

/** "1 error", "2 warnings" as text labels (the colour only repeats what the words say). Read out as
 *  the section button's description (aria-describedby → `id`), so its name stays the section's. */
export function CheckBadges(props: { findings: readonly Finding[]; id: string }) {
  const errors = props.findings.filter((f) => f.severity === 'error').length
  const warnings = props.findings.filter((f) => f.severity === 'warning').length
  if (errors + warnings === 0) return null
  return (
    <span class="check-badges" id={props.id} aria-hidden="true">
      <span class="visually-hidden">Theme checks: </span>
      {errors ? <span class="check-badge sev-error">{severityCount('error', errors)}</span> : null}
      {errors && warnings ? <span class="visually-hidden">, </span> : null}
      {warnings ? <span class="check-badge sev-warning">{severityCount('warning', warnings)}</span> : null}
    </span>
  )
}

/** Where the fix is made, when that is not the section itself: the theme's colours, the navigation. */
function fixPlace(f: Finding): Selection {
  if (f.setting?.startsWith('theme.')) return { kind: 'tokens' }
  if (f.setting?.startsWith('navigation')) return { kind: 'navigation' }
  return null
}

function FindingItem(props: {
  finding: Finding
  doc: ThemeDocument
  showWhere: boolean
  /** The pane the list is in: no button leads back to it. */
  from: string | undefined
  onSelect: (s: Selection) => void
  onShow: (target: Target, sectionId: string) => void
}) {
  const f = props.finding
  const at = f.sectionId ? locate(props.doc, f.sectionId) : null
  const blocks = at?.section.blocks ?? []
  const blockIndex = f.blockId ? blocks.findIndex((b) => b.id === f.blockId) : -1
  const block = blockIndex >= 0 ? `${blockLabel(blocks[blockIndex]!.type)} ${blockIndex + 1}` : null
  const where = at ? `${sectionTitle(at.section)}, ${placeLabel(props.doc, f.template)}` : null
  const fixed = fixPlace(f)
  const go = fixed && fixed.kind !== props.from ? fixed : null
  return (
    <li class={`finding sev-${f.severity}`}>
      <p class="finding-head">
        <span class={`check-badge sev-${f.severity}`}>{SEVERITY_WORDS[f.severity]}</span>{' '}
        <strong>{checkTitle(f.rule)}</strong>
        {block ? ` (${block})` : null}
      </p>
      {props.showWhere && where ? <p class="finding-where">In {where}</p> : null}
      <p class="finding-message">{f.message}</p>
      <p class="finding-fix">
        <strong>How to fix:</strong>{' '}
        {checkFix({
          rule: f.rule,
          setting: f.setting,
          blockId: f.blockId,
          ...(at ? { sectionType: at.section.type } : {}),
        })}
      </p>
      {go ? (
        <button type="button" class="link" onClick={() => props.onSelect(go)}>
          Open {go.kind === 'tokens' ? EDITOR_PLACES.tokens : EDITOR_PLACES.navigation}
        </button>
      ) : props.showWhere && at ? (
        <button type="button" class="link" onClick={() => props.onShow(at.target, at.section.id)}>
          Show the section
        </button>
      ) : null}
    </li>
  )
}

export function FindingList(props: {
  findings: readonly Finding[]
  doc: ThemeDocument
  heading: string
  showWhere?: boolean
  from?: string
  onSelect: (s: Selection) => void
  onShow: (target: Target, sectionId: string) => void
}) {
  if (props.findings.length === 0) return null
  return (
    <section class="checks-box" aria-label={props.heading}>
      <h3>{props.heading}</h3>
      <ul class="findings">
        {props.findings.map((f, i) => (
          <FindingItem
            key={`${f.rule}-${f.sectionId ?? ''}-${f.setting ?? ''}-${i}`}
            finding={f}
            doc={props.doc}
            showWhere={props.showWhere ?? false}
            from={props.from}
            onSelect={props.onSelect}
            onShow={props.onShow}
          />
        ))}
      </ul>
    </section>
  )
}

/** The top of the outline: how many problems, what belongs to no section shown, and where the rest are. */
export function ChecksSummary(props: {
  checks: CheckState | null
  version: number
  doc: ThemeDocument
  where: Target
  onSelect: (s: Selection) => void
  onWhere: (t: Target) => void
  onShow: (target: Target, sectionId: string) => void
}): ComponentChildren {
  const { checks, doc } = props
  const here = placeOf(props.where)
  const all = checks ? forMerchant(checks.findings) : []
  const inSection = (f: Finding) => f.sectionId !== undefined && locate(doc, f.sectionId) !== null
  // Not on a section: the whole theme's (colours of the header, the menu) and this page's own.
  const loose = all.filter((f) => !inSection(f) && (f.template === 'theme' || f.template === here))
  const elsewhere = new Map<string, Finding[]>()
  for (const f of all)
    if (f.template !== here && !loose.includes(f)) elsewhere.set(f.template, [...(elsewhere.get(f.template) ?? []), f])
  const onThisPage = all.filter((f) => f.template === here && inSection(f)).length
  const stale = checks !== null && checks.version !== props.version
  let status: string
  if (!checks) status = 'Checking the theme…'
  else if (checks.failed) status = `The theme checks could not run: ${checks.failed}`
  // A note, but never to be read as "nothing found".
  else if (checks.findings.some((f) => f.rule === 'checks-unavailable'))
    status = `${checkTitle('checks-unavailable')}. ${checkFix({ rule: 'checks-unavailable' })}`
  else if (all.length === 0) status = 'No problems found.'
  else status = `${counts(all).join(' and ')} in this theme.`
  return (
    <section class="checks-summary" aria-labelledby="checks-heading">
      <h2 id="checks-heading">Theme checks</h2>
      <p class={all.some((f) => f.severity === 'error') ? 'checks-count has-errors' : 'checks-count'}>
        {status}
        {stale ? ' Checking your latest change…' : null}
      </p>
      {onThisPage > 0 ? <p class="help">Marked on the sections below: select one to see how to fix it.</p> : null}
      <FindingList
        findings={loose}
        doc={doc}
        heading="Not tied to one section"
        onSelect={props.onSelect}
        onShow={props.onShow}
      />
      {elsewhere.size > 0 ? <p class="help">On other pages:</p> : null}
      {elsewhere.size > 0 ? (
        <ul class="plain elsewhere">
          {[...elsewhere].map(([place, found]) => {
            const target = targetOf(place)
            return (
              <li key={place}>
                {target ? (
                  <button type="button" class="link" onClick={() => props.onWhere(target)}>
                    {placeLabel(doc, place)}
                  </button>
                ) : (
                  placeLabel(doc, place)
                )}
                : {counts(found).join(', ')}
              </li>
            )
          })}
        </ul>
      ) : null}
    </section>
  )
}
