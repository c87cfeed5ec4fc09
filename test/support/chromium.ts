import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

// The Chromium every browser test drives: Debian's, which `.ci/run` installs, or CHROMIUM_PATH.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

// No sandbox (the tests may run as root), no GPU, and none of the browser's own network traffic.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

type T = { fail: (message: string) => void; teardown: (fn: () => unknown) => void }

/**
 * A headless Chromium, closed when `t` ends; null when there is none, after failing `t` with how to
 * install it (a browser test that skipped itself would pass without testing anything).
 */
export async function launchChromium(t: T): Promise<Browser | null> {
  if (!existsSync(CHROMIUM)) {
    t.fail(
      `Chromium is missing at ${CHROMIUM}. Install it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH).`,
    )
    return null
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
  t.teardown(() => browser.close())
  return browser
}
