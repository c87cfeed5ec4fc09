import { z } from 'zod'
import { changeMerchantPassword } from '../../commands/access/merchant-password.ts'
import { commandContext } from '../command-context.ts'
import { defineOperation } from '../operation.ts'
import { fromResult } from '../results.ts'
import { notTheMerchant } from './merchant-only.ts'

// The signed-in merchant's own account, changed from the dashboard's account page.

export const changeMerchantPasswordOperation = defineOperation({
  operationId: 'changeMerchantPassword',
  method: 'POST',
  path: '/dashboard/account/password',
  scopes: [],
  tag: 'Merchant',
  summary: 'Change the dashboard password',
  description:
    'The current password is checked under the sign-in throttle; every session of the merchant ends. `address` is the client address the dashboard saw (what a wrong password counts against, with the account).',
  body: z.strictObject({
    currentPassword: z.string().min(1).max(256),
    newPassword: z.string().min(1).max(256),
    address: z.string().min(1).max(100),
  }),
  data: z.object({ endedSessions: z.number().int() }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'changeMerchantPassword')
    if (refused || caller.actor.kind !== 'merchant') return refused!
    const result = await changeMerchantPassword(
      s.commands,
      commandContext(caller, 'changeMerchantPassword'),
      caller.actor.merchantId,
      input,
    )
    return fromResult(result, (value) => value)
  },
})
