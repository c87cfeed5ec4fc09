// Reading "all" stops below the oldest transaction running anywhere on the PostgreSQL server, so
// a transaction held open by another test file delays (never loses) what a reader sees.
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, 20))
  }
}
