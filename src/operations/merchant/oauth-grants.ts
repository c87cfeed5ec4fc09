import { z } from 'zod'
import { revokeGrant } from '../../commands/access/oauth-grants.ts'
import { commandContext } from '../command-context.ts'
import { defineOperation } from '../operation.ts'
import { notTheMerchant } from './merchant-only.ts'

// Disconnecting an app: the merchant ends an OAuth grant and every token it issued, with the same
// command the OAuth side uses (reason `merchant`).

export const revokeOAuthGrantOperation = defineOperation({
  operationId: 'revokeOAuthGrant',
  method: 'POST',
  path: '/dashboard/developer/grants/{grantId}/revoke',
  scopes: [],
  tag: 'Merchant',
  summary: 'Disconnect an app',
  description: 'revoked is false when the grant had already ended (nothing changes).',
  params: z.object({ grantId: z.string().min(1).max(100) }),
  data: z.object({ revoked: z.boolean() }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'revokeOAuthGrant')
    if (refused) return refused
    const revoked = await revokeGrant(s.commands, commandContext(caller, 'revokeOAuthGrant'), input.grantId, 'merchant')
    return { ok: true, data: { revoked } }
  },
})
