import t from 'tap'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { Browser, EMAIL_A, hiddenFields, liveThemeId, passwordOf } from './support.ts'

// Theme checks at the moment of publishing (issue 36 point 4): the merchant's confirmation lists
// the findings; with an error, only an explicit "Publish anyway" puts the version live, and the
// activity view says it went live with errors. An agent holding themes:publish may publish over
// errors: the answer lists them and the activity row says so too.

const DEAD_LINK = { primaryButton: { label: 'Shop the tent', href: '/products/no-such-tent' } }

t.test('publishing a version with check errors', async (t) => {
  const { app, services, key } = await testApp(t)
  const agent = await key(STORE_A)
  const browser = new Browser(app, '10.9.1.1')
  t.equal((await browser.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))).statusCode, 303)

  const liveId = () => liveThemeId(services, STORE_A)
  const draftWithDeadLink = async (name: string) => {
    const live = await liveId()
    const copy = await app.inject({
      method: 'POST',
      url: `/api/v1/themes/${live}/duplicate`,
      headers: bearer(agent),
      payload: { name },
    })
    const id = copy.json().data.id as string
    const batch = await app.inject({
      method: 'POST',
      url: `/api/v1/themes/${id}/batch`,
      headers: bearer(agent),
      payload: { operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: DEAD_LINK }] },
    })
    t.equal(batch.statusCode, 200, 'a dead link is accepted: checks never refuse an edit')
    return id
  }

  await t.test('the dashboard: listed, then only with an explicit "Publish anyway"', async (t) => {
    const id = await draftWithDeadLink('Dead link')
    const before = await liveId()
    const confirm = await browser.get(`/dashboard/themes/${id}/publish`)
    t.equal(confirm.statusCode, 200)
    t.match(confirm.body, 'Theme checks', 'the confirmation lists the checks')
    const checks = /<section class="checks"[\s\S]*?<\/section>/.exec(confirm.body)?.[0] ?? ''
    t.match(checks, 'no-such-tent', 'the dead link, in the checks (not only in the diff below)')
    t.notMatch(checks, /get_products|listProducts/, "the agents' fix is not shown to the merchant")
    t.match(checks, /How to fix: [^<]*Choose a page for this link/, "the editor's fix, in the merchant's words")
    t.match(confirm.body, 'Publish anyway', 'the button says what it does')
    t.match(confirm.body, /name="publishAnyway"[^>]*required/, 'the choice is a required field')

    const fields = hiddenFields(confirm.body, `/dashboard/themes/${id}/publish`)
    const refused = await browser.post(`/dashboard/themes/${id}/publish`, fields)
    t.ok(refused.statusCode >= 400 && refused.statusCode < 500, `without the choice: ${refused.statusCode}`)
    t.match(refused.body, 'Nothing was published')
    t.match(refused.body, /publish anyway/i, 'the message says how to go on')
    t.equal(await liveId(), before, 'nothing went live')

    const published = await browser.post(`/dashboard/themes/${id}/publish`, { ...fields, publishAnyway: 'yes' })
    t.equal(published.statusCode, 303, 'with the choice: published')
    t.equal(await liveId(), id, 'the version is live')
    const activity = await browser.get('/dashboard/developer/activity')
    t.match(activity.body, /Went live with 1 error found by the theme checks/, 'the activity view says so')
  })

  await t.test('a version without errors publishes as before', async (t) => {
    const live = await liveId()
    const copy = await app.inject({
      method: 'POST',
      url: `/api/v1/themes/${live}/duplicate`,
      headers: bearer(agent),
      payload: { name: 'Clean' },
    })
    const id = copy.json().data.id as string
    await app.inject({
      method: 'POST',
      url: `/api/v1/themes/${id}/batch`,
      headers: bearer(agent),
      payload: {
        operations: [
          {
            op: 'updateSection',
            sectionId: 'home-hero',
            settings: { primaryButton: { label: 'Shop', href: '/collections' } },
          },
        ],
      },
    })
    const confirm = await browser.get(`/dashboard/themes/${id}/publish`)
    t.notMatch(confirm.body, 'Publish anyway')
    const published = await browser.post(
      `/dashboard/themes/${id}/publish`,
      hiddenFields(confirm.body, `/dashboard/themes/${id}/publish`),
    )
    t.equal(published.statusCode, 303)
    t.equal(await liveId(), id)
  })

  await t.test('an agent with themes:publish may publish over errors; the answer lists them', async (t) => {
    const id = await draftWithDeadLink('Agent dead link')
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/themes/${id}/publish`,
      headers: bearer(agent),
      payload: {},
    })
    t.equal(res.statusCode, 200)
    const errors = res.json().data.checkErrors as { rule: string; severity: string }[]
    t.ok(errors.length >= 1, 'the errors it went live with')
    t.ok(
      errors.every((f) => f.severity === 'error'),
      'errors only',
    )
    t.ok(
      errors.some((f) => f.rule === 'broken-link'),
      'the dead link among them',
    )
    t.equal(await liveId(), id)
    const row = await services.db
      .selectFrom('developer_activity')
      .selectAll()
      .where('store_id', '=', STORE_A)
      .where('action', '=', 'publishTheme')
      .orderBy('first_position', 'desc')
      .executeTakeFirstOrThrow()
    t.match(JSON.stringify(row), /Went live with \d+ errors? found by the theme checks/, 'the activity row says so')
  })
})
