import t from 'tap'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { Browser, EMAIL_A, passwordOf } from './support.ts'

// The pages say one thing about the live theme (issue 34, point 17): its publish page says it is
// live and offers a copy instead of "Goes live … Stops being live: nothing"; a preview of the live
// theme, at the version visitors see, is marked live, never "not live"; a draft's is still "not live".

const { app, services, keyA } = await testApp(t)
const a = new Browser(app, '10.34.17.1')
await a.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))

const live = await services.db
  .selectFrom('themes')
  .select(['theme_id', 'name', 'version'])
  .where('store_id', '=', STORE_A)
  .where('status', '=', 'active')
  .executeTakeFirstOrThrow()
const created = await app.inject({
  method: 'POST',
  url: '/api/v1/themes',
  headers: bearer(keyA),
  payload: { name: 'Autumn draft', provider: 'claude' },
})
const draftId = created.json().data.id as string
const bannerOf = (body: string) => /<div class="preview-banner"[\s\S]*?<\/div>/.exec(body)?.[0] ?? ''

t.test("the live theme's publish page says it is live and nothing else", async (t) => {
  const res = await a.get(`/dashboard/themes/${live.theme_id}/publish`)
  t.equal(res.statusCode, 200)
  t.match(res.body, `“${live.name}” is live`)
  t.notMatch(res.body, /Goes live|Stops being live|Publish version/, 'no confirmation for a publish that cannot happen')
  t.match(res.body, /Duplicate to edit a copy/)
  t.match(res.body, /href="\/s\/atlas"[^>]*>View store</)
})

t.test("a draft's publish page names what stops being live", async (t) => {
  const res = await a.get(`/dashboard/themes/${draftId}/publish`)
  t.match(res.body, new RegExp(`Stops being live</dt><dd><strong>${live.name}</strong>`))
  const left = /<iframe src="([^"]+)" title="Preview: Live now/.exec(res.body)?.[1]
  t.ok(left, 'the live side has a preview')
  const leftPage = await a.get(left!.replace(/&amp;/g, '&'))
  t.match(bannerOf(leftPage.body), /Live theme <strong>/)
  t.notMatch(bannerOf(leftPage.body), /not live/, 'the "Live now" preview is not called "not live"')
})

t.test('previews: the live theme is marked live, a draft and an old version are not', async (t) => {
  const now = await a.get(`/dashboard/themes/${live.theme_id}/preview`)
  t.match(bannerOf(now.body), /<span class="preview-pill">Live<\/span>/)
  t.match(bannerOf(now.body), /what visitors see now/)
  const draft = await a.get(`/dashboard/themes/${draftId}/preview`)
  t.match(bannerOf(draft.body), /Preview of <strong>Autumn draft<\/strong>.* — not live\./)
  if (live.version > 1) {
    const old = await a.get(`/dashboard/themes/${live.theme_id}/versions/1/preview`)
    t.match(bannerOf(old.body), /not live/, 'an earlier version of the live theme is not what visitors see')
  }
})

t.test('publishing the draft turns its preview live and the former live one not live', async (t) => {
  const before = await a.get(`/dashboard/themes/${draftId}/preview`)
  t.match(bannerOf(before.body), /not live/)
  await a.get(`/dashboard/themes/${draftId}/publish`)
  t.equal((await a.post(`/dashboard/themes/${draftId}/publish`, { expectedVersion: '1' })).statusCode, 303)
  t.match(bannerOf((await a.get(`/dashboard/themes/${draftId}/preview`)).body), /Live theme/)
  t.match(bannerOf((await a.get(`/dashboard/themes/${live.theme_id}/preview`)).body), /not live/)
})
