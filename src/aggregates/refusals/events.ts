import { eventTypes, streamName } from '../stream-name.ts'

// The store's audit stream (`activity-<storeId>`): what has no stream of its own goes here, so the
// merchant sees attempts as well as changes. A refused command is recorded here.
export const activityStream = streamName('activity')

export type RefusalEvent = {
  type: 'CommandRejected'
  // issues: the problems the caller was told (details.issues), the first REFUSAL_ISSUES_KEPT of
  // them, and issueCount how many there were; both absent on refusals recorded before they were
  // kept (docs/decisions/0122-refusals-keep-their-issues.md).
  data: {
    themeId: string | null
    code: string
    message: string
    issues?: RefusalIssue[]
    issueCount?: number
    at: string
  }
}

export const REFUSAL_EVENT_TYPES = eventTypes<RefusalEvent>()(['CommandRejected'])

export type RefusalIssue = { path: string; code: string; message: string }

export const REFUSAL_ISSUES_KEPT = 20

// The issue list of an error's details, as kept with its refusal.
export function keptIssues(details: Record<string, unknown> | undefined): {
  issues: RefusalIssue[]
  issueCount: number
} {
  const raw = Array.isArray(details?.issues) ? (details.issues as unknown[]) : []
  const issues = raw
    .filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null)
    .map((i) => ({ path: String(i.path ?? ''), code: String(i.code ?? ''), message: String(i.message ?? '') }))
  return { issues: issues.slice(0, REFUSAL_ISSUES_KEPT), issueCount: issues.length }
}
