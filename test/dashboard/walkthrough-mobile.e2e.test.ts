import t from 'tap'
import { merchantWalkthrough } from './walkthrough.ts'

// The merchant walkthrough in Chromium at 390 px (test/dashboard/walkthrough.ts).
t.test('merchant walkthrough in Chromium, mobile', (t) =>
  merchantWalkthrough(t, { name: 'mobile', width: 390, height: 844 }),
)
