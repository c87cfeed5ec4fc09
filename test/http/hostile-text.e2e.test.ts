import t from 'tap'
import { contractOperation } from './support/contract.ts'
import { operationCases } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld, type Req } from './support/world.ts'

// Text that PostgreSQL cannot store (NUL characters, lone UTF-16 surrogates) must be refused as
// input, never reach SQL or a jsonb column and come back as 500. Deterministic companions of the
// fuzz test, one request per place such text can enter: path ids, query strings, body strings.

const NUL_IDS = ['%00', 'abc%00def', '%00%01%1F']
const LONE = ['\ud800', 'name \udb8d here', '\udc00\ud800']

t.test('NUL characters in path ids answer 400 or 404, never 500', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const wrong: string[] = []
  const withIds = operationCases.filter((c) => contractOperation(c.operationId).path.includes('{'))
  for (const c of withIds) {
    const base = c.base(w.ids)
    const segments = base.url.split('/')
    // Every id segment of the path, in turn (themes/{id}, pages/{pageId}, sections/{sectionId}...).
    const idPositions = segments.map((s, i) => (Object.values(w.ids).includes(s) ? i : -1)).filter((i) => i >= 0)
    for (const position of idPositions) {
      for (const bad of NUL_IDS) {
        const url = segments.map((s, i) => (i === position ? bad : s)).join('/')
        const events = await w.stateEventCount()
        const res = await w.call({ ...base, url })
        if (res.statusCode !== 400 && res.statusCode !== 404)
          wrong.push(`${c.operationId} ${base.method} ${url}: ${res.statusCode}`)
        if (envelopeProblems(res).length > 0) wrong.push(`${c.operationId} ${url}: ${envelopeProblems(res).join('; ')}`)
        if ((await w.stateEventCount()) !== events) wrong.push(`${c.operationId} ${url}: applied something`)
      }
    }
  }
  t.same(wrong, [], 'every path id with a NUL answers 400 or 404, in the envelope, and applies nothing')
})

t.test('NUL characters in query strings answer 400, never 500', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const wrong: string[] = []
  for (const url of [
    '/api/v1/products?query=%00',
    '/api/v1/products?collectionId=%00',
    '/api/v1/products?query=a%00b',
    `/api/v1/themes/${w.ids.draftId}/sections?pageId=%00`,
    '/api/v1/orders?cursor=%00',
  ]) {
    const res = await w.call({ method: 'GET', url })
    if (res.statusCode !== 400 && res.statusCode !== 200) wrong.push(`GET ${url}: ${res.statusCode}`)
  }
  t.same(wrong, [], 'a NUL in a query value answers 400 (or an empty 200), never 500')
})

t.test('lone surrogates in body strings are refused (or stored readably), never 500', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const draft = `/api/v1/themes/${w.ids.draftId}`
  const bodies: [string, (s: string) => Req][] = [
    ['createTheme name', (s) => ({ method: 'POST', url: '/api/v1/themes', payload: { name: s, provider: 'tap' } })],
    ['updateTheme name', (s) => ({ method: 'PATCH', url: draft, payload: { name: s } })],
    [
      'duplicateTheme name',
      (s) => ({ method: 'POST', url: `/api/v1/themes/${w.ids.activeThemeId}/duplicate`, payload: { name: s } }),
    ],
    [
      'createThemePage title',
      (s) => ({
        method: 'POST',
        url: `${draft}/pages`,
        payload: { slug: `s${Math.random().toString(36).slice(2, 8)}`, title: s },
      }),
    ],
    [
      'section heading',
      (s) => ({ method: 'PATCH', url: `${draft}/sections/${w.ids.sectionId}`, payload: { settings: { heading: s } } }),
    ],
    [
      'batch: page title',
      (s) => ({
        method: 'POST',
        url: `${draft}/batch`,
        payload: { operations: [{ op: 'updatePage', pageId: w.ids.pageId, changes: { title: s } }] },
      }),
    ],
    [
      'batch: unknown section id',
      (s) => ({
        method: 'POST',
        url: `${draft}/batch`,
        payload: { operations: [{ op: 'deleteSection', sectionId: s }] },
      }),
    ],
    [
      'navigation label',
      (s) => ({
        method: 'PATCH',
        url: '/api/v1/navigation',
        payload: { menus: [{ handle: 'footer', items: [{ label: s, href: '/' }] }] },
      }),
    ],
    [
      'media alt',
      (s) => ({
        method: 'POST',
        url: '/api/v1/media',
        payload: { url: `https://cdn.example.com/${Math.random().toString(36).slice(2)}.png`, alt: s },
      }),
    ],
    [
      'media url',
      (s) => ({ method: 'POST', url: '/api/v1/media', payload: { url: `https://cdn.example.com/${s}.png` } }),
    ],
  ]
  const wrong: string[] = []
  for (const [label, build] of bodies) {
    for (const s of LONE) {
      const req = build(s)
      // JSON.stringify escapes a lone surrogate as \udXXX: the service receives exactly that text.
      const res = await w.call({
        ...req,
        payload: JSON.stringify(req.payload),
        headers: { 'content-type': 'application/json' },
      })
      if (res.statusCode >= 500) wrong.push(`${label} ${JSON.stringify(s)}: ${res.statusCode}`)
      if (res.statusCode >= 400 && envelopeProblems(res).length > 0)
        wrong.push(`${label}: ${envelopeProblems(res).join('; ')}`)
    }
  }
  t.same(wrong, [], 'no lone surrogate in a body string gets a 5xx')
  const readable = await w.call({ method: 'GET', url: draft })
  t.equal(readable.statusCode, 200, 'the draft is still readable')
})

t.test('unstorable text is reported at its path, in a value or in a key, and nothing is applied', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const draft = `/api/v1/themes/${w.ids.draftId}`
  const before = (await w.call({ method: 'GET', url: draft })).json() as { data: { version: number } }
  const payload = {
    operations: [
      { op: 'updateSection', sectionId: w.ids.sectionId, settings: { heading: 'fine' } },
      { op: 'updateSection', sectionId: w.ids.sectionId, settings: { heading: 'a\u0000b', 'sub\ud800title': 'x' } },
    ],
  }
  const res = await w.call({
    method: 'POST',
    url: `${draft}/batch`,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json' },
  })
  t.equal(res.statusCode, 400)
  const error = (res.json() as { error: { code: string; details: { issues: { path: string; message: string }[] } } })
    .error
  t.equal(error.code, 'VALIDATION_FAILED')
  t.same(
    error.details.issues.map((i) => [i.path, i.message]),
    [
      ['operations[1].settings.heading', 'text may not contain NUL characters'],
      ['operations[1].settings.sub\ud800title', 'text is not well-formed Unicode (unpaired surrogate)'],
    ],
  )
  const after = (await w.call({ method: 'GET', url: draft })).json() as { data: { version: number } }
  t.equal(after.data.version, before.data.version, 'the first, clean operation was not applied either')
})
