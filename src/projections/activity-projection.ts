import type { QueryCreator } from 'kysely'
import { describeEvent, merchantLines, summarize, themeIdOf } from '../aggregates/describe.ts'
import { intentLine, type MerchantLine } from '../aggregates/merchant-line.ts'
import type { RefusalIssue } from '../aggregates/refusals/events.ts'
import { DOMAIN_EVENT_TYPES, type DomainEvent } from '../aggregates/events.ts'
import type { Database } from '../db/database.ts'
import type { EventMetadata } from '../events/event-store.ts'
import { defineProjection } from './projection.ts'

type Described = DomainEvent & { streamId: string; storeId: string; metadata: EventMetadata }
type Existing = { changes: string[]; theme_id: string | null; lines: MerchantLine[] | null }

function byCommandId<E extends { metadata: EventMetadata }>(events: readonly E[]): Map<string, E[]> {
  const byCommand = new Map<string, E[]>()
  for (const e of events) {
    const id = e.metadata?.commandId
    if (!id) continue
    const list = byCommand.get(id)
    if (list) list.push(e)
    else byCommand.set(id, [e])
  }
  return byCommand
}

// One command's row from its fresh events (in commit order), on top of the row it already has.
// The positions and the time are the caller's: recorded columns, or read from the append.
function activityRow(commandId: string, fresh: readonly Described[], current: Existing | undefined) {
  const lines = [...(current?.changes ?? [])]
  const m0 = fresh[0]!.metadata
  const merchant = current ? [...(current.lines ?? [])] : m0.intent ? [intentLine(m0.intent)] : []
  let themeId = current?.theme_id ?? null
  let rejection: { code: string; issues: RefusalIssue[] | null; issueCount: number | null } | null = null
  for (const e of fresh) {
    const line = describeEvent(e, e.streamId)
    if (line) lines.push(line)
    merchant.push(...merchantLines(e, e.streamId))
    themeId ??= themeIdOf(e, e.streamId)
    if (e.type === 'CommandRejected')
      rejection = { code: e.data.code, issues: e.data.issues ?? null, issueCount: e.data.issueCount ?? null }
  }
  const first = fresh[0]!
  const m = first.metadata
  return {
    command_id: commandId,
    store_id: first.storeId,
    action: m.command,
    outcome: rejection ? ('rejected' as const) : ('applied' as const),
    theme_id: themeId,
    channel: m.channel,
    tool: m.tool ?? null,
    credential_kind: m.actor.kind,
    // A merchant has no credential id; the merchant's id says who it was.
    credential_id: m.actor.kind === 'merchant' ? m.actor.merchantId : m.actor.credentialId,
    app_id: m.actor.appId,
    request_id: m.requestId ?? null,
    summary: summarize(lines),
    changes: lines,
    error_code: rejection?.code ?? null,
    lines: merchant,
    issues: rejection?.issues ?? null,
    issue_count: rejection?.issueCount ?? null,
  }
}

// A fresh append's commands have no row yet: a plain insert (migration 0012), so a row that does
// exist (a command appending twice) fails it and the append is tried again through `apply`, which
// merges. The time is cut to milliseconds as `apply` gets it (a recorded event's JavaScript Date),
// so a rebuild writes the same value.
const PREPARED_INSERT = 'select sfts_project_activity_insert($1, $2, $3, $4)'

// The merchant's developer-activity view: one row per command (a batch is one row listing every
// change it made), including refused commands. Rows are keyed by command id; a row only takes
// events past its last position, so re-applying is harmless.
export const activityProjection = defineProjection<DomainEvent>({
  name: 'developer_activity',
  // 2: rows carry the merchant's lines and a refusal's issues (migration 202611261044).
  version: 2,
  tables: ['developer_activity'],
  handles: DOMAIN_EVENT_TYPES,
  async apply(db: QueryCreator<Database>, events) {
    const byCommand = byCommandId(events)
    if (byCommand.size === 0) return
    // Set-based: one read of the rows these commands already have, one multi-row upsert.
    const existing = new Map(
      (
        await db
          .selectFrom('developer_activity')
          .select(['command_id', 'last_position', 'changes', 'theme_id', 'lines'])
          .where('command_id', 'in', [...byCommand.keys()])
          .execute()
      ).map((r) => [r.command_id, r]),
    )
    const rows = []
    for (const [commandId, list] of byCommand) {
      const current = existing.get(commandId)
      const fresh = current ? list.filter((e) => e.globalPosition > current.last_position) : list
      if (fresh.length === 0) continue
      const row = activityRow(commandId, fresh, current)
      rows.push({
        ...row,
        changes: JSON.stringify(row.changes),
        lines: JSON.stringify(row.lines),
        issues: row.issues === null ? null : JSON.stringify(row.issues),
        occurred_at: fresh[0]!.recordedAt,
        first_position: fresh[0]!.globalPosition,
        last_position: fresh.at(-1)!.globalPosition,
      })
    }
    if (rows.length === 0) return
    await db
      .insertInto('developer_activity')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('command_id')
          .doUpdateSet((eb) => ({
            last_position: eb.ref('excluded.last_position'),
            theme_id: eb.ref('excluded.theme_id'),
            summary: eb.ref('excluded.summary'),
            changes: eb.ref('excluded.changes'),
            lines: eb.ref('excluded.lines'),
          }))
          .where('developer_activity.last_position', '<', (eb) => eb.ref('excluded.last_position')),
      )
      .execute()
  },
  prepare({ events }) {
    const byCommand = byCommandId(events)
    if (byCommand.size === 0) return []
    const rows = [...byCommand].map(([commandId, list]) => ({
      ...activityRow(commandId, list, undefined),
      first_ord: list[0]!.ord,
      last_ord: list.at(-1)!.ord,
    }))
    return [{ sql: PREPARED_INSERT, payload: JSON.stringify(rows) }]
  },
})
