import t from 'tap'
import { bearer, testApp } from '../support/app.ts'

t.test('an agent creates, edits, previews and (with the scope) publishes a theme over REST', async (t) => {
  const { app, keyA, key } = await testApp(t, { plugins: false })
  const limited = await key('st_demo_atlas', [
    'store:read',
    'products:read',
    'themes:read',
    'themes:create',
    'themes:write',
    'themes:preview',
  ])
  const ctx = await app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(limited) })
  t.equal(ctx.statusCode, 200)
  t.equal(ctx.json().data.workflow.next[1].action, 'createTheme')
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/themes',
    headers: bearer(limited),
    payload: { name: 'Spring', provider: 'claude' },
  })
  t.equal(created.statusCode, 201)
  const id = created.json().data.id
  const product = (
    await app.inject({ method: 'GET', url: '/api/v1/products?limit=1', headers: bearer(limited) })
  ).json().data.products[0].id
  const batch = await app.inject({
    method: 'POST',
    url: `/api/v1/themes/${id}/batch`,
    headers: bearer(limited),
    payload: {
      operations: [
        {
          op: 'createSection',
          target: { template: 'home' },
          index: 0,
          section: { type: 'featured-product', settings: { productId: product } },
        },
      ],
    },
  })
  t.equal(batch.statusCode, 200, batch.body)
  t.equal(batch.json().data.theme.document.templates.home[0].settings.productId, product)
  const preview = await app.inject({
    method: 'POST',
    url: `/api/v1/themes/${id}/preview-token`,
    headers: bearer(limited),
  })
  t.equal(preview.statusCode, 201)
  t.match(preview.json().data.previewUrl, /^http:\/\/storefront\.test\/preview\/[\w-]+\.[\w-]+\.[\w-]+$/)
  const refused = await app.inject({ method: 'POST', url: `/api/v1/themes/${id}/publish`, headers: bearer(limited) })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().error.code, 'INSUFFICIENT_SCOPE')
  const published = await app.inject({ method: 'POST', url: `/api/v1/themes/${id}/publish`, headers: bearer(keyA) })
  t.equal(published.statusCode, 200)
  t.equal(published.json().data.status, 'active')
})

t.test('an uploaded image’s themeUrl is accepted in a theme as it is', async (t) => {
  const { app, keyA } = await testApp(t, { plugins: false })
  const media = (await app.inject({ method: 'GET', url: '/api/v1/media?limit=1', headers: bearer(keyA) })).json().data
    .media[0]
  t.match(media.url, /^http:\/\/storefront\.test\/media\/[0-9a-f]{64}\.png$/)
  t.match(media.themeUrl, /^\/media\/[0-9a-f]{64}\.png$/)
  const image = await app.inject({ method: 'GET', url: media.themeUrl })
  t.equal(image.statusCode, 200)
  t.equal(image.headers['content-type'], 'image/png')
  const theme = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/themes',
      headers: bearer(keyA),
      payload: { name: 'With logo', provider: 'test' },
    })
  ).json().data
  const patched = await app.inject({
    method: 'PATCH',
    url: `/api/v1/themes/${theme.id}`,
    headers: bearer(keyA),
    payload: { tokens: { logo: media.themeUrl } },
  })
  t.equal(patched.statusCode, 200, patched.body)
  t.equal(patched.json().data.document.theme.logo, media.themeUrl)
})
