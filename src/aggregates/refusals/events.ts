import { eventTypes, streamName } from '../stream-name.ts'

// The store's audit stream (`activity-<storeId>`): what has no stream of its own goes here, so the
// merchant sees attempts as well as changes. A refused command is recorded here.
export const activityStream = streamName('activity')

export type RefusalEvent = {
  type: 'CommandRejected'
  data: { themeId: string | null; code: string; message: string; at: string }
}

export const REFUSAL_EVENT_TYPES = eventTypes<RefusalEvent>()(['CommandRejected'])
