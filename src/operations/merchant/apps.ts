import { z } from 'zod'
import { createApp, deleteApp, rotateSecret, setRedirectUris } from '../../commands/access/apps.ts'
import { commandContext } from '../command-context.ts'
import { defineOperation } from '../operation.ts'
import { fromResult } from '../results.ts'
import { notTheMerchant } from './merchant-only.ts'

// A store's apps (OAuth clients the merchant created), changed from the dashboard. The dashboard
// checks its forms first (src/dashboard/forms.ts); these schemas only type what it sends, and the
// commands keep their own rules (redirect URI policy, limits), refused with their own messages.

const appParams = z.object({ id: z.string().min(1).max(100) })
const redirectUris = z.array(z.string())

export const createAppOperation = defineOperation({
  operationId: 'createApp',
  method: 'POST',
  path: '/dashboard/developer/apps',
  scopes: [],
  tag: 'Merchant',
  summary: 'Create an app',
  description: 'A confidential app gets a client secret, returned once; a public one uses PKCE only.',
  body: z.strictObject({
    name: z.string().min(1).max(100),
    kind: z.enum(['confidential', 'public']),
    redirectUris,
  }),
  data: z.object({ appId: z.string(), clientId: z.string(), clientSecret: z.string().nullable() }),
  successStatus: 201,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'createApp')
    if (refused) return refused
    const created = await createApp(s.commands, commandContext(caller, 'createApp'), input)
    return fromResult(created, (value) => value, { status: 201 })
  },
})

export const setRedirectUrisOperation = defineOperation({
  operationId: 'setRedirectUris',
  method: 'POST',
  path: '/dashboard/developer/apps/{id}/redirect-uris',
  scopes: [],
  tag: 'Merchant',
  summary: "Replace an app's redirect URIs",
  description: 'The whole list, checked against the redirect URI policy.',
  params: appParams,
  body: z.strictObject({ redirectUris }),
  data: z.object({ redirectUris }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'setRedirectUris')
    if (refused) return refused
    const result = await setRedirectUris(
      s.commands,
      commandContext(caller, 'setRedirectUris'),
      input.id,
      input.redirectUris,
    )
    return fromResult(result, (value) => value)
  },
})

export const rotateClientSecretOperation = defineOperation({
  operationId: 'rotateClientSecret',
  method: 'POST',
  path: '/dashboard/developer/apps/{id}/rotate-secret',
  scopes: [],
  tag: 'Merchant',
  summary: "Rotate a confidential app's client secret",
  description: 'The new secret is returned once; the old one stops working at once.',
  params: appParams,
  data: z.object({ clientSecret: z.string() }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'rotateClientSecret')
    if (refused) return refused
    const result = await rotateSecret(s.commands, commandContext(caller, 'rotateClientSecret'), input.id)
    return fromResult(result, (value) => value)
  },
})

export const deleteAppOperation = defineOperation({
  operationId: 'deleteApp',
  method: 'POST',
  path: '/dashboard/developer/apps/{id}/delete',
  scopes: [],
  tag: 'Merchant',
  summary: 'Delete an app',
  description: 'Its OAuth grants end and its API keys are revoked; its client ID stops working.',
  params: appParams,
  data: z.object({ revokedKeys: z.number().int() }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'deleteApp')
    if (refused) return refused
    const result = await deleteApp(s.commands, commandContext(caller, 'deleteApp'), input.id)
    return fromResult(result, (value) => value)
  },
})
