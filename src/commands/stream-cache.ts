// Streams as this process last wrote or read them (a theme, a store's registry, its menus), so a
// command on a stream it has just changed decides without reading it again (one round trip: the
// append). Never trusted on its own (src/commands/handle-command.ts): a stream decided on from
// here is appended with the cached version as its expected version, so a stream changed elsewhere
// (another instance, the CLI) conflicts and the command is decided again on a fresh read; and a
// decision that appends nothing to a cached stream, or refuses, is decided again on a fresh read
// before it is given. States are immutable (evolve copies the path to a change), so entries are
// shared, not copied.
export type CachedStream = { state: unknown; streamVersion: number }

export type StreamCache = {
  get(streamId: string): CachedStream | undefined
  // Keeps the newer of the entry and what is given (two commands of this process may finish in
  // either order).
  put(streamId: string, entry: CachedStream): void
  drop(streamId: string): void
}

export function createStreamCache(max = 256): StreamCache {
  const entries = new Map<string, CachedStream>()
  return {
    get(streamId) {
      const entry = entries.get(streamId)
      if (entry) {
        // Most recently used last: the first key is the one to evict.
        entries.delete(streamId)
        entries.set(streamId, entry)
      }
      return entry
    },
    put(streamId, entry) {
      const current = entries.get(streamId)
      if (current && current.streamVersion >= entry.streamVersion) return
      entries.delete(streamId)
      entries.set(streamId, entry)
      if (entries.size > max) entries.delete(entries.keys().next().value!)
    },
    drop(streamId) {
      entries.delete(streamId)
    },
  }
}
