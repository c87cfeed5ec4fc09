import { existsSync } from 'node:fs'
import t from 'tap'
import { CHROMIUM, merchantWalkthrough } from './walkthrough.ts'

// The merchant walkthrough in Chromium at 390 px (test/dashboard/walkthrough.ts).
t.test(
  'merchant walkthrough in Chromium, mobile',
  { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  (t) => merchantWalkthrough(t, { name: 'mobile', width: 390, height: 844 }),
)
