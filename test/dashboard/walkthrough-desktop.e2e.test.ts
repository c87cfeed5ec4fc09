import t from 'tap'
import { merchantWalkthrough } from './walkthrough.ts'

// The merchant walkthrough in Chromium at 1280 px (test/dashboard/walkthrough.ts).
t.test('merchant walkthrough in Chromium, desktop', (t) =>
  merchantWalkthrough(t, { name: 'desktop', width: 1280, height: 800 }),
)
