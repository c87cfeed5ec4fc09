import t from 'tap'
import { navigationDecider } from '../../../src/aggregates/navigation/decider.ts'
import type { NavigationEvent, NavigationMenu } from '../../../src/aggregates/navigation/events.ts'
import { deciderSpec } from '../../support/decider-spec.ts'

// A store's navigation menus: menus named in an update are replaced, the others stay.
const at = '2026-11-21T10:00:00.000Z'
const { given } = deciderSpec(navigationDecider, { at })
const menus: NavigationMenu[] = [
  { handle: 'main', title: 'Main', items: [{ label: 'Home', href: '/' }] },
  { handle: 'footer', title: 'Footer', items: [] },
]
const updated = (set: NavigationMenu[]): NavigationEvent => ({
  type: 'NavigationMenusUpdated',
  data: { menus: set, changed: set.map((m) => m.handle), at },
})

t.test('menus are replaced by handle; the others and their titles stay', async (t) => {
  const [event] = given([updated(menus)])
    .when({ menus: [{ handle: 'footer', items: [{ label: 'Contact', href: '/pages/contact' }] }] })
    .thenEmits(['NavigationMenusUpdated'])
  t.same(
    event!.data.menus.map((m) => [m.handle, m.title, m.items.length]),
    [
      ['main', 'Main', 1],
      ['footer', 'Footer', 1],
    ],
  )
  t.same(event!.data.changed, ['footer'])
  t.same(
    given([])
      .when({ menus: [{ handle: 'main', items: [] }] })
      .thenDecides()[0]!.data.menus,
    [{ handle: 'main', title: 'main', items: [] }],
  )
})

t.test('unsafe links and titles are refused at their place; at most 10 menus', async (t) => {
  const link = given([updated(menus)])
    .when({ menus: [{ handle: 'main', items: [{ label: 'x', href: 'javascript:alert(1)' }] }] })
    .thenRefuses('UNSAFE_CONTENT')
  t.match(link.details, { issues: [{ path: /^menus\[0\]\.items/ }] })
  given([updated(menus)])
    .when({ menus: [{ handle: 'main', title: '<img src=x onerror=alert(1)>', items: [] }] })
    .thenRefuses('UNSAFE_CONTENT')
  const many = Array.from({ length: 10 }, (_, i) => ({ handle: `m${i}`, items: [] }))
  given([updated(menus)])
    .when({ menus: many })
    .thenRefuses('LIMIT_EXCEEDED')
})

t.test('evolve: the state is the menus of the last event', async (t) => {
  t.same(given([updated(menus), updated([menus[0]!])]).state, [menus[0]])
})
