// Text typed into a field but not yet handed to the service (a text box saves on Enter or when
// it loses the focus). The editor asks before anything would drop it: selecting another part,
// switching page, or leaving the editor (issue 34 point 10).
type Entry = { label: string; save: () => void }

const entries = new Map<string, Entry>()
const listeners = new Set<() => void>()

/** Marks the field `id` as holding unsaved text (entry), or as saved (null). */
export function setUnsaved(id: string, entry: Entry | null): void {
  const had = entries.has(id)
  if (entry) entries.set(id, entry)
  else entries.delete(id)
  if (had !== entries.has(id)) for (const listener of listeners) listener()
}

export const unsavedLabels = (): string[] => [...entries.values()].map((e) => e.label)
export const hasUnsaved = (): boolean => entries.size > 0

/** Hands every unsaved text to the service, as Enter would. */
export function saveAll(): void {
  for (const entry of [...entries.values()]) entry.save()
  entries.clear()
}

export function discardAll(): void {
  entries.clear()
  for (const listener of listeners) listener()
}

/** The visible label of the field `id`, for the question. */
export function labelOf(id: string): string {
  const label = document.querySelector(`label[for="${CSS.escape(id)}"], #${CSS.escape(`${id}-label`)}`)
  return label?.textContent?.replace(/\s*\*$/, '').trim() || 'a field'
}
