import t from 'tap'
import { newSection } from '../../src/editor/client/changes.ts'
import type { SectionTypeInfo } from '../../src/editor/client/types.ts'
import { sectionDefaults } from '../../src/theme/section-defaults.ts'
import { testApp } from '../support/app.ts'

// issue 34 point 9: the editor adds a section the moment the merchant picks its type, with the
// renderer's defaults (src/theme/section-defaults.ts) and a start for each required setting. That
// only works if the service accepts every such new section as it is: each type is tried as a
// dry-run batch in every template it is offered in.

t.test('every section type the editor offers is accepted with its starting settings', async (t) => {
  const app = await testApp(t, { plugins: false })
  const headers = { authorization: `Bearer ${app.keyA}`, 'content-type': 'application/json' }
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await app.app.inject({ method, url, headers, ...(body ? { payload: JSON.stringify(body) } : {}) })
    return { status: res.statusCode, json: res.json() }
  }
  const schema = (await call('GET', '/api/v1/themes/schema')).json.data as { sections: SectionTypeInfo[] }
  const theme = await call('POST', '/api/v1/themes', { name: 'Defaults', provider: 'custom' })
  const themeId = theme.json.data.id as string
  const product = (await call('GET', '/api/v1/products?status=active&limit=1')).json.data.products[0].id as string
  const collection = (await call('GET', '/api/v1/collections?limit=1')).json.data.collections[0].id as string
  const media = (await call('GET', '/api/v1/media?limit=1')).json.data.media[0] as { themeUrl: string; alt: string }
  const samples = { product, collection, image: { url: media.themeUrl, alt: media.alt } }
  const offered = schema.sections.filter((s) => !s.requiredIn)
  t.ok(offered.length >= 10, 'the catalogue offers the section types')
  for (const info of offered) {
    const section = newSection(info, samples)
    for (const [key, value] of Object.entries(sectionDefaults(info.type)))
      if (info.settingsSchema.properties?.[key])
        t.equal(section.settings[key], value, `${info.type}: ${key} starts at its default`)
    const template = info.templates[0]!
    const result = await call('POST', `/api/v1/themes/${themeId}/batch`, {
      dryRun: true,
      operations: [{ op: 'createSection', target: { template }, index: 0, section }],
    })
    t.equal(
      result.status,
      200,
      `${info.type} is accepted as the editor adds it${result.status === 200 ? '' : `: ${JSON.stringify(result.json.error?.details?.issues ?? result.json.error)}`}`,
    )
  }
})
