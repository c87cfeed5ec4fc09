// A PostgreSQL array literal for a statement's parameter ('{"a","b"}', '{1,2}'), sent as text and
// cast in the statement ($1::text[]). pg builds the same literal from a JS array, but runs two
// regular-expression replacements and several string joins for every element, numbers included:
// a twentieth of the server's CPU per agent batch, whose append sends a dozen arrays of ids, types
// and counts (bench:api profile, 2026-11-26). Here a string is escaped only when it holds a quote
// or a backslash, which ids and names never do.
const NEEDS_ESCAPE = /["\\]/

export function pgArray(items: readonly (string | number)[]): string {
  let out = '{'
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    if (i > 0) out += ','
    if (typeof item === 'number') out += String(item)
    else out += `"${NEEDS_ESCAPE.test(item) ? item.replace(/[\\"]/g, '\\$&') : item}"`
  }
  return `${out}}`
}
