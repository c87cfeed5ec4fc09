import { sql } from 'kysely'
import {
  lockedFor,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  recordFailure,
  slowDownIfGuessed,
  setPassword,
  signInSubjects,
} from '../../auth/merchant-accounts.ts'
import { hashPassword, verifyPassword } from '../../auth/passwords.ts'
import type { AccessEvent } from '../../aggregates/access/events.ts'
import { activityStream } from '../../aggregates/refusals/events.ts'
import { fail, ok, type Result } from '../../aggregates/result.ts'
import type { CommandContext, CommandDeps } from '../context.ts'
import { change, handleCommand } from '../handle-command.ts'

// A merchant changes their own password (docs/decisions/0076-merchant-password-change.md): the
// current one is checked under the sign-in throttle (a wrong one counts against the account and
// the address, as at sign-in), the new one is stored as an Argon2id hash, every session of the
// merchant ends (the dashboard then starts a new one for the browser that asked) and the store's
// activity stream records the change, in the same transaction. Neither password is in the event.

export type PasswordChange = { currentPassword: string; newPassword: string; address: string }

export async function changeMerchantPassword(
  deps: CommandDeps,
  ctx: CommandContext,
  merchantId: string,
  input: PasswordChange,
): Promise<Result<{ endedSessions: number }>> {
  const now = deps.clock()
  const merchant = await deps.db
    .selectFrom('merchants')
    .select(['merchant_id', 'email', 'password_hash'])
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst()
  if (!merchant) return fail('NOT_FOUND', 'merchant not found')
  const subjects = signInSubjects(merchant.email, input.address)
  const wait = await lockedFor(deps.db, subjects.refusing, now)
  if (wait !== null)
    return fail('RATE_LIMITED', 'too many wrong passwords; try again later', { retryAfterSeconds: wait })
  await slowDownIfGuessed(deps.db, subjects.account, now)
  const good =
    input.currentPassword.length <= MAX_PASSWORD_LENGTH &&
    (await verifyPassword(merchant.password_hash, input.currentPassword))
  if (!good) {
    await recordFailure(deps.db, subjects, now)
    return fail('VALIDATION_FAILED', 'currentPassword: the current password is wrong', {
      issues: [{ path: 'currentPassword', code: 'VALIDATION_FAILED', message: 'the current password is wrong' }],
    })
  }
  const problem =
    input.newPassword.length < MIN_PASSWORD_LENGTH
      ? `use at least ${MIN_PASSWORD_LENGTH} characters`
      : input.newPassword.length > MAX_PASSWORD_LENGTH
        ? `use at most ${MAX_PASSWORD_LENGTH} characters`
        : input.newPassword === input.currentPassword
          ? 'the new password is the current one'
          : null
  if (problem)
    return fail('VALIDATION_FAILED', `newPassword: ${problem}`, {
      issues: [{ path: 'newPassword', code: 'VALIDATION_FAILED', message: problem }],
    })
  const passwordHash = await hashPassword(input.newPassword)
  // Sessions are counted before the change: the asking browser's own is among them.
  const open = await deps.db
    .selectFrom('merchant_sessions')
    .select(sql<string>`count(*)`.as('n'))
    .where('merchant_id', '=', merchantId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow()
  const endedSessions = Math.max(0, Number(open.n) - 1)
  const event: AccessEvent = {
    type: 'MerchantPasswordChanged',
    data: { merchantId, endedSessions, at: now.toISOString() },
  }
  const log = { streamId: activityStream(ctx.storeId), streamType: activityStream.type }
  const result = await handleCommand(deps, ctx, {
    load: async () => null,
    decide: () => ok([change(log, [event])]),
    result: () => ({ endedSessions }),
    within: async (trx) => {
      await setPassword(trx, merchant, passwordHash, now)
    },
  })
  return result.ok ? ok(result.value) : result
}
