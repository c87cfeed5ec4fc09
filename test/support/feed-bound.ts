// The consistency instances promise each other: a change committed on one is seen on another
// within the change feed's bound, 750 ms after the commit (docs/scaling.md), a cache that cannot
// vouch for that being bypassed. What a test can hold an instance to, on a machine of any speed:
// a request started more than the bound after the change returns the changed answer. (A request
// started sooner may or may not: how soon depends on the machine.)
export const FEED_BOUND_MS = 750

export async function seenWithinFeedBound(
  read: () => Promise<boolean>,
  changedAt: number,
  timeoutMs = 15_000,
): Promise<{ seen: boolean; staleAfterBound: number }> {
  let staleAfterBound = 0
  for (;;) {
    const started = performance.now()
    if (await read()) return { seen: true, staleAfterBound }
    if (started - changedAt > FEED_BOUND_MS) staleAfterBound++
    if (performance.now() - changedAt > timeoutMs) return { seen: false, staleAfterBound }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
