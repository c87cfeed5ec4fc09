import t from 'tap'
import { z } from 'zod'
import { toJsonSchema } from '../../src/theme/sections.ts'
import {
  collectionIds,
  defineSection,
  image,
  plainText,
  productIds,
  richText,
  strictObject,
  url,
} from '../../src/theme/sections/fields.ts'
import { PLACEMENTS } from '../../src/theme/constants.ts'
import { createDraft, editorTestApp, editorUrl, launch, merchantPage } from './support.ts'

// Settings forms come from the JSON Schema the theme schema endpoint serves. A section type
// that exists only in this test (defined with the catalogue's own field builders and added to
// the schema the editor receives) gets a complete form with no change to the editor.

declare const document: any

const countdown = defineSection('countdown', {
  description: 'A countdown to a launch date, with products to look forward to.',
  templates: PLACEMENTS,
  settings: strictObject({
    title: plainText(160, 'What is counted down to.', { min: 1 }),
    days: z.int().min(1).max(90).meta({ description: 'Days left (1-90).' }),
    style: z.enum(['minimal', 'bold']).meta({ description: 'Look of the counter.' }),
    accent: z
      .string()
      .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/)
      .meta({ description: 'Accent colour.' }),
    showSeconds: z.boolean().meta({ description: 'Show seconds.' }).optional(),
    note: richText(2000, 'Text under the counter.').optional(),
    moreInfo: url('Where to learn more.').optional(),
    backdrop: image.optional(),
    productIds: productIds.optional(),
    collectionIds: collectionIds.optional(),
  }),
})

t.test('a section type added only in this test gets a generated form', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Forms draft')
  const product = (await env.api('GET', '/api/v1/products?limit=5&status=active')).json.data.products[0] as {
    id: string
    title: string
  }
  const { page, watch } = await merchantPage(browser, env, env.merchantA)

  await page.route('**/dashboard/themes/editor/api/themes/schema', async (route) => {
    const response = await route.fetch()
    const body = await response.json()
    body.data.sections.push({
      type: 'countdown',
      description: countdown.description,
      templates: [...countdown.templates],
      requiredIn: null,
      settingsSchema: toJsonSchema(countdown.settingsSchema),
      blocks: [],
    })
    await route.fulfill({ response, json: body })
  })
  // The draft, as the editor reads it, holds one countdown section (the service cannot: it does not know the type).
  await page.route(`**/dashboard/themes/editor/api/themes/${themeId}`, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback()
    const response = await route.fetch()
    const body = await response.json()
    body.data.document.templates.home.unshift({
      id: 'countdown-1',
      type: 'countdown',
      settings: { title: 'Launch', days: 5, style: 'minimal', accent: '#000000' },
    })
    await route.fulfill({ response, json: body })
  })
  const sent: any[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/batch')) sent.push(request.postDataJSON())
  })

  await page.goto(editorUrl(env, themeId))
  await page.getByRole('button', { name: 'Add section', exact: true }).click()
  t.ok(
    await page.getByText('A countdown to a launch date, with products to look forward to.').isVisible(),
    'the new type is offered with its description',
  )
  await page.getByRole('button', { name: 'Countdown: Launch', exact: true }).click()
  await page.locator('.settings h2', { hasText: 'Countdown: Launch' }).waitFor()

  const title = page.getByLabel('Title', { exact: true })
  t.equal(await title.getAttribute('type'), 'text', 'plain text: a text box')
  t.equal(await title.getAttribute('aria-required'), 'true', 'required')
  const days = page.getByLabel('Days', { exact: true })
  t.equal(await days.getAttribute('type'), 'number', 'integer: a number box')
  t.same(
    [await days.getAttribute('min'), await days.getAttribute('max'), await days.getAttribute('step')],
    ['1', '90', '1'],
    'with its bounds',
  )
  t.same(
    await page.getByLabel('Style', { exact: true }).locator('option').allInnerTexts(),
    ['Minimal', 'Bold'],
    'enum: a select of its values, in words',
  )
  t.equal(await page.getByLabel('Accent swatch').getAttribute('type'), 'color', 'hex colour: a colour picker')
  t.same(
    await page.getByLabel('Show seconds', { exact: true }).locator('option').allInnerTexts(),
    ['Default', 'Yes', 'No'],
    'optional boolean: default, yes or no',
  )
  t.equal(
    await page.getByLabel('Note', { exact: true }).getAttribute('contenteditable'),
    'true',
    'rich text: a rich text box',
  )
  t.ok(
    await page.getByRole('toolbar', { name: 'Note formatting' }).getByRole('button', { name: 'Bold' }).isVisible(),
    'with its formatting toolbar',
  )
  t.match(
    await page.locator('#f-settings-note-help').innerText(),
    /bold, italic, link/,
    'naming the formatting it allows',
  )
  t.equal(await page.getByLabel('More info', { exact: true }).getAttribute('inputmode'), 'url', 'URL: a URL box')
  t.ok(
    await page
      .getByRole('group', { name: 'Backdrop' })
      .getByRole('button', { name: 'Choose from library' })
      .isVisible(),
    'image: the media library',
  )
  t.ok(await page.getByPlaceholder('Search products').isVisible(), 'productIds: a product search picker, not an id box')
  t.ok(await page.getByPlaceholder('Search collections').isVisible(), 'collectionIds: a collection picker')

  await title.fill('Summer launch')
  await title.press('Enter')
  await days.fill('12')
  await days.press('Enter')
  await page.getByLabel('Style', { exact: true }).selectOption('bold')
  await page.getByLabel('Accent', { exact: true }).fill('#ff6600')
  await page.getByLabel('Accent', { exact: true }).press('Enter')
  await page.getByPlaceholder('Search products').fill(product.title.slice(0, 6))
  await page.getByRole('button', { name: `Add ${product.title}` }).click()
  // Each change is sent as the service expects it, with typed values; the service refuses them
  // (it does not know the section), which is not what this test is about.
  for (let i = 0; i < 100 && sent.length < 5; i++) await new Promise((resolve) => setTimeout(resolve, 100))
  const changed = Object.assign(
    {},
    ...sent.flatMap((b) => b.operations.filter((o: any) => o.op === 'updateSection').map((o: any) => o.settings)),
  )
  t.match(
    changed,
    { title: 'Summer launch', days: 12, style: 'bold', accent: '#ff6600', productIds: [product.id] },
    'the form sent typed values',
  )
  t.ok(
    sent.every((b) => b.operations.every((o: any) => o.op === 'updateSection' && o.sectionId === 'countdown-1')),
    'as changes of that section',
  )
  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
