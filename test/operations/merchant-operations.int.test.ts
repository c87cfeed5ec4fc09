import { readdirSync } from 'node:fs'
import t from 'tap'
import type { Caller } from '../../src/auth/caller.ts'
import { operations } from '../../src/operations/catalog.ts'
import { invoke } from '../../src/operations/invoke.ts'
import type { OperationDefinition } from '../../src/operations/operation.ts'
import { createApiKeyOperation } from '../../src/operations/merchant/api-keys.ts'
import { createAppOperation } from '../../src/operations/merchant/apps.ts'
import { testServices } from '../support/services.ts'

// The merchant's own operations (apps, API keys, connected apps: src/operations/merchant) run
// through `invoke` from the dashboard only: the catalog that generates REST, OpenAPI and MCP does
// not list them, and an agent's credential is refused even where one could reach them.

const STORE = 'st_demo_atlas'
const folder = new URL('../../src/operations/merchant/', import.meta.url)

async function merchantOperations(): Promise<OperationDefinition[]> {
  const found: OperationDefinition[] = []
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(new URL(file, folder).href)) as Record<string, unknown>
    for (const value of Object.values(module))
      if (value && typeof value === 'object' && 'operationId' in value && 'run' in value)
        found.push(value as OperationDefinition)
  }
  return found
}

t.test('no merchant operation is in the catalog of REST routes, OpenAPI and MCP tools', async (t) => {
  const merchant = await merchantOperations()
  t.same(merchant.map((op) => op.operationId).sort(), [
    'changeMerchantPassword',
    'createApiKey',
    'createApp',
    'deleteApp',
    'publishThemeAfterReview',
    'revokeApiKey',
    'revokeOAuthGrant',
    'rotateClientSecret',
    'setRedirectUris',
  ])
  const listed = new Set(operations.map((op) => op.operationId))
  t.same(
    merchant.filter((op) => operations.includes(op) || listed.has(op.operationId)).map((op) => op.operationId),
    [],
  )
})

t.test('only the merchant: an agent credential is refused and nothing is written', async (t) => {
  const services = await testServices(t, { seed: 'commerce' })
  const caller = (actor: Caller['actor']): Caller => ({
    storeId: STORE,
    // Every scope: the refusal does not depend on them.
    scopes: new Set(['store:read', 'themes:read', 'themes:write', 'themes:publish']),
    actor,
    channel: 'rest',
    requestId: 'req_merchant_ops',
  })
  const run = (op: OperationDefinition, actor: Caller['actor'], input: Parameters<typeof invoke>[2]['input']) =>
    invoke(op, services, {
      authentication: { ok: true, caller: caller(actor) },
      input,
      logError: (error) => t.fail(String(error)),
    })
  const apps = () => services.db.selectFrom('apps').select('app_id').where('store_id', '=', STORE).execute()

  const refused = await run(
    createAppOperation,
    { kind: 'api_key', credentialId: 'key_x', appId: 'app_x' },
    { body: { name: 'Sneaky', kind: 'confidential', redirectUris: [] } },
  )
  t.match(refused, { ok: false, error: { code: 'INSUFFICIENT_SCOPE' } })
  t.same(await apps(), [], 'no app was created')

  const created = await run(
    createAppOperation,
    { kind: 'merchant', merchantId: 'mer_x', credentialId: null, appId: null },
    { body: { name: 'Mine', kind: 'public', redirectUris: ['https://example.com/callback'] } },
  )
  t.match(created, { ok: true, status: 201, data: { clientSecret: null } })
  t.equal((await apps()).length, 1)

  const key = await run(
    createApiKeyOperation,
    { kind: 'oauth', credentialId: 'grant_x', appId: 'app_x' },
    {
      params: { id: (created as { data: { appId: string } }).data.appId },
      body: { name: 'k', scopes: ['store:read'] },
    },
  )
  t.match(key, { ok: false, error: { code: 'INSUFFICIENT_SCOPE' } })
  t.same(await services.db.selectFrom('api_keys').select('key_id').execute(), [], 'no key was created')
})
