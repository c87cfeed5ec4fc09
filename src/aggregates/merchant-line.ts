// What one event changed, in the merchant's words, for the activity view (decision
// docs/decisions/0123-activity-reads-as-an-account.md). Kept as data, not as a sentence: the
// view names the themes a line mentions by their current name, draws colours as swatches and
// puts the old → new values in their own places; the CSV writes the same parts as text.
export type MerchantLine = {
  // The words, without ids: "Hero › Heading", "Copied from", "Shared a preview link".
  text: string
  // A short value before and after ("empty" when there was none). Absent when the value is long,
  // structured, or the event did not carry the value before.
  from?: ShownValue
  to?: ShownValue
  // Another theme the line names after its text ("Copied from “Spring”"), by id: the view
  // names it.
  theme?: string
  // The command an undo took back, by id: the view shows what that command did.
  undoes?: string
}

export type ShownValue = { text: string; colour?: string }

const SHORT = 60
const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i

// A setting's value as a merchant reads it, or null when it is not short plain data (rich text,
// a button, a list: the line then says only what changed).
export function shownValue(value: unknown): ShownValue | null {
  if (value === null || value === undefined || value === '') return { text: 'empty' }
  if (typeof value === 'boolean') return { text: value ? 'on' : 'off' }
  if (typeof value === 'number') return { text: String(value) }
  if (typeof value !== 'string') return null
  if (COLOUR.test(value)) return { text: value.toLowerCase(), colour: value.toLowerCase() }
  const flat = value.replace(/\s+/g, ' ').trim()
  return flat.length <= SHORT ? { text: `“${flat}”` } : null
}

// A line for one changed value: with before and after when both are short.
export function changedValue(text: string, before: unknown, after: unknown, beforeKnown: boolean): MerchantLine {
  const to = shownValue(after)
  const from = beforeKnown ? shownValue(before) : null
  if (to && from) return { text, from, to }
  if (to && !beforeKnown) return { text, to }
  return { text }
}

// What a command set out to do, where its events do not say it (a revert: src/events/event-store.ts).
export function intentLine(intent: { revertTo: number } | { undo: string }): MerchantLine {
  return 'revertTo' in intent
    ? { text: `Reverted to version ${intent.revertTo}` }
    : { text: 'Undid a change', undoes: intent.undo }
}
