import { z } from 'zod'
import { findTheme } from '../../queries/themes/theme-queries.ts'
import { defineOperation } from '../operation.ts'
import { notFound } from '../results.ts'
import { checkErrorsOf, publishThemeOperation, publishWithChecks } from '../theme-operations.ts'
import { notTheMerchant } from './merchant-only.ts'

// Publishing from the dashboard's confirmation page (the editor sends the merchant there too).
// A version the theme checks find errors in goes live only on the merchant's explicit "Publish
// anyway": the refusal names the field, and nothing changes. The publish itself is the agents'
// (src/operations/theme-operations.ts: publishWithChecks), so the event records the errors alike.

export const PUBLISH_ANYWAY_FIELD = 'publishAnyway'

export const publishAfterReviewOperation = defineOperation({
  operationId: 'publishThemeAfterReview',
  method: 'POST',
  path: '/dashboard/themes/:id/publish',
  scopes: [],
  tag: 'Merchant',
  summary: 'Publish a theme from the confirmation page',
  description: 'The version reviewed goes live; with check errors, only when the merchant chose to publish anyway.',
  params: z.object({ id: z.string().min(1).max(100) }),
  body: z.strictObject({ expectedVersion: z.int().min(1), [PUBLISH_ANYWAY_FIELD]: z.boolean() }),
  data: publishThemeOperation.data,
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const refused = notTheMerchant(caller, 'publishThemeAfterReview')
    if (refused) return refused
    const theme = await findTheme(s.read, caller.storeId, input.id)
    if (!theme) return notFound('theme')
    const errors = await checkErrorsOf(s, caller.storeId, theme)
    if (errors.length > 0 && !input.publishAnyway) {
      const n = errors.length
      const message = `The checks found ${n} error${n === 1 ? '' : 's'} in this version. Fix ${n === 1 ? 'it' : 'them'}, or choose to publish anyway.`
      return {
        ok: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Nothing was published: the version has check errors',
          details: { issues: [{ path: PUBLISH_ANYWAY_FIELD, code: 'VALIDATION_FAILED', message }] },
        },
      }
    }
    return publishWithChecks(s, caller, input.id, input.expectedVersion, 'publishTheme', { theme, errors })
  },
})
