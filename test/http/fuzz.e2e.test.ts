import t from 'tap'
import { mulberry32 } from '../../src/seed/images.ts'
import { validateThemeDocument } from '../../src/theme/validate.ts'
import { envelopeProblems, makeWorld, type Ids, type Req, type Res, type World } from './support/world.ts'

// Malformed requests against every mutating endpoint: wrong types, huge strings, deep nesting,
// broken JSON, odd headers, hostile keys, garbage ids and random batch operation lists. None may
// answer 5xx; a refused request changes nothing (no state event appended: the audit of a refused
// command, CommandRejected, is the only row a refusal may add); a request that happens to be
// valid may apply, and then it answered 2xx. Reproduce a failure with FUZZ_SEED=<seed>.

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const COUNT = Number(process.env.FUZZ_COUNT ?? 5000)
t.comment(`fuzz seed ${SEED} (rerun with FUZZ_SEED=${SEED}), ${COUNT} requests`)

type Rng = () => number
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const chance = (r: Rng, p: number) => r() < p

const WEIRD_STRINGS = [
  '',
  ' ',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '\u0000\u0001\u001f',
  '\ud800',
  '🙂'.repeat(50),
  'ﷺ'.repeat(30),
  '../../etc/passwd',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}{{7*7}}',
  "'; drop table events; --",
  '__proto__',
  'constructor',
  'prd_invented',
  '#zzzzzz',
  'NaN',
  '1e309',
  '\\u0000',
]
// At most `max` UTF-16 code units (long ones only where a field may be long: a huge string
// everywhere would cost more to build than to send).
const randomString = (r: Rng, max = 200_000): string => {
  switch (int(r, 0, 4)) {
    case 0:
      return pick(r, WEIRD_STRINGS).slice(0, max)
    case 1:
      return pick(r, ['A', 'é', '<', '🙂', '\n', 'x'])
        .repeat(int(r, Math.min(100, max), max))
        .slice(0, max)
    case 2:
      return Array.from({ length: int(r, 1, Math.min(40, max)) }, () => String.fromCharCode(int(r, 0, 0xffff))).join('')
    default:
      return Math.floor(r() * 1e12)
        .toString(36)
        .slice(0, max)
  }
}
const randomScalar = (r: Rng): unknown =>
  pick(r, [
    () => null,
    () => true,
    () => false,
    () => int(r, -1e9, 1e9),
    () => r() * 1e300,
    () => -0,
    () => 1.5,
    () => Number.MAX_SAFE_INTEGER + 2,
    () => randomString(r, chance(r, 0.05) ? 100_000 : 300),
  ])()
const randomValue = (r: Rng, depth = 0): unknown => {
  if (depth > 3 || chance(r, 0.5)) return randomScalar(r)
  if (chance(r, 0.5)) return Array.from({ length: int(r, 0, 4) }, () => randomValue(r, depth + 1))
  return Object.fromEntries(
    Array.from({ length: int(r, 0, 4) }, () => [
      pick(r, ['type', 'settings', 'id', 'op', 'href', 'label', 'price', 'onclick', '__proto__', randomString(r, 20)]),
      randomValue(r, depth + 1),
    ]),
  )
}
// Deep nesting is spliced into the JSON text (building it as objects would overflow the test's
// own JSON.stringify): a marker string stands for it until the body is serialized.
const DEEP = '\u0000deep-marker\u0000'
const deepJson = (r: Rng, depth: number) =>
  chance(r, 0.5) ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

const SECTION_TYPES = [
  'hero',
  'product-grid',
  'rich-text',
  'featured-product',
  'collection-list',
  'spacer',
  'faq',
  'unknown-type',
  'product-details',
  'script',
]
const OP_NAMES = [
  'createPage',
  'updatePage',
  'deletePage',
  'createSection',
  'updateSection',
  'deleteSection',
  'moveSection',
  'updateTokens',
  'setNavigation',
  'publish',
  'deleteTheme',
]

// Random batch operations: some well-formed (they may apply), most not.
const randomOperation = (r: Rng, ids: Ids): unknown => {
  const op = pick(r, OP_NAMES)
  const target = pick(r, [
    { template: 'home' },
    { template: pick(r, ['product', 'cart', 'blogPost']) },
    { pageId: ids.pageId },
    { pageId: randomString(r, 30) },
    randomValue(r),
  ])
  const section = {
    type: pick(r, SECTION_TYPES),
    settings: chance(r, 0.5)
      ? {
          heading: randomString(r, 200),
          height: int(r, -10, 300),
          body: pick(r, ['<p>ok</p>', '<p onclick="x">no</p>', randomString(r, 5000)]),
          productId: pick(r, [ids.productId, 'prd_invented']),
          price: 10,
        }
      : randomValue(r),
  }
  const base: Record<string, unknown> = { op }
  const fields: Record<string, () => unknown> = {
    page: () => ({
      slug: pick(r, ['about', 'checkout', 'x'.repeat(100), randomString(r, 70)]),
      title: randomString(r, 250),
      status: pick(r, ['draft', 'published', 'live']),
      layout: [section],
    }),
    pageId: () => pick(r, [ids.pageId, randomString(r, 80)]),
    changes: () => (chance(r, 0.5) ? { title: randomString(r, 250) } : randomValue(r)),
    target: () => target,
    index: () => pick(r, [0, 1, -1, 1e9, 1.5, '0']),
    section: () => section,
    sectionId: () => pick(r, [ids.sectionId, randomString(r, 80)]),
    settings: () => section.settings,
    blocks: () =>
      Array.from({ length: int(r, 0, 60) }, () => ({
        type: pick(r, ['item', 'question', randomString(r, 70)]),
        settings: randomValue(r),
      })),
    tokens: () =>
      chance(r, 0.5)
        ? {
            primaryColor: pick(r, ['#123456', 'red', 'url(javascript:x)', randomString(r, 30)]),
            font: pick(r, ['Lato', 'Comic Sans']),
          }
        : randomValue(r),
    navigation: () =>
      Array.from({ length: int(r, 0, 25) }, () => ({
        label: randomString(r, 80),
        href: pick(r, [
          '/',
          '/products',
          'javascript:alert(1)',
          '//evil.example',
          'https://ok.example',
          randomString(r, 50),
        ]),
        children: chance(r, 0.2) ? [{ label: 'c', href: '/', children: [] }] : undefined,
      })),
  }
  for (const name of Object.keys(fields)) if (chance(r, 0.35)) base[name] = fields[name]!()
  return base
}

// Path segments: a lone surrogate cannot be percent-encoded; make it well-formed first.
const enc = (s: string) => encodeURIComponent(s.toWellFormed())

type Endpoint = { name: string; build: (r: Rng, ids: Ids) => Req }
const theme = (r: Rng, ids: Ids) =>
  `/api/v1/themes/${enc(pick(r, [ids.draftId, ids.draftId, ids.draftId, ids.activeThemeId, 'thm_nope', randomString(r, 60)]))}`
// Archive and publish end a draft's editability: they aim at the working draft only rarely.
const rareDraft = (r: Rng, ids: Ids) =>
  `/api/v1/themes/${enc(chance(r, 0.03) ? ids.draftId : pick(r, [ids.activeThemeId, 'thm_nope', randomString(r, 60)]))}`
const endpoints: Endpoint[] = [
  {
    name: 'createTheme',
    build: (r) => ({
      method: 'POST',
      url: '/api/v1/themes',
      payload: { name: randomString(r, 150), provider: pick(r, ['tap', 'claude', '', '!!', randomString(r, 100)]) },
    }),
  },
  {
    name: 'updateTheme',
    build: (r, ids) => ({
      method: 'PATCH',
      url: theme(r, ids),
      payload: { name: randomString(r, 150), tokens: randomValue(r), navigation: randomValue(r) },
    }),
  },
  {
    name: 'archiveTheme',
    build: (r, ids) => ({
      method: 'DELETE',
      url: rareDraft(r, ids),
      payload: chance(r, 0.3) ? randomValue(r) : undefined,
    }),
  },
  {
    name: 'duplicateTheme',
    build: (r, ids) => ({
      method: 'POST',
      url: `${theme(r, ids)}/duplicate`,
      payload: { name: randomValue(r), provider: randomValue(r) },
    }),
  },
  {
    name: 'publishTheme',
    build: (r, ids) => ({
      method: 'POST',
      url: `${rareDraft(r, ids)}/publish`,
      payload: { expectedVersion: randomScalar(r), extra: randomValue(r) },
    }),
  },
  {
    name: 'createThemePreviewToken',
    build: (r, ids) => ({ method: 'POST', url: `${theme(r, ids)}/preview-token`, payload: randomValue(r) }),
  },
  {
    name: 'applyThemeBatch',
    build: (r, ids) => ({
      method: 'POST',
      url: `${theme(r, ids)}/batch`,
      payload: {
        operations: Array.from({ length: pick(r, [0, 1, 2, 5, 20, 101, 150]) }, () => randomOperation(r, ids)),
        dryRun: pick(r, [true, false, 'yes', undefined]),
        expectedVersion: pick(r, [undefined, 1, -1, 'x']),
      },
    }),
  },
  {
    name: 'createThemePage',
    build: (r, ids) => ({
      method: 'POST',
      url: `${theme(r, ids)}/pages`,
      payload: (randomOperation(r, ids) as any).page ?? randomValue(r),
    }),
  },
  {
    name: 'updateThemePage',
    build: (r, ids) => ({
      method: 'PATCH',
      url: `${theme(r, ids)}/pages/${enc(pick(r, [ids.pageId, randomString(r, 80)]))}`,
      payload: (randomOperation(r, ids) as any).changes ?? randomValue(r),
    }),
  },
  {
    name: 'deleteThemePage',
    build: (r, ids) => ({
      method: 'DELETE',
      url: `${theme(r, ids)}/pages/${enc(pick(r, ['nope', randomString(r, 80)]))}`,
    }),
  },
  {
    name: 'createThemeSection',
    build: (r, ids) => ({
      method: 'POST',
      url: `${theme(r, ids)}/sections`,
      payload: { target: (randomOperation(r, ids) as any).target, section: randomValue(r), index: randomScalar(r) },
    }),
  },
  {
    name: 'updateThemeSection',
    build: (r, ids) => ({
      method: 'PATCH',
      url: `${theme(r, ids)}/sections/${enc(pick(r, [ids.sectionId, randomString(r, 80)]))}`,
      payload: { settings: randomValue(r), blocks: randomValue(r), index: randomScalar(r) },
    }),
  },
  {
    name: 'deleteThemeSection',
    build: (r, ids) => ({
      method: 'DELETE',
      url: `${theme(r, ids)}/sections/${enc(pick(r, ['nope', randomString(r, 80)]))}`,
    }),
  },
  {
    name: 'uploadMedia',
    build: (r) => ({
      method: 'POST',
      url: '/api/v1/media',
      payload: {
        url: pick(r, ['https://cdn.example.com/x.png', 'javascript:alert(1)', randomString(r, 3000)]),
        dataBase64: chance(r, 0.3) ? randomString(r, 50_000) : undefined,
        alt: randomValue(r),
      },
    }),
  },
  {
    name: 'updateNavigation',
    build: (r, ids) => ({
      method: 'PATCH',
      url: '/api/v1/navigation',
      payload: {
        menus: Array.from({ length: int(r, 0, 12) }, () => ({
          handle: pick(r, ['main', 'footer', 'Main', randomString(r, 40)]),
          title: randomValue(r),
          items: (randomOperation(r, ids) as any).navigation ?? randomValue(r),
        })),
      },
    }),
  },
]

// Mutations of a request: each makes it malformed in one more way.
type FuzzReq = Req & { raw?: string; deep?: string }
type Mutator = (r: Rng, req: FuzzReq) => void
const setRandomField = (r: Rng, obj: unknown, value: unknown) => {
  let node = obj as Record<string, unknown>
  for (let i = 0; i < 4; i++) {
    if (!node || typeof node !== 'object') return
    const keys = Object.keys(node)
    if (keys.length === 0 || chance(r, 0.3)) break
    const k = pick(r, keys)
    if (node[k] && typeof node[k] === 'object' && chance(r, 0.6)) node = node[k] as Record<string, unknown>
    else {
      node[k] = value
      return
    }
  }
  if (node && typeof node === 'object')
    node[chance(r, 0.5) ? pick(r, Object.keys(node).concat('x')) : randomString(r, 20)] = value
}
const mutators: Record<string, Mutator> = {
  wrongType: (r, req) => setRandomField(r, req.payload, randomScalar(r)),
  hugeString: (r, req) =>
    setRandomField(r, req.payload, pick(r, ['x', '<', '🙂']).repeat(pick(r, [10_000, 100_000, 400_000, 1_100_000]))),
  deepNesting: (r, req) => {
    req.deep = deepJson(r, pick(r, [50, 500, 2000, 10_000, 50_000]))
    setRandomField(r, req.payload, DEEP)
  },
  hostileKeys: (r, req) =>
    setRandomField(
      r,
      req.payload,
      JSON.parse(
        pick(r, [
          '{"__proto__":{"polluted":true}}',
          '{"constructor":{"prototype":{"polluted":true}}}',
          '{"storeId":"st_demo_lumen"}',
          '{"price":1,"inventory":5}',
        ]),
      ),
    ),
  dropField: (r, req) => {
    const p = req.payload as Record<string, unknown> | undefined
    if (p && typeof p === 'object' && !Array.isArray(p)) delete p[pick(r, Object.keys(p).concat('x'))]
  },
  replaceBody: (r, req) => {
    req.payload = pick(r, [() => randomValue(r), () => [], () => 'a string', () => 42, () => null])()
  },
  badJson: (r, req) => {
    const text = JSON.stringify(req.payload ?? {})
    req.raw = pick(r, [
      () => text.slice(0, int(r, 0, Math.max(0, text.length - 1))),
      () => `${text},`,
      () => `\ufeff${text}`,
      () => text.replace(/"/g, "'"),
      () => `${text}${text}`,
      () => text.replace(/:/, '::'),
      () => `{"a":${'['.repeat(int(r, 10, 100_000))}`,
      () => `${text.slice(0, 1)}\u0000${text.slice(1)}`,
      () => 'undefined',
      () => `{"a": 1e99999}`,
    ])()
  },
  oddHeaders: (r, req) => {
    const headers = (req.headers ??= {})
    const name = pick(r, [
      'content-type',
      'if-match',
      'idempotency-key',
      'x-request-id',
      'accept',
      'content-encoding',
      'authorization',
    ])
    const values: Record<string, string[]> = {
      'content-type': [
        'text/plain',
        'application/json; charset=utf-16',
        'application/json, text/plain',
        'application/vnd.api+json',
        'application/json;;',
        'APPLICATION/JSON',
        'multipart/form-data',
        'application/x-www-form-urlencoded',
      ],
      'if-match': ['abc', '"', '"1"', 'W/"999999999"', '"99999999999999"', '*, "1"', '"-1"'],
      'idempotency-key': ['short', 'k'.repeat(300), 'fuzz key with spaces ok', `fuzz-${int(r, 0, 20)}-key`],
      'x-request-id': ['x'.repeat(500), 'bad id', 'ok-id', ''],
      accept: ['text/html', 'application/xml', '*/*'],
      'content-encoding': ['gzip', 'br', 'identity'],
      authorization: ['Bearer', 'Bearer sk_live_x', 'Basic Zm9vOmJhcg==', 'Bearer  '],
    }
    headers[name] = pick(r, values[name]!)
  },
  garbageRandomOps: (r, req) => {
    if (req.url.endsWith('/batch'))
      req.payload = { operations: Array.from({ length: int(r, 1, 30) }, () => randomValue(r)) }
    else setRandomField(r, req.payload, randomValue(r))
  },
}
const MUTATORS = Object.keys(mutators)

t.test(`fuzz: ${COUNT} malformed requests against the mutating endpoints`, async (t) => {
  const w: World = await makeWorld(t, { plugins: false })
  const r = mulberry32(SEED)
  const auth = `Bearer ${w.keyA}`
  const stats: Record<string, number> = {}
  const failures: string[] = []
  let ids = w.ids
  // State events since the previous look (a count of the whole log after each of 5,000 requests
  // was half of this file's time); the first look counts the events before the first request.
  const newStateEvents = w.newStateEventCounter()
  let stateEvents = await newStateEvents()
  const allEvents0 = await w.eventCount()
  let applied = 0

  for (let i = 0; i < COUNT; i++) {
    const endpoint = pick(r, endpoints)
    const req = endpoint.build(r, ids) as FuzzReq
    const applyCount = int(r, 1, 3)
    const used: string[] = []
    for (let m = 0; m < applyCount; m++) {
      const name = pick(r, MUTATORS)
      used.push(name)
      mutators[name]!(r, req)
    }
    const label = `#${i} ${endpoint.name} [${used.join(', ')}]`
    let body: string | undefined
    if (req.raw !== undefined) body = req.raw
    else if (req.payload !== undefined) body = JSON.stringify(req.payload)
    if (body !== undefined && req.deep !== undefined) body = body.replace(JSON.stringify(DEEP), req.deep)
    const headers: Record<string, string> = {
      authorization: auth,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...req.headers,
    }
    let res: Res
    try {
      res = (await w.app.inject({
        method: req.method as 'POST',
        url: req.url,
        headers,
        ...(body !== undefined ? { payload: body } : {}),
      })) as unknown as Res
    } catch (error) {
      failures.push(`${label}: inject threw ${(error as Error).message}`)
      continue
    }
    const key = `${res.statusCode}`
    stats[key] = (stats[key] ?? 0) + 1
    const now = stateEvents + (await newStateEvents())
    if (res.statusCode >= 500) {
      failures.push(
        `${label}: ${res.statusCode} ${res.body.slice(0, 200)}${now !== stateEvents ? ` and ${now - stateEvents} state event(s) appended` : ''} (request ${req.method} ${req.url.slice(0, 200)} ${(body ?? '').slice(0, 300)})`,
      )
      stateEvents = now
      continue
    }
    if (res.statusCode >= 200 && res.statusCode < 300) {
      if (now !== stateEvents) applied++
      stateEvents = now
      // A valid publish or archive of the working draft ends its editability: start a new one.
      if (
        (req.method === 'POST' && req.url.endsWith('/publish')) ||
        (req.method === 'DELETE' && /^\/api\/v1\/themes\/[^/]+$/.test(req.url))
      ) {
        const draft = await w.setup(w.ids.storeId, { method: 'GET', url: `/api/v1/themes/${ids.draftId}` })
        if (draft.status !== 'draft') ids = await w.idsOf(w.ids.storeId).catch(() => ids)
        stateEvents += await newStateEvents()
      }
      continue
    }
    if (now !== stateEvents)
      failures.push(`${label}: refused with ${res.statusCode} but ${now - stateEvents} state event(s) were appended`)
    stateEvents = now
    const problems = envelopeProblems(res)
    // A replayed refusal (Idempotency-Key reused by the fuzzer) carries the first request's id.
    const relevant = res.headers['idempotent-replayed'] ? problems.filter((p) => !p.startsWith('requestId')) : problems
    if (relevant.length > 0) failures.push(`${label}: ${res.statusCode} envelope: ${relevant.join('; ')}`)
    if (failures.length > 50) break
  }

  t.comment(
    `statuses: ${JSON.stringify(stats)}; ${applied} valid request(s) applied; ${(await w.eventCount()) - allEvents0 - 0} event rows appended in all (CommandRejected audit rows included)`,
  )
  for (const failure of failures) t.fail(failure)
  t.equal(failures.length, 0, `no 5xx, no change on refusal, error envelope (seed ${SEED})`)
  t.ok(
    Object.values(stats).reduce((a, b) => a + b, 0) >= Math.min(COUNT, 5000) || failures.length > 0,
    'every request answered',
  )

  // Nothing unsafe got in: every theme of the store still validates, and the prototype is clean.
  const themes = (await w.setup(w.ids.storeId, { method: 'GET', url: '/api/v1/themes?includeArchived=true' })).themes
  for (const th of themes) {
    const full = await w.setup(w.ids.storeId, { method: 'GET', url: `/api/v1/themes/${th.id}` })
    const checked = validateThemeDocument(full.document, { productIds: new Set(), collectionIds: new Set() })
    const unsafe = checked.ok
      ? []
      : checked.issues.filter(
          (i) => i.code !== 'INVALID_PRODUCT_REFERENCE' && i.code !== 'INVALID_COLLECTION_REFERENCE',
        )
    t.same(unsafe, [], `theme ${th.id} (${th.status}) still validates`)
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is not polluted')
  const health = await w.call({ method: 'GET', url: '/api/v1/context' })
  t.equal(health.statusCode, 200, 'the service still answers')
})
