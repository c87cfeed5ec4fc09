import type { Page } from 'playwright-core'

type Globals = {
  document: {
    documentElement: { scrollHeight: number }
    images: ArrayLike<{ complete: boolean; scrollIntoView: () => void }>
  }
  scrollTo: (x: number, y: number) => void
  requestAnimationFrame: (callback: () => void) => void
}

// Scrolls through the page so its lazy images start, waits until every image has finished
// (loaded or failed: a failure is reported by the page's own listeners), then back to the top for
// full-page shots. The browser decides to load a lazy image when a rendered frame shows it near
// the viewport: each step waits for a frame, and an image a busy machine's frames still skipped
// is scrolled to while waiting (a run once timed out on a phone-sized page that way). Waiting on
// the images themselves, not on "networkidle", which a page that has already loaded reports at
// once: a test that moves on while copies are still being made would abort their requests.
export async function settle(page: Page, step = 500): Promise<void> {
  const height = await page.evaluate(() => (globalThis as unknown as Globals).document.documentElement.scrollHeight)
  for (let y = 0; y < height; y += step) {
    await page.evaluate(
      (top) =>
        new Promise<void>((resolve) => {
          const w = globalThis as unknown as Globals
          w.scrollTo(0, top)
          w.requestAnimationFrame(() => w.requestAnimationFrame(resolve))
        }),
      y,
    )
  }
  await page.waitForFunction(
    () => {
      const pending = Array.from((globalThis as unknown as Globals).document.images).filter((image) => !image.complete)
      pending[0]?.scrollIntoView()
      return pending.length === 0
    },
    undefined,
    { timeout: 30_000, polling: 100 },
  )
  await page.evaluate(() => (globalThis as unknown as Globals).scrollTo(0, 0))
}
