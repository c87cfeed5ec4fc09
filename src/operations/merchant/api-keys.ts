import { z } from 'zod'
import { createKey, revokeKey } from '../../commands/access/apps.ts'
import { commandContext } from '../command-context.ts'
import { defineOperation } from '../operation.ts'
import { fromResult } from '../results.ts'
import { notTheMerchant } from './merchant-only.ts'

// API keys of a store's apps, made and revoked from the dashboard. The key is returned once;
// only its hash is stored.

export const createApiKeyOperation = defineOperation({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/dashboard/developer/apps/{id}/keys',
  scopes: [],
  tag: 'Merchant',
  summary: 'Create an API key for an app',
  description: 'With the scopes ticked (at least one, each a contract scope).',
  params: z.object({ id: z.string().min(1).max(100) }),
  body: z.strictObject({ name: z.string().min(1).max(100), scopes: z.array(z.string()) }),
  data: z.object({ keyId: z.string(), key: z.string() }),
  successStatus: 201,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'createApiKey')
    if (refused) return refused
    const result = await createKey(s.commands, commandContext(caller, 'createApiKey'), input.id, {
      name: input.name,
      scopes: input.scopes,
    })
    return fromResult(result, (value) => value, { status: 201 })
  },
})

export const revokeApiKeyOperation = defineOperation({
  operationId: 'revokeApiKey',
  method: 'POST',
  path: '/dashboard/developer/apps/{id}/keys/{keyId}/revoke',
  scopes: [],
  tag: 'Merchant',
  summary: 'Revoke an API key',
  description: 'It stops working with the next request. A key already revoked is NOT_FOUND.',
  params: z.object({ keyId: z.string().min(1).max(100) }),
  data: z.object({ keyId: z.string() }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'revokeApiKey')
    if (refused) return refused
    const result = await revokeKey(s.commands, commandContext(caller, 'revokeApiKey'), input.keyId)
    return fromResult(result, (value) => value)
  },
})
