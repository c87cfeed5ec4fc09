// PostgreSQL refuses text and jsonb holding U+0000 or a lone UTF-16 surrogate (JSON's "\u0000"
// and "\ud800" escapes and a %00 in a form produce them), so an OAuth input carrying one is the
// client's error, found here before any query runs, never a database error (a 500).

const NUL = '\u0000'

export const storableText = (value: string): boolean => !value.includes(NUL) && value.isWellFormed()

// The path of the first string (or object key) in a parsed JSON value that cannot be stored.
export function unstorablePath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return storableText(value) ? null : path || '(root)'
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorablePath(item, `${path}[${i}]`)
      if (found !== null) return found
    }
    return null
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key
      if (!storableText(key)) return at
      const found = unstorablePath(item, at)
      if (found !== null) return found
    }
  }
  return null
}
