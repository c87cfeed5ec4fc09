import { revokeGrantsOfApp } from './oauth-grants.ts'
import type { Transaction } from 'kysely'
import { API_KEY_PREFIX, hashCredential, keyHint, newClientId, newClientSecret } from '../../auth/credentials.ts'
import { validateRedirectUris } from '../../auth/redirect-uri.ts'
import { isScope } from '../../auth/scopes.ts'
import type { Database } from '../../db/database.ts'
import type { AccessEvent } from '../../aggregates/access/events.ts'
import { activityStream } from '../../aggregates/refusals/events.ts'
import { fail, ok, type Result } from '../../aggregates/result.ts'
import { base62 } from '../../ids.ts'
import type { CommandContext, CommandDeps } from '../context.ts'
import { change, handleCommand } from '../handle-command.ts'

// App and API-key changes made by a merchant: each one event in the store's audit stream
// (`activity-<storeId>`, so it shows in the activity view), written in the same transaction as
// the row it changes. Secrets are returned once to the caller and stored only as SHA-256.

export const MAX_APPS_PER_STORE = 50
export const MAX_KEYS_PER_APP = 50

const hintOf = (secret: string) => `…${secret.slice(-4)}`

// One audited change: its event in the store's activity stream, its row written in the same
// transaction.
async function audited<T>(
  deps: CommandDeps,
  ctx: CommandContext,
  event: AccessEvent,
  write: (trx: Transaction<Database>) => Promise<void>,
  value: T,
): Promise<Result<T>> {
  const log = { streamId: activityStream(ctx.storeId), streamType: activityStream.type }
  return handleCommand(deps, ctx, {
    load: async () => null,
    decide: () => ok([change(log, [event])]),
    result: () => value,
    within: async (trx) => write(trx),
  })
}

async function ownApp(deps: CommandDeps, storeId: string, appId: string) {
  return deps.db
    .selectFrom('apps')
    .selectAll()
    .where('app_id', '=', appId)
    .where('store_id', '=', storeId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export type CreatedApp = { appId: string; clientId: string; clientSecret: string | null }

export async function createApp(
  deps: CommandDeps,
  ctx: CommandContext,
  input: { name: string; kind: 'confidential' | 'public'; redirectUris: string[] },
): Promise<Result<CreatedApp>> {
  const uris = validateRedirectUris(input.redirectUris)
  if (!uris.ok)
    return fail(
      'VALIDATION_FAILED',
      uris.problems.map((p) => (p.uri ? `${p.uri}: ${p.message}` : p.message)).join('; '),
      { problems: uris.problems },
    )
  const count = await deps.db
    .selectFrom('apps')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('store_id', '=', ctx.storeId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()
  if (Number(count.n) >= MAX_APPS_PER_STORE)
    return fail('LIMIT_EXCEEDED', `a store may have at most ${MAX_APPS_PER_STORE} apps; delete one first`)
  const appId = deps.newId('app')
  const clientId = newClientId()
  const secret = input.kind === 'confidential' ? newClientSecret() : null
  const at = deps.clock().toISOString()
  const result = await audited(
    deps,
    ctx,
    {
      type: 'AppCreated',
      data: { appId, name: input.name, kind: input.kind, clientId, redirectUris: uris.uris, at },
    },
    async (trx) => {
      await trx
        .insertInto('apps')
        .values({
          app_id: appId,
          store_id: ctx.storeId,
          name: input.name,
          client_id: clientId,
          client_secret_hash: secret ? hashCredential(secret) : null,
          client_secret_hint: secret ? hintOf(secret) : null,
          redirect_uris: uris.uris,
          kind: input.kind,
        })
        .execute()
    },
    { appId, clientId, clientSecret: secret },
  )
  return result.ok ? ok(result.value) : result
}

export async function setRedirectUris(
  deps: CommandDeps,
  ctx: CommandContext,
  appId: string,
  redirectUris: string[],
): Promise<Result<{ redirectUris: string[] }>> {
  const app = await ownApp(deps, ctx.storeId, appId)
  if (!app) return fail('NOT_FOUND', 'app not found')
  const uris = validateRedirectUris(redirectUris)
  if (!uris.ok)
    return fail(
      'VALIDATION_FAILED',
      uris.problems.map((p) => (p.uri ? `${p.uri}: ${p.message}` : p.message)).join('; '),
      { problems: uris.problems },
    )
  const result = await audited(
    deps,
    ctx,
    {
      type: 'AppRedirectUrisChanged',
      data: { appId, name: app.name, redirectUris: uris.uris, at: deps.clock().toISOString() },
    },
    async (trx) => {
      await trx
        .updateTable('apps')
        .set({ redirect_uris: uris.uris })
        .where('app_id', '=', appId)
        .where('store_id', '=', ctx.storeId)
        .execute()
    },
    { redirectUris: uris.uris },
  )
  return result.ok ? ok(result.value) : result
}

// A confidential app gets a new secret (shown once); the old one stops working at once.
export async function rotateSecret(
  deps: CommandDeps,
  ctx: CommandContext,
  appId: string,
): Promise<Result<{ clientSecret: string }>> {
  const app = await ownApp(deps, ctx.storeId, appId)
  if (!app) return fail('NOT_FOUND', 'app not found')
  if (app.kind !== 'confidential') return fail('VALIDATION_FAILED', 'public apps have no client secret (they use PKCE)')
  const secret = newClientSecret()
  const at = deps.clock()
  const result = await audited(
    deps,
    ctx,
    { type: 'AppSecretRotated', data: { appId, name: app.name, hint: hintOf(secret), at: at.toISOString() } },
    async (trx) => {
      await trx
        .updateTable('apps')
        .set({
          client_secret_hash: hashCredential(secret),
          client_secret_hint: hintOf(secret),
          secret_rotated_at: at,
        })
        .where('app_id', '=', appId)
        .where('store_id', '=', ctx.storeId)
        .execute()
    },
    { clientSecret: secret },
  )
  return result.ok ? ok(result.value) : result
}

// Deleting an app revokes its keys in the same transaction.
export async function deleteApp(
  deps: CommandDeps,
  ctx: CommandContext,
  appId: string,
): Promise<Result<{ revokedKeys: number }>> {
  const app = await ownApp(deps, ctx.storeId, appId)
  if (!app) return fail('NOT_FOUND', 'app not found')
  // Its OAuth grants (and every token they issued) end first: a failure after this point leaves
  // the app in place with nothing it can use, never a deleted app whose tokens still work.
  await revokeGrantsOfApp(deps, ctx, appId)
  const live = await deps.db
    .selectFrom('api_keys')
    .select('key_id')
    .where('app_id', '=', appId)
    .where('store_id', '=', ctx.storeId)
    .where('revoked_at', 'is', null)
    .execute()
  const at = deps.clock()
  const result = await audited(
    deps,
    ctx,
    { type: 'AppDeleted', data: { appId, name: app.name, revokedKeys: live.length, at: at.toISOString() } },
    async (trx) => {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('app_id', '=', appId)
        .where('store_id', '=', ctx.storeId)
        .where('revoked_at', 'is', null)
        .execute()
      await trx
        .updateTable('apps')
        .set({ deleted_at: at, client_secret_hash: null })
        .where('app_id', '=', appId)
        .where('store_id', '=', ctx.storeId)
        .execute()
    },
    { revokedKeys: live.length },
  )
  return result.ok ? ok(result.value) : result
}

export async function createKey(
  deps: CommandDeps,
  ctx: CommandContext,
  appId: string,
  input: { name: string; scopes: string[] },
): Promise<Result<{ keyId: string; key: string }>> {
  const app = await ownApp(deps, ctx.storeId, appId)
  if (!app) return fail('NOT_FOUND', 'app not found')
  const unknown = input.scopes.filter((s) => !isScope(s))
  if (unknown.length > 0) return fail('VALIDATION_FAILED', `unknown scopes: ${unknown.join(', ')}`)
  if (input.scopes.length === 0) return fail('VALIDATION_FAILED', 'choose at least one scope')
  const count = await deps.db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  if (Number(count.n) >= MAX_KEYS_PER_APP)
    return fail('LIMIT_EXCEEDED', `an app may have at most ${MAX_KEYS_PER_APP} active keys; revoke one first`)
  const key = `${API_KEY_PREFIX}${base62(43)}`
  const keyId = deps.newId('key')
  const scopes = [...new Set(input.scopes)]
  const hint = keyHint(key)
  const result = await audited(
    deps,
    ctx,
    { type: 'ApiKeyCreated', data: { appId, keyId, name: input.name, hint, scopes, at: deps.clock().toISOString() } },
    async (trx) => {
      await trx
        .insertInto('api_keys')
        .values({
          key_id: keyId,
          app_id: appId,
          store_id: ctx.storeId,
          name: input.name,
          key_hash: hashCredential(key),
          key_hint: hint,
          scopes,
          expires_at: null,
          last_used_at: null,
          revoked_at: null,
        })
        .execute()
    },
    { keyId, key },
  )
  return result.ok ? ok(result.value) : result
}

export async function revokeKey(
  deps: CommandDeps,
  ctx: CommandContext,
  keyId: string,
): Promise<Result<{ keyId: string }>> {
  const row = await deps.db
    .selectFrom('api_keys')
    .select(['key_id', 'app_id', 'name', 'revoked_at'])
    .where('key_id', '=', keyId)
    .where('store_id', '=', ctx.storeId)
    .executeTakeFirst()
  if (!row || row.revoked_at) return fail('NOT_FOUND', 'active API key not found')
  const at = deps.clock()
  const result = await audited(
    deps,
    ctx,
    { type: 'ApiKeyRevoked', data: { appId: row.app_id, keyId, name: row.name, at: at.toISOString() } },
    async (trx) => {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('key_id', '=', keyId)
        .where('store_id', '=', ctx.storeId)
        .where('revoked_at', 'is', null)
        .execute()
    },
    { keyId },
  )
  return result.ok ? ok(result.value) : result
}
