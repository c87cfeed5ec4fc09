import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts'

// Merchant accounts: creation and password resets (ops, CLI, seed) and sign-in with throttling.

export const LOGIN_MAX_FAILURES = 5
export const LOGIN_WINDOW_MS = 15 * 60_000
export const LOGIN_LOCKOUT_MS = 15 * 60_000
export const MAX_EMAIL_LENGTH = 254
export const MAX_PASSWORD_LENGTH = 256
// A password a merchant chooses (docs/decisions/0076-merchant-password-change.md); generated ones are longer.
export const MIN_PASSWORD_LENGTH = 12

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{1,63}$/

export const normalizeEmail = (email: string) => email.trim().toLowerCase()
export const isEmail = (email: string) => email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email)

// timeZone: the store's IANA zone, in which the pages write times (src/web/time.ts).
export type MerchantStore = { storeId: string; name: string; slug: string; timeZone: string | null }

export async function merchantStores(db: Kysely<Database>, merchantId: string): Promise<MerchantStore[]> {
  const rows = await db
    .selectFrom('stores')
    .select(['store_id', 'name', 'slug', 'timezone'])
    .where('merchant_id', '=', merchantId)
    .orderBy('store_id')
    .execute()
  return rows.map((r) => ({ storeId: r.store_id, name: r.name, slug: r.slug, timeZone: r.timezone || null }))
}

// A new merchant owning an existing store, or an existing merchant (by email) given that store.
// Returns the generated password, to be printed once.
export async function createMerchant(
  db: Kysely<Database>,
  input: { storeId: string; email: string; name?: string },
): Promise<{ merchantId: string; email: string; password: string }> {
  const email = normalizeEmail(input.email)
  if (!isEmail(email)) throw new Error(`not an email address: ${input.email}`)
  const store = await db
    .selectFrom('stores')
    .select(['store_id', 'merchant_id'])
    .where('store_id', '=', input.storeId)
    .executeTakeFirst()
  if (!store) throw new Error(`no store ${input.storeId}`)
  const password = generatePassword()
  const passwordHash = await hashPassword(password)
  const merchantId = await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('merchants')
      .select('merchant_id')
      .where(sql`lower(email)`, '=', email)
      .executeTakeFirst()
    const id = existing?.merchant_id ?? newId('mer')
    if (existing)
      await trx.updateTable('merchants').set({ password_hash: passwordHash }).where('merchant_id', '=', id).execute()
    else
      await trx
        .insertInto('merchants')
        .values({ merchant_id: id, email, name: input.name ?? email.split('@')[0]!, password_hash: passwordHash })
        .execute()
    await trx.updateTable('stores').set({ merchant_id: id }).where('store_id', '=', input.storeId).execute()
    return id
  })
  return { merchantId, email, password }
}

// A new generated password; every session of the merchant ends.
export async function resetPassword(
  db: Kysely<Database>,
  emailInput: string,
  now = new Date(),
): Promise<{ merchantId: string; email: string; password: string } | null> {
  const email = normalizeEmail(emailInput)
  const merchant = await db
    .selectFrom('merchants')
    .select(['merchant_id', 'email'])
    .where(sql`lower(email)`, '=', email)
    .executeTakeFirst()
  if (!merchant) return null
  const password = generatePassword()
  const passwordHash = await hashPassword(password)
  await db.transaction().execute((trx) => setPassword(trx, merchant, passwordHash, now))
  return { merchantId: merchant.merchant_id, email: merchant.email, password }
}

// A merchant's new password hash: every session of theirs ends, and the account's sign-in
// refusals (its pairs with any address) and slow-down end too (the operator's reset, the
// merchant's own change). Returns the sessions ended.
export async function setPassword(
  trx: Kysely<Database>,
  merchant: { merchant_id: string; email: string },
  passwordHash: string,
  now: Date,
): Promise<number> {
  await trx
    .updateTable('merchants')
    .set({ password_hash: passwordHash })
    .where('merchant_id', '=', merchant.merchant_id)
    .execute()
  const ended = await trx
    .updateTable('merchant_sessions')
    .set({ revoked_at: now })
    .where('merchant_id', '=', merchant.merchant_id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  const email = emailKey(merchant.email)
  await trx
    .deleteFrom('login_lockouts')
    .where('subject', 'like', 'pair:%')
    .where(sql`substr(subject, strpos(subject, '|') + 1)`, '=', email)
    .execute()
  await trx.deleteFrom('login_failures').where('subject', '=', `email:${email}`).execute()
  return Number(ended.numUpdatedRows)
}

// Throttling that slows guessing without letting a stranger deny the owner (OWASP ASVS V2.2.1,
// contract-decisions.md): five failures in 15 minutes for one account from one client address,
// or for any accounts from one client address, refuse further attempts from that address for 15
// minutes. An account guessed at from many addresses is slowed (each attempt waits
// ACCOUNT_SLOWDOWN_MS before the password is checked), never refused: its owner, from an address
// of their own, still signs in. Counters live in PostgreSQL: a database error fails the sign-in,
// never opens it. The same rule guards the current password when a merchant changes it.
export const ACCOUNT_SLOWDOWN_MS = 1000

const emailKey = (email: string) => normalizeEmail(email).slice(0, MAX_EMAIL_LENGTH)

// What a wrong password counts against: the account (slowed), and the account from this address
// and the address itself (refused after five).
export function signInSubjects(email: string, address: string): { account: string; refusing: string[] } {
  const key = emailKey(email)
  return { account: `email:${key}`, refusing: [`pair:${address}|${key}`, `addr:${address}`] }
}

// Seconds until these subjects may try again, or null when none is refused.
export async function lockedFor(db: Kysely<Database>, subjects: string[], now: Date): Promise<number | null> {
  const lock = await db
    .selectFrom('login_lockouts')
    .select('locked_until')
    .where('subject', 'in', subjects)
    .where('locked_until', '>', now)
    .orderBy('locked_until', 'desc')
    .executeTakeFirst()
  return lock ? Math.max(1, Math.ceil((new Date(lock.locked_until).getTime() - now.getTime()) / 1000)) : null
}

// Waits before a password check when the account has been guessed at five times in the window.
export async function slowDownIfGuessed(
  db: Kysely<Database>,
  account: string,
  now: Date,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS)
  const failures = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('subject', '=', account)
    .where('failed_at', '>', since)
    .executeTakeFirst()
  if (Number(failures?.n ?? 0) >= LOGIN_MAX_FAILURES) await sleep(ACCOUNT_SLOWDOWN_MS)
}

// One wrong password, counted for the account and the refusing subjects; the fifth within the
// window refuses that subject (never the account alone).
export async function recordFailure(
  db: Kysely<Database>,
  subjects: { account: string; refusing: string[] },
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS)
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('login_failures')
      .values([subjects.account, ...subjects.refusing].map((subject) => ({ subject, failed_at: now })))
      .execute()
    const counts = await trx
      .selectFrom('login_failures')
      .select(['subject', (eb) => eb.fn.countAll<string>().as('n')])
      .where('subject', 'in', subjects.refusing)
      .where('failed_at', '>', since)
      .groupBy('subject')
      .execute()
    const until = new Date(now.getTime() + LOGIN_LOCKOUT_MS)
    for (const c of counts) {
      if (Number(c.n) < LOGIN_MAX_FAILURES) continue
      await trx
        .insertInto('login_lockouts')
        .values({ subject: c.subject, locked_until: until })
        .onConflict((oc) => oc.column('subject').doUpdateSet({ locked_until: until }))
        .execute()
    }
    await trx.deleteFrom('login_failures').where('failed_at', '<', since).execute()
  })
}

export type SignIn =
  | { ok: true; merchantId: string; stores: MerchantStore[] }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number }

export async function signIn(
  db: Kysely<Database>,
  input: { email: string; password: string; address: string },
  now = new Date(),
  sleep?: (ms: number) => Promise<void>,
): Promise<SignIn> {
  const email = normalizeEmail(input.email)
  const subjects = signInSubjects(email, input.address)
  const retryAfterSeconds = await lockedFor(db, subjects.refusing, now)
  if (retryAfterSeconds !== null) return { ok: false, reason: 'throttled', retryAfterSeconds }
  await slowDownIfGuessed(db, subjects.account, now, sleep)
  const merchant = isEmail(email)
    ? await db
        .selectFrom('merchants')
        .select(['merchant_id', 'password_hash'])
        .where(sql`lower(email)`, '=', email)
        .executeTakeFirst()
    : undefined
  const good =
    input.password.length <= MAX_PASSWORD_LENGTH &&
    (await verifyPassword(merchant?.password_hash ?? null, input.password))
  if (good && merchant) {
    const stores = await merchantStores(db, merchant.merchant_id)
    if (stores.length > 0) {
      await db.deleteFrom('login_failures').where('subject', '=', subjects.refusing[0]!).execute()
      return { ok: true, merchantId: merchant.merchant_id, stores }
    }
  }
  await recordFailure(db, subjects, now)
  return { ok: false, reason: 'invalid' }
}

// The demo merchants (seeded without a password) get one on first start, printed once.
export async function giveDemoPasswords(
  db: Kysely<Database>,
): Promise<{ email: string; password: string; stores: string[] }[]> {
  const merchants = await db
    .selectFrom('merchants')
    .select(['merchant_id', 'email'])
    .where('password_hash', 'is', null)
    .orderBy('email')
    .execute()
  const out = []
  for (const m of merchants) {
    const stores = await merchantStores(db, m.merchant_id)
    if (stores.length === 0) continue
    const password = generatePassword()
    await db
      .updateTable('merchants')
      .set({ password_hash: await hashPassword(password) })
      .where('merchant_id', '=', m.merchant_id)
      .where('password_hash', 'is', null)
      .execute()
    out.push({ email: m.email, password, stores: stores.map((s) => s.name) })
  }
  return out
}
