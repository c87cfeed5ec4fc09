import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RecordedEvent } from '../events/event-store.ts'
import type { DomainEvent } from '../events/theme-events.ts'
import { describeEvent, summarize, themeIdOf } from './activity-descriptions.ts'
import type { Projection } from './projection.ts'

// The merchant's developer-activity view: one row per command (a batch is one row listing every
// change it made), including refused commands. Rows are keyed by command id; a row only takes
// events past its last position, so re-applying is harmless.
export const activityProjection: Projection = {
  name: 'developer_activity',
  tables: ['developer_activity'],
  async apply(db: QueryCreator<Database>, events) {
    const byCommand = new Map<string, RecordedEvent[]>()
    for (const e of events) {
      const id = e.metadata?.commandId
      if (!id) continue
      const list = byCommand.get(id)
      if (list) list.push(e)
      else byCommand.set(id, [e])
    }
    if (byCommand.size === 0) return
    // Set-based: one read of the rows these commands already have, one multi-row upsert.
    const existing = new Map(
      (await db.selectFrom('developer_activity').select(['command_id', 'last_position', 'changes', 'theme_id']).where('command_id', 'in', [...byCommand.keys()]).execute()).map((r) => [r.command_id, r]),
    )
    const rows = []
    for (const [commandId, list] of byCommand) {
      const current = existing.get(commandId)
      const fresh = current ? list.filter((e) => e.globalPosition > current.last_position) : list
      if (fresh.length === 0) continue
      const lines = [...(current?.changes ?? [])]
      let themeId = current?.theme_id ?? null
      let rejection: { code: string } | null = null
      for (const e of fresh) {
        const event = { type: e.type, data: e.data } as DomainEvent
        const line = describeEvent(event, e.streamId)
        if (line) lines.push(line)
        themeId ??= themeIdOf(event, e.streamId)
        if (event.type === 'CommandRejected') rejection = { code: event.data.code }
      }
      const first = fresh[0]!
      const m = first.metadata
      rows.push({
        command_id: commandId,
        store_id: first.storeId,
        occurred_at: first.recordedAt,
        first_position: first.globalPosition,
        last_position: fresh.at(-1)!.globalPosition,
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
        changes: JSON.stringify(lines),
        error_code: rejection?.code ?? null,
      })
    }
    if (rows.length === 0) return
    await db
      .insertInto('developer_activity')
      .values(rows)
      .onConflict((oc) =>
        oc.column('command_id').doUpdateSet((eb) => ({
          last_position: eb.ref('excluded.last_position'),
          theme_id: eb.ref('excluded.theme_id'),
          summary: eb.ref('excluded.summary'),
          changes: eb.ref('excluded.changes'),
        })).where('developer_activity.last_position', '<', (eb) => eb.ref('excluded.last_position')),
      )
      .execute()
  },
}
