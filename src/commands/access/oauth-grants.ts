import type { Transaction } from 'kysely'
import {
  type OAuthGrantEvent,
  type OAuthGrantRevocationReason,
  type OAuthTokenRevocationReason,
  oauthGrantStream,
} from '../../aggregates/oauth-grants/events.ts'
import { ok } from '../../aggregates/result.ts'
import type { Database } from '../../db/database.ts'
import type { CommandContext, CommandDeps } from '../context.ts'
import { change, handleCommand } from '../handle-command.ts'

// A merchant's consent to one client on one store, and its end. Each change is an event on the
// grant's stream, applied with the row changes in one transaction, so the developer-activity view
// shows every approval and revocation (and the reason) next to the agents' theme changes.

export type GrantClient = { clientId: string; name: string; verified: boolean; appId: string | null }

async function append(
  deps: CommandDeps,
  ctx: CommandContext,
  grantId: string,
  event: OAuthGrantEvent,
  apply: (trx: Transaction<Database>) => Promise<void>,
): Promise<void> {
  // The grant's rows are the state its decisions read (oauth_grants); its stream is their audit.
  const log = { streamId: oauthGrantStream(grantId), streamType: oauthGrantStream.type }
  const outcome = await handleCommand(deps, ctx, {
    load: async () => null,
    decide: () => ok([change(log, [event])]),
    result: () => undefined,
    within: apply,
  })
  if (!outcome.ok) throw new Error(`append to ${log.streamId} refused: ${outcome.error.code}`)
}

// The grant holds exactly the scopes the merchant ticked; approving again replaces them.
export async function approveGrant(
  deps: CommandDeps,
  ctx: CommandContext,
  input: { merchantId: string; client: GrantClient; scopes: string[] },
): Promise<{ grantId: string }> {
  const now = deps.clock()
  const live = await deps.db
    .selectFrom('oauth_grants')
    .select(['grant_id', 'scopes'])
    .where('store_id', '=', ctx.storeId)
    .where('client_id', '=', input.client.clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  const grantId = live?.grant_id ?? deps.newId('grant')
  const event: OAuthGrantEvent = {
    type: 'OAuthGrantApproved',
    data: {
      grantId,
      clientId: input.client.clientId,
      clientName: input.client.name,
      verified: input.client.verified,
      scopes: input.scopes,
      previousScopes: live?.scopes ?? null,
      at: now.toISOString(),
    },
  }
  await append(deps, ctx, grantId, event, async (trx) => {
    if (live) {
      await trx
        .updateTable('oauth_grants')
        .set({ scopes: input.scopes, merchant_id: input.merchantId, client_name: input.client.name, updated_at: now })
        .where('grant_id', '=', grantId)
        .execute()
    } else {
      await trx
        .insertInto('oauth_grants')
        .values({
          grant_id: grantId,
          store_id: ctx.storeId,
          merchant_id: input.merchantId,
          client_id: input.client.clientId,
          app_id: input.client.appId,
          client_name: input.client.name,
          verified: input.client.verified,
          scopes: input.scopes,
          created_at: now,
          updated_at: now,
        })
        .execute()
    }
  })
  return { grantId }
}

// Ends a grant and every token it issued. False when it was already revoked (nothing changes).
export async function revokeGrant(
  deps: CommandDeps,
  ctx: CommandContext,
  grantId: string,
  reason: OAuthGrantRevocationReason,
): Promise<boolean> {
  const now = deps.clock()
  const grant = await deps.db
    .selectFrom('oauth_grants')
    .select(['grant_id', 'client_id', 'client_name', 'revoked_at'])
    .where('grant_id', '=', grantId)
    .where('store_id', '=', ctx.storeId)
    .executeTakeFirst()
  if (!grant || grant.revoked_at) return false
  let changed = false
  await append(
    deps,
    ctx,
    grantId,
    {
      type: 'OAuthGrantRevoked',
      data: { grantId, clientId: grant.client_id, clientName: grant.client_name, reason, at: now.toISOString() },
    },
    async (trx) => {
      const r = await trx
        .updateTable('oauth_grants')
        .set({ revoked_at: now, revoked_reason: reason })
        .where('grant_id', '=', grantId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      changed = Number(r.numUpdatedRows) > 0
      if (!changed) throw new GrantAlreadyRevoked()
      await trx
        .updateTable('oauth_tokens')
        .set({ revoked_at: now })
        .where('grant_id', '=', grantId)
        .where('revoked_at', 'is', null)
        .execute()
    },
  ).catch((error: unknown) => {
    if (!(error instanceof GrantAlreadyRevoked)) throw error
  })
  return changed
}

class GrantAlreadyRevoked extends Error {}

// Ends some tokens of a grant (those issued from one code, or one access token); the grant stays.
export async function revokeTokens(
  deps: CommandDeps,
  ctx: CommandContext,
  grantId: string,
  tokenIds: string[],
  reason: OAuthTokenRevocationReason,
): Promise<number> {
  if (tokenIds.length === 0) return 0
  const now = deps.clock()
  const grant = await deps.db
    .selectFrom('oauth_grants')
    .select(['client_id', 'client_name'])
    .where('grant_id', '=', grantId)
    .where('store_id', '=', ctx.storeId)
    .executeTakeFirstOrThrow()
  let count = 0
  await append(
    deps,
    ctx,
    grantId,
    {
      type: 'OAuthTokensRevoked',
      data: {
        grantId,
        clientId: grant.client_id,
        clientName: grant.client_name,
        reason,
        tokens: tokenIds.length,
        at: now.toISOString(),
      },
    },
    async (trx) => {
      const r = await trx
        .updateTable('oauth_tokens')
        .set({ revoked_at: now })
        .where('token_id', 'in', tokenIds)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      count = Number(r.numUpdatedRows)
    },
  )
  return count
}

// Deleting a dashboard app ends every grant it holds (the merchant side calls this in the same request).
export async function revokeGrantsOfApp(deps: CommandDeps, ctx: CommandContext, appId: string): Promise<number> {
  const live = await deps.db
    .selectFrom('oauth_grants')
    .select('grant_id')
    .where('store_id', '=', ctx.storeId)
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .execute()
  let count = 0
  for (const g of live) if (await revokeGrant(deps, ctx, g.grant_id, 'app_deleted')) count++
  return count
}
