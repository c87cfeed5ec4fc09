import t from 'tap'
import { pageRequest } from '../../src/render/routes.ts'

// The parsed-request memo: a repeated request skips the parse, but odd URLs cannot grow it
// (long ones are not kept, and it starts over past 5,000 entries).

t.test('a repeated request gets the same parsed request, frozen', async (t) => {
  const first = pageRequest('/products', 'page=2&sort=price-asc')
  t.equal(pageRequest('/products', 'page=2&sort=price-asc'), first, 'kept')
  t.ok(
    Object.isFrozen(first) && Object.isFrozen(first.route) && Object.isFrozen(first.query),
    'nobody can change what others share',
  )
  t.not(pageRequest('/products', 'page=3&sort=price-asc').pageKey, first.pageKey, 'another query: another cache key')
})

t.test('long paths and queries are parsed but not kept', async (t) => {
  const long = `q=${'x'.repeat(600)}`
  const a = pageRequest('/collections', long)
  const b = pageRequest('/collections', long)
  t.not(a, b, 'parsed again')
  t.same(a, b, 'to the same result')
})

t.test('past 5,000 entries the memo starts over', async (t) => {
  const first = pageRequest('/products/prod_bound', '')
  for (let i = 0; i < 5000; i++) pageRequest(`/products/prod_${i}`, '')
  const again = pageRequest('/products/prod_bound', '')
  t.not(again, first, 'the early entry was dropped')
  t.same(again, first, 'and parses the same')
})
