// Look-ups of a store's rows by a list of ids (theme references): one statement, no query for
// an empty list.

// The rows among ids, in the order of ids (first occurrence); unknown and foreign ids left out.
export async function loadInIdOrder<R, T>(
  ids: readonly string[],
  load: (unique: string[]) => Promise<R[]>,
  idOf: (row: R) => string,
  map: (row: R) => T,
): Promise<T[]> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return []
  const byId = new Map((await load(unique)).map((r) => [idOf(r), r]))
  return unique.flatMap((id) => {
    const row = byId.get(id)
    return row ? [map(row)] : []
  })
}

// Which of ids exist.
export async function existingIds(
  ids: readonly string[],
  load: (unique: string[]) => Promise<string[]>,
): Promise<Set<string>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Set()
  return new Set(await load(unique))
}
