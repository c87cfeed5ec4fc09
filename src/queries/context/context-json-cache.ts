// getContext's responses as JSON text, by store and granted scopes, each with the stamp it was made
// at (store-context.ts): a read whose stamp is unchanged sends the held text as it is, without
// reading the themes' headers or serialising the context again. Bounded: the oldest go first.
export type HeldContext = { stamp: string; json: string; etag: string }

export class ContextJsonCache {
  private readonly held = new Map<string, HeldContext>()
  private readonly maxEntries: number

  constructor(maxEntries = 2_000) {
    this.maxEntries = maxEntries
  }

  get(storeId: string, scopes: string): HeldContext | undefined {
    return this.held.get(`${storeId} ${scopes}`)
  }

  set(storeId: string, scopes: string, context: HeldContext): void {
    const key = `${storeId} ${scopes}`
    this.held.delete(key)
    this.held.set(key, context)
    if (this.held.size > this.maxEntries) this.held.delete(this.held.keys().next().value!)
  }
}
