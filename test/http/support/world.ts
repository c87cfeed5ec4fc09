import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { SCOPES, type Scope } from '../../../src/auth/scopes.ts'
import { STORE_A, STORE_B, testApp, type TestApp } from '../../support/app.ts'

// Shared by the REST test files: a seeded app, requests with freshly minted keys (so a tight
// rate limit never runs out in the middle of a test), and stable resources of each store.

// remoteAddress: random when omitted, so requests without a credential (counted per client
// address) do not share one rate-limit budget.
export type Req = {
  method: string
  url: string
  payload?: unknown
  headers?: Record<string, string>
  remoteAddress?: string
}
export type Res = {
  statusCode: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
  json: () => any
}

// The resources a request aims at: a store's live theme, a draft with a known page and a known
// section, and real catalog and order ids.
export type Ids = {
  storeId: string
  activeThemeId: string
  draftId: string
  pageId: string
  sectionId: string
  productId: string
  collectionId: string
  orderId: string
}

export type CallOptions = {
  // The key's scopes (all when omitted) and store (STORE_A when omitted).
  scopes?: readonly Scope[]
  store?: string
  // A literal Authorization header, or null for none.
  auth?: string | null
}

export type World = TestApp & {
  call: (req: Req, opts?: CallOptions) => Promise<Res>
  // A setup call with an all-scopes key of the store; throws unless the answer is 2xx.
  setup: (storeId: string, req: Req) => Promise<any>
  ids: Ids
  idsOf: (storeId: string) => Promise<Ids>
  rateMax: number
  // Rows of the events table (all stores, or one).
  eventCount: (storeId?: string) => Promise<number>
  // Rows of the events table that change state: everything but the audit of refused commands
  // (CommandRejected, in the activity stream).
  stateEventCount: (storeId?: string) => Promise<number>
  // A counter of the same rows appended since its previous call (the first call counts the whole
  // log), for requests sent one after another: a request's events are committed when it is
  // answered, after every position already looked at, so each call reads only the new rows.
  newStateEventCounter: () => () => Promise<number>
  // Everything a store's themes are: rows of the themes projection, oldest first.
  themeRows: (storeId: string) => Promise<unknown[]>
}

// The audit of a refused command: the one row a refusal may append (in the activity stream).
const AUDIT_EVENT = 'CommandRejected'

export const unique = (prefix = '') => `${prefix}${randomBytes(5).toString('hex')}`

export type WorldOptions = Parameters<typeof testApp>[1]

export async function makeWorld(t: Parameters<typeof testApp>[0], options: WorldOptions = {}): Promise<World> {
  const ta = await testApp(t, options)
  const call = async (req: Req, opts: CallOptions = {}): Promise<Res> => {
    const headers: Record<string, string> = { ...(req.headers ?? {}) }
    if (opts.auth !== null && headers.authorization === undefined) {
      headers.authorization = opts.auth ?? `Bearer ${await ta.key(opts.store ?? STORE_A, opts.scopes ?? SCOPES)}`
    }
    const remoteAddress =
      req.remoteAddress ?? `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`
    const res = await ta.app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers,
      remoteAddress,
      ...(req.payload !== undefined ? { payload: req.payload as string } : {}),
    })
    return res as unknown as Res
  }
  const setup = async (storeId: string, req: Req) => {
    const res = await call(req, { store: storeId })
    if (res.statusCode < 200 || res.statusCode > 299)
      throw new Error(`setup ${req.method} ${req.url} answered ${res.statusCode}: ${res.body}`)
    return res.json().data
  }
  const idsOf = async (storeId: string): Promise<Ids> => {
    const themes = (await setup(storeId, { method: 'GET', url: '/api/v1/themes' })).themes as {
      id: string
      status: string
    }[]
    const active = themes.find((x) => x.status === 'active')
    if (!active) throw new Error(`store ${storeId} has no live theme`)
    const draft = await setup(storeId, {
      method: 'POST',
      url: '/api/v1/themes',
      payload: { name: 'Test draft', provider: 'tap' },
    })
    const pageId = unique('pg-')
    const sectionId = unique('sec-')
    await setup(storeId, {
      method: 'POST',
      url: `/api/v1/themes/${draft.id}/batch`,
      payload: {
        operations: [
          {
            op: 'createPage',
            page: { id: pageId, slug: unique('about-'), title: 'About', status: 'published', layout: [] },
          },
          {
            op: 'createSection',
            target: { template: 'home' },
            index: 0,
            section: { id: sectionId, type: 'hero', settings: { heading: 'Stable hero' } },
          },
        ],
      },
    })
    const first = async (url: string, key: string) =>
      ((await setup(storeId, { method: 'GET', url }))[key] as { id: string }[])[0]!.id
    return {
      storeId,
      activeThemeId: active.id,
      draftId: draft.id,
      pageId,
      sectionId,
      productId: await first('/api/v1/products?limit=1', 'products'),
      collectionId: await first('/api/v1/collections?limit=1', 'collections'),
      orderId: await first('/api/v1/orders?limit=1', 'orders'),
    }
  }
  const count = async (storeId: string | undefined, stateOnly: boolean) => {
    let q = ta.services.db.selectFrom('events').select(sql<string>`count(*)`.as('n'))
    if (storeId) q = q.where('store_id', '=', storeId)
    if (stateOnly) q = q.where('type', '!=', AUDIT_EVENT)
    return Number((await q.executeTakeFirstOrThrow()).n)
  }
  const newStateEventCounter = () => {
    let seen = 0
    return async () => {
      const row = await ta.services.db
        .selectFrom('events')
        .select([
          sql<string>`count(*) filter (where type <> ${AUDIT_EVENT})`.as('n'),
          sql<string | null>`max(global_position)`.as('p'),
        ])
        .where('global_position', '>', seen)
        .executeTakeFirstOrThrow()
      if (row.p !== null) seen = Number(row.p)
      return Number(row.n)
    }
  }
  const themeRows = async (storeId: string) =>
    (
      await ta.services.db
        .selectFrom('themes')
        .selectAll()
        .where('store_id', '=', storeId)
        .orderBy('created_at')
        .orderBy('theme_id')
        .execute()
    ).map((r) => JSON.parse(JSON.stringify(r)))
  const ids = await idsOf(STORE_A)
  return {
    ...ta,
    call,
    setup,
    ids,
    idsOf,
    rateMax: options.rateLimit?.max ?? 100000,
    eventCount: (storeId) => count(storeId, false),
    stateEventCount: (storeId) => count(storeId, true),
    newStateEventCounter,
    themeRows,
  }
}

export { STORE_A, STORE_B }

// The error envelope of the contract: exactly { error: { code, message, details?, requestId } },
// JSON, with the request id of the X-Request-Id header. Returns the problems found.
export function envelopeProblems(res: Res, expected: { status?: number; code?: string } = {}): string[] {
  const problems: string[] = []
  if (expected.status !== undefined && res.statusCode !== expected.status)
    problems.push(`status ${res.statusCode}, expected ${expected.status}`)
  const type = String(res.headers['content-type'] ?? '')
  if (!type.startsWith('application/json')) problems.push(`content-type ${type}`)
  let body: any
  try {
    body = JSON.parse(res.body)
  } catch {
    return [...problems, `body is not JSON: ${res.body.slice(0, 200)}`]
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'body is not an object']
  const top = Object.keys(body)
  if (top.length !== 1 || top[0] !== 'error') problems.push(`top-level keys ${top.join(',')}`)
  const e = body.error
  if (!e || typeof e !== 'object') return [...problems, 'no error object']
  for (const k of Object.keys(e))
    if (!['code', 'message', 'details', 'requestId'].includes(k)) problems.push(`unexpected error.${k}`)
  if (typeof e.code !== 'string' || !/^[A-Z][A-Z_]+$/.test(e.code))
    problems.push(`error.code ${JSON.stringify(e.code)}`)
  if (expected.code !== undefined && e.code !== expected.code)
    problems.push(`code ${e.code}, expected ${expected.code}`)
  if (typeof e.message !== 'string' || e.message.length === 0) problems.push('error.message missing')
  if ('details' in e && (!e.details || typeof e.details !== 'object' || Array.isArray(e.details)))
    problems.push('error.details is not an object')
  if (typeof e.requestId !== 'string' || e.requestId.length === 0) problems.push('error.requestId missing')
  else if (e.requestId !== res.headers['x-request-id'])
    problems.push(`requestId ${e.requestId} differs from X-Request-Id ${String(res.headers['x-request-id'])}`)
  return problems
}

export const ALL_SCOPES = SCOPES
