import t from 'tap'
import {
  decideStoreThemes,
  evolveStoreThemes,
  initialStoreThemes,
  type StoreThemesState,
} from '../../src/commands/theme/store-themes.ts'
import { decideNavigation } from '../../src/commands/store/navigation.ts'
import { LIMITS } from '../../src/theme/document.ts'

const at = '2026-11-21T10:00:00.000Z'

t.test('the store registry limits themes that are not archived and tracks the live one', async (t) => {
  let state: StoreThemesState = initialStoreThemes
  for (let i = 0; i < LIMITS.themesPerStore; i++) {
    const r = decideStoreThemes({ type: 'AddTheme', themeId: `t${i}` }, state, at)
    if (!r.ok) throw new Error(r.error.code)
    state = r.value.reduce(evolveStoreThemes, state)
  }
  const over = decideStoreThemes({ type: 'AddTheme', themeId: 'one-more' }, state, at)
  t.match(over, { ok: false, error: { code: 'LIMIT_EXCEEDED', details: { limit: 20 } } })
  const removed = decideStoreThemes({ type: 'RemoveTheme', themeId: 't3' }, state, at)
  t.ok(removed.ok)
  if (removed.ok) state = removed.value.reduce(evolveStoreThemes, state)
  t.ok(decideStoreThemes({ type: 'AddTheme', themeId: 'fits-again' }, state, at).ok, 'archiving frees a place')
  t.same(decideStoreThemes({ type: 'RemoveTheme', themeId: 'unknown' }, state, at), { ok: true, value: [] })
  const live = decideStoreThemes({ type: 'ChangeLiveTheme', themeId: 't1' }, state, at)
  t.same(live, { ok: true, value: [{ type: 'LiveThemeChanged', data: { themeId: 't1', previousThemeId: null, at } }] })
  if (live.ok) state = live.value.reduce(evolveStoreThemes, state)
  t.same(
    decideStoreThemes({ type: 'ChangeLiveTheme', themeId: 't1' }, state, at),
    { ok: true, value: [] },
    'already live: nothing',
  )
  t.match(decideStoreThemes({ type: 'ChangeLiveTheme', themeId: 't2' }, state, at), {
    ok: true,
    value: [{ data: { previousThemeId: 't1' } }],
  })
})

t.test('navigation menus: replaced by handle, validated, limited', async (t) => {
  const current = [
    { handle: 'main', title: 'Main', items: [{ label: 'Home', href: '/' }] },
    { handle: 'footer', title: 'Footer', items: [] },
  ]
  const r = decideNavigation(
    current,
    { menus: [{ handle: 'footer', items: [{ label: 'Contact', href: '/pages/contact' }] }] },
    at,
  )
  t.ok(r.ok)
  if (r.ok)
    t.same(
      r.value[0]!.data.menus.map((m) => [m.handle, m.title, m.items.length]),
      [
        ['main', 'Main', 1],
        ['footer', 'Footer', 1],
      ],
    )
  t.match(
    decideNavigation(
      current,
      { menus: [{ handle: 'main', items: [{ label: 'x', href: 'javascript:alert(1)' }] }] },
      at,
    ),
    { ok: false, error: { code: 'UNSAFE_CONTENT', details: { issues: [{ path: /^menus\[0\]\.items/ }] } } },
  )
  t.match(
    decideNavigation(current, { menus: [{ handle: 'main', title: '<img src=x onerror=alert(1)>', items: [] }] }, at),
    { ok: false, error: { code: 'UNSAFE_CONTENT' } },
  )
  const many = Array.from({ length: 10 }, (_, i) => ({ handle: `m${i}`, items: [] }))
  t.match(decideNavigation(current, { menus: many }, at), { ok: false, error: { code: 'LIMIT_EXCEEDED' } })
})
