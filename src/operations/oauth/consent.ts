import { merchantActor } from '../../auth/caller.ts'
import { approveGrant, type GrantClient } from '../../commands/access/oauth-grants.ts'
import type { Services } from '../../services.ts'

// The merchant's "Allow" on the consent page: the client gets exactly the ticked scopes on the
// chosen store (approving again replaces them). The merchant is signed in and owns the store
// (src/oauth/authorize-routes.ts checks both); no catalog operation exposes this, so it is a
// plain application function, recorded like the dashboard's own changes.
export async function approveConsent(
  services: Services,
  input: { merchantId: string; storeId: string; requestId: string; client: GrantClient; scopes: string[] },
): Promise<{ grantId: string }> {
  return approveGrant(
    services.commands,
    {
      storeId: input.storeId,
      actor: merchantActor(input.merchantId),
      channel: 'dashboard',
      requestId: input.requestId,
      operation: 'approveOAuthGrant',
    },
    { merchantId: input.merchantId, client: input.client, scopes: input.scopes },
  )
}
