import t from 'tap'
import type { NavigationEvent, NavigationMenu } from '../../src/aggregates/navigation/events.ts'
import { navigationStream } from '../../src/aggregates/navigation/events.ts'
import { navigationProjection } from '../../src/projections/navigation-projection.ts'
import { type Given, projectionSpec } from '../support/projection-spec.ts'

// navigation_menus: one row per menu of a store, as its last event sets them.
const at = '2026-11-21T10:00:00.000Z'
const updated = (storeId: string, menus: NavigationMenu[]): Given =>
  ({
    type: 'NavigationMenusUpdated',
    data: { menus, changed: menus.map((m) => m.handle), at },
    streamId: navigationStream(storeId),
    storeId,
  }) satisfies NavigationEvent & Given

t.test('navigation_menus', async (t) => {
  const spec = await projectionSpec(t, navigationProjection)

  await t.test('each menu of the last event is a row; menus it drops are gone', async (t) => {
    await spec
      .given([
        updated('st_n1', [
          { handle: 'footer', title: 'Footer', items: [] },
          { handle: 'main', title: 'Main', items: [{ label: 'Home', href: '/' }] },
        ]),
        updated('st_n1', [{ handle: 'main', title: 'Menu', items: [{ label: 'Shop', href: '/products' }] }]),
      ])
      .thenRows(t, {
        navigation_menus: [
          {
            store_id: 'st_n1',
            handle: 'main',
            title: 'Menu',
            items: [{ label: 'Shop', href: '/products' }],
            stream_version: 2,
          },
        ],
      })
  })

  await t.test('an empty set of menus leaves no rows', async (t) => {
    await spec
      .given([updated('st_n2', [{ handle: 'main', title: 'Main', items: [] }]), updated('st_n2', [])])
      .thenRows(t, {
        navigation_menus: [],
      })
  })
})
