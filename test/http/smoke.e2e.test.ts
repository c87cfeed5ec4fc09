import t from 'tap'
import { bearer, testApp } from '../support/app.ts'

t.test('an agent creates, edits, previews and (with the scope) publishes a theme over REST', async (t) => {
  const { app, keyA, key } = await testApp(t, { plugins: false })
  const limited = await key('st_demo_atlas', ['store:read', 'products:read', 'themes:read', 'themes:create', 'themes:write', 'themes:preview'])
  const ctx = await app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(limited) })
  t.equal(ctx.statusCode, 200)
  t.equal(ctx.json().data.workflow.next[1].action, 'createTheme')
  const created = await app.inject({ method: 'POST', url: '/api/v1/themes', headers: bearer(limited), payload: { name: 'Spring', provider: 'claude' } })
  t.equal(created.statusCode, 201)
  const id = created.json().data.id
  const product = (await app.inject({ method: 'GET', url: '/api/v1/products?limit=1', headers: bearer(limited) })).json().data.products[0].id
  const batch = await app.inject({
    method: 'POST',
    url: `/api/v1/themes/${id}/batch`,
    headers: bearer(limited),
    payload: { operations: [{ op: 'createSection', target: { template: 'home' }, index: 0, section: { type: 'featured-product', settings: { productId: product } } }] },
  })
  t.equal(batch.statusCode, 200, batch.body)
  t.equal(batch.json().data.theme.document.templates.home[0].settings.productId, product)
  const preview = await app.inject({ method: 'POST', url: `/api/v1/themes/${id}/preview-token`, headers: bearer(limited) })
  t.equal(preview.statusCode, 201)
  t.match(preview.json().data.previewUrl, /^http:\/\/storefront\.test\/preview\/[\w-]+\.[\w-]+\.[\w-]+$/)
  const refused = await app.inject({ method: 'POST', url: `/api/v1/themes/${id}/publish`, headers: bearer(limited) })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().error.code, 'INSUFFICIENT_SCOPE')
  const published = await app.inject({ method: 'POST', url: `/api/v1/themes/${id}/publish`, headers: bearer(keyA) })
  t.equal(published.statusCode, 200)
  t.equal(published.json().data.status, 'active')
})
