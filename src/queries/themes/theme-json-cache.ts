// getTheme's data (header and document) as JSON text, by theme and stream version. The read still
// asks PostgreSQL for the theme's row on every call (one statement: the row is the truth on every
// instance, no notification needed) but passes the stream version it holds, and PostgreSQL sends
// the columns only when the stream has moved since. The themes projection writes the whole row
// from the stream's events alone, so one stream version is one row. A hit saves the document's
// conversion to text, its bytes on the wire and in the driver, and the header's parse and
// serialisation, which were most of the read's cost. Bounded by bytes; the oldest go first.
export type CachedThemeJson = { storeId: string; streamVersion: number; version: number; json: string }

export class ThemeJsonCache {
  private readonly themes = new Map<string, CachedThemeJson>()
  private bytes = 0
  private readonly maxBytes: number

  constructor(maxBytes = 32 * 1024 * 1024) {
    this.maxBytes = maxBytes
  }

  /** The stream version held for this theme of this store, or -1 (none: the read sends the row). */
  versionOf(storeId: string, themeId: string): number {
    const held = this.themes.get(themeId)
    return held !== undefined && held.storeId === storeId ? held.streamVersion : -1
  }

  /** What is held at exactly this stream version, if anything. */
  at(storeId: string, themeId: string, streamVersion: number): CachedThemeJson | undefined {
    const held = this.themes.get(themeId)
    return held !== undefined && held.storeId === storeId && held.streamVersion === streamVersion ? held : undefined
  }

  keep(themeId: string, entry: CachedThemeJson): void {
    const held = this.themes.get(themeId)
    if (held !== undefined) {
      // A slower read of an older version does not replace a newer one.
      if (held.storeId === entry.storeId && held.streamVersion > entry.streamVersion) return
      this.themes.delete(themeId)
      this.bytes -= held.json.length
    }
    if (entry.json.length > this.maxBytes) return
    this.themes.set(themeId, entry)
    this.bytes += entry.json.length
    while (this.bytes > this.maxBytes) {
      const [oldest, evicted] = this.themes.entries().next().value!
      this.themes.delete(oldest)
      this.bytes -= evicted.json.length
    }
  }
}
