import { existsSync } from 'node:fs'
import t from 'tap'
import { CHROMIUM, merchantWalkthrough } from './walkthrough.ts'

// The merchant walkthrough in Chromium at 1280 px (test/dashboard/walkthrough.ts).
t.test(
  'merchant walkthrough in Chromium, desktop',
  { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  (t) => merchantWalkthrough(t, { name: 'desktop', width: 1280, height: 800 }),
)
