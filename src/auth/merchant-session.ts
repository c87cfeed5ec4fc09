import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Caller, CallerChannel } from './caller.ts'
import { merchantActor } from './caller.ts'
import { hashCredential } from './credentials.ts'
import { merchantStores, type MerchantStore } from './merchant-accounts.ts'
import { SCOPES } from './scopes.ts'

// Merchant sessions, server-side: the cookie holds 256 random bits, the table only their
// SHA-256. 12 hours absolute, 2 hours idle, revocable (sign-out, password reset). Shared by
// every page adapter that needs a signed-in merchant (dashboard, OAuth consent, editor).
// Requires @fastify/cookie in the adapter's context.

export const SESSION_ABSOLUTE_MS = 12 * 3600_000
export const SESSION_IDLE_MS = 2 * 3600_000
// last_seen_at is written at most once a minute per session, not on every page.
const TOUCH_EVERY_MS = 60_000

export const sessionCookieName = (baseUrl: string) =>
  baseUrl.startsWith('https:') ? '__Host-sf_session' : 'sf_session'

export function sessionCookieOptions(baseUrl: string, expires?: Date) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: baseUrl.startsWith('https:'),
    ...(expires ? { expires } : {}),
  }
}

export type MerchantSession = {
  merchantId: string
  email: string
  name: string
  // The store the pages act on, and every store the merchant owns.
  storeId: string
  store: MerchantStore
  stores: MerchantStore[]
  sessionHash: string
  expiresAt: Date
}

type SessionDeps = { db: Kysely<Database>; baseUrl: string; clock: () => Date }

// A fresh id at every sign-in (the one a visitor had before is never reused).
export async function startSession(
  deps: SessionDeps,
  input: { merchantId: string; storeId: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url')
  const now = deps.clock()
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS)
  await deps.db
    .insertInto('merchant_sessions')
    .values({
      session_hash: hashCredential(token),
      merchant_id: input.merchantId,
      store_id: input.storeId,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute()
  return { token, expiresAt }
}

export async function findSession(deps: SessionDeps, token: string): Promise<MerchantSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null
  const now = deps.clock()
  const sessionHash = hashCredential(token)
  const row = await deps.db
    .selectFrom('merchant_sessions as s')
    .innerJoin('merchants as m', 'm.merchant_id', 's.merchant_id')
    .select(['s.merchant_id', 's.store_id', 's.expires_at', 's.last_seen_at', 's.revoked_at', 'm.email', 'm.name'])
    .where('s.session_hash', '=', sessionHash)
    .executeTakeFirst()
  if (!row || row.revoked_at) return null
  if (new Date(row.expires_at) <= now || now.getTime() - new Date(row.last_seen_at).getTime() >= SESSION_IDLE_MS)
    return null
  const stores = await merchantStores(deps.db, row.merchant_id)
  const store = stores.find((s) => s.storeId === row.store_id)
  // The store changed hands since sign-in: the session no longer opens it.
  if (!store) return null
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_EVERY_MS) {
    await deps.db
      .updateTable('merchant_sessions')
      .set({ last_seen_at: now })
      .where('session_hash', '=', sessionHash)
      .execute()
  }
  return {
    merchantId: row.merchant_id,
    email: row.email,
    name: row.name,
    storeId: store.storeId,
    store,
    stores,
    sessionHash,
    expiresAt: new Date(row.expires_at),
  }
}

export async function revokeSession(db: Kysely<Database>, sessionHash: string, now = new Date()): Promise<void> {
  await db
    .updateTable('merchant_sessions')
    .set({ revoked_at: now })
    .where('session_hash', '=', sessionHash)
    .where('revoked_at', 'is', null)
    .execute()
}

export async function switchStore(db: Kysely<Database>, session: MerchantSession, storeId: string): Promise<boolean> {
  if (!session.stores.some((s) => s.storeId === storeId)) return false
  await db
    .updateTable('merchant_sessions')
    .set({ store_id: storeId })
    .where('session_hash', '=', session.sessionHash)
    .execute()
  return true
}

const cache = new WeakMap<FastifyRequest, Promise<MerchantSession | null>>()

// The signed-in merchant of this request, or null. Read once per request.
export function readMerchantSession(request: FastifyRequest, deps: SessionDeps): Promise<MerchantSession | null> {
  let found = cache.get(request)
  if (!found) {
    const token = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[
      sessionCookieName(deps.baseUrl)
    ]
    found = token ? findSession(deps, token) : Promise.resolve(null)
    cache.set(request, found)
  }
  return found
}

// Only a same-origin relative path survives as a place to come back to after sign-in.
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return null
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null
  // Browsers treat backslashes as slashes and drop tabs and newlines inside URLs.
  if (/[\\\u0000-\u001f\u007f\s]/.test(next)) return null
  let url: URL
  try {
    url = new URL(next, 'http://same.invalid')
  } catch {
    return null
  }
  // Dot segments can collapse to a scheme-relative path: /..//evil.example becomes //evil.example.
  if (url.origin !== 'http://same.invalid' || url.pathname.startsWith('//')) return null
  return `${url.pathname}${url.search}`
}

export const loginPath = (next: string | null) =>
  next ? `/dashboard/login?next=${encodeURIComponent(next)}` : '/dashboard/login'

// A preHandler for pages that need a signed-in merchant: without a session, 303 to the sign-in
// page with `next` set to where the visitor was going (GET only; a form post goes back to its page).
export function requireMerchant(deps: SessionDeps) {
  return async function requireMerchantSession(request: FastifyRequest, reply: FastifyReply) {
    const session = await readMerchantSession(request, deps)
    if (session) return
    const next = request.method === 'GET' ? safeNextPath(request.url) : null
    return reply.code(303).header('cache-control', 'no-store').redirect(loginPath(next), 303)
  }
}

// A merchant acting on their current store: every scope (it is their store), their actor.
export function merchantCaller(
  session: MerchantSession,
  input: { requestId: string; channel: Extract<CallerChannel, 'dashboard' | 'editor'> },
): Caller {
  return {
    storeId: session.storeId,
    scopes: new Set(SCOPES),
    actor: merchantActor(session.merchantId),
    channel: input.channel,
    requestId: input.requestId,
  }
}
