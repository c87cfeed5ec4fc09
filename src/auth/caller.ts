import type { Actor } from '../events/event-store.ts'

// The adapters through which a caller reaches an operation.
export type CallerChannel = 'rest' | 'mcp' | 'dashboard' | 'editor'

// Who is calling: always derived from the credential or the session, never from the request.
// An agent carries an api_key or oauth actor; a merchant signed in to the dashboard or the
// editor carries { kind: 'merchant', merchantId, credentialId: null, appId: null }.
export type Caller = {
  storeId: string
  scopes: ReadonlySet<string>
  actor: Actor
  channel: CallerChannel
  // The MCP tool that carried the call.
  tool?: string | undefined
  requestId: string
  idempotencyKey?: string | undefined
}

export const merchantActor = (merchantId: string): Actor => ({
  kind: 'merchant',
  merchantId,
  credentialId: null,
  appId: null,
})
