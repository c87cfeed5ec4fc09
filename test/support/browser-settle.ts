import type { Page } from 'playwright-core'

type Globals = {
  document: { documentElement: { scrollHeight: number }; images: ArrayLike<{ complete: boolean }> }
  scrollTo: (x: number, y: number) => void
}

// Scrolls through the page so its lazy images start, waits until every image has finished
// (loaded or failed: a failure is reported by the page's own listeners), then back to the top for
// full-page shots. Waiting on the images themselves, not on "networkidle", which a page that has
// already loaded reports at once: a test that moves on while copies are still being made would
// abort their requests.
export async function settle(page: Page, step = 500): Promise<void> {
  const height = await page.evaluate(() => (globalThis as unknown as Globals).document.documentElement.scrollHeight)
  for (let y = 0; y < height; y += step) {
    await page.evaluate((top) => (globalThis as unknown as Globals).scrollTo(0, top), y)
    await page.waitForTimeout(10)
  }
  await page.waitForFunction(
    () => Array.from((globalThis as unknown as Globals).document.images).every((image) => image.complete),
    undefined,
    { timeout: 30_000 },
  )
  await page.evaluate(() => (globalThis as unknown as Globals).scrollTo(0, 0))
}
