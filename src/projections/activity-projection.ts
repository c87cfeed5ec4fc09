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
    for (const [commandId, list] of byCommand) {
      const existing = await db.selectFrom('developer_activity').select(['last_position', 'changes', 'theme_id']).where('command_id', '=', commandId).executeTakeFirst()
      const fresh = existing ? list.filter((e) => e.globalPosition > existing.last_position) : list
      if (fresh.length === 0) continue
      const lines = [...(existing?.changes ?? [])]
      let themeId = existing?.theme_id ?? null
      let rejection: { code: string } | null = null
      for (const e of fresh) {
        const event = { type: e.type, data: e.data } as DomainEvent
        const line = describeEvent(event, e.streamId)
        if (line) lines.push(line)
        themeId ??= themeIdOf(event, e.streamId)
        if (event.type === 'CommandRejected') rejection = { code: event.data.code }
      }
      const first = fresh[0]!
      const last = fresh.at(-1)!
      const m = first.metadata
      await db
        .insertInto('developer_activity')
        .values({
          command_id: commandId,
          store_id: first.storeId,
          occurred_at: first.recordedAt,
          first_position: first.globalPosition,
          last_position: last.globalPosition,
          action: m.command,
          outcome: rejection ? 'rejected' : 'applied',
          theme_id: themeId,
          channel: m.channel,
          tool: m.tool ?? null,
          credential_kind: m.actor.kind,
          credential_id: m.actor.credentialId,
          app_id: m.actor.appId,
          request_id: m.requestId ?? null,
          summary: summarize(lines),
          changes: JSON.stringify(lines),
          error_code: rejection?.code ?? null,
        })
        .onConflict((oc) =>
          oc.column('command_id').doUpdateSet((eb) => ({
            last_position: eb.ref('excluded.last_position'),
            theme_id: eb.ref('excluded.theme_id'),
            summary: eb.ref('excluded.summary'),
            changes: eb.ref('excluded.changes'),
          })).where('developer_activity.last_position', '<', (eb) => eb.ref('excluded.last_position')),
        )
        .execute()
    }
  },
}
