import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Authentication } from '../auth/authenticate.ts'
import { merchantCaller, readMerchantSession, type MerchantSession } from '../auth/merchant-session.ts'
import type { ErrorCode } from '../errors.ts'
import { invoke } from '../operations/invoke.ts'
import type { OperationDefinition } from '../operations/operation.ts'
import * as commerce from '../operations/commerce-operations.ts'
import * as media from '../operations/media-navigation-operations.ts'
import * as themes from '../operations/theme-operations.ts'
import { getThemeChecksOperation } from '../operations/theme-check-operations.ts'
import { recentThemeActivity } from '../queries/activity.ts'
import { findTheme } from '../queries/themes/theme-queries.ts'
import type { Services } from '../services.ts'
import { sendAppError } from '../web/errors.ts'
import { ifMatchError } from '../web/if-match.ts'
import { API_PATH } from './page.ts'
import '../web/audit.ts'

// The editor's JSON routes: the very operations agents call over REST and MCP, mounted under
// the editor's path, authenticated by the merchant's session (plus its CSRF token for every
// change) instead of a bearer credential. The merchant acts with every scope of their store,
// recorded as actor merchant and channel editor.
export const EDITOR_OPERATIONS: readonly OperationDefinition[] = [
  themes.getThemeSchemaOperation,
  themes.getThemeOperation,
  themes.applyThemeBatchOperation,
  themes.publishThemeOperation,
  themes.duplicateThemeOperation,
  // The theme checks of the version just saved: the outline's badges and the findings' fixes.
  getThemeChecksOperation,
  commerce.listProductsOperation,
  commerce.listCollectionsOperation,
  media.listMediaOperation,
  media.uploadMediaOperation,
] as OperationDefinition[]

const editorPathOf = (op: OperationDefinition) => `${API_PATH}${op.path.slice('/api/v1'.length)}`

function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
) {
  return sendAppError(request, reply.header('cache-control', 'no-store'), { code, message, details })
}

export function registerEditorApi(app: FastifyInstance, services: Services) {
  // Signed in (the merchant's session cookie); a change also needs the session's CSRF token in a
  // header that a cross-site form cannot set, and a JSON body, which such a form cannot send.
  async function sessionFor(request: FastifyRequest, reply: FastifyReply): Promise<MerchantSession | null> {
    const session = await readMerchantSession(request, services)
    if (!session) {
      await sendError(request, reply, 'UNAUTHENTICATED', 'sign in again to keep editing')
      return null
    }
    return session
  }
  const csrfGuard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await sessionFor(request, reply))) return reply
    await new Promise<void>((resolve, reject) =>
      app.csrfProtection(request, reply, (error?: Error) => (error ? reject(error) : resolve())),
    )
    return undefined
  }

  for (const op of EDITOR_OPERATIONS) {
    app.route({
      method: op.method,
      url: editorPathOf(op),
      ...(op.bodyLimit ? { bodyLimit: op.bodyLimit } : {}),
      ...(op.method === 'GET' ? {} : { preHandler: csrfGuard }),
      handler: async (request, reply) => {
        request.audit.operationId = op.operationId
        const session = await sessionFor(request, reply)
        if (!session) return reply
        request.audit.storeId = session.storeId
        const authentication: Authentication = {
          ok: true,
          caller: merchantCaller(session, { requestId: request.id, channel: 'editor' }),
        }
        const outcome = await invoke(op, services, {
          authentication,
          input: { params: request.params, query: request.query, body: request.body },
          ...(op.ifMatch ? { check: (input: Record<string, unknown>) => ifMatchError(request, input) } : {}),
          logError: (error) => request.log.error({ err: error, requestId: request.id }, 'editor operation failed'),
        })
        if (!outcome.ok) return sendAppError(request, reply.header('cache-control', 'no-store'), outcome.error)
        if (outcome.etag) reply.header('etag', outcome.etag)
        return reply
          .code(outcome.status ?? op.successStatus)
          .header('cache-control', 'no-store')
          .send(outcome.pagination ? { data: outcome.data, pagination: outcome.pagination } : { data: outcome.data })
      },
    })
  }

  // Who changed the theme lately (the activity view's rows): shown when a save meets a newer version.
  app.get(`${API_PATH}/themes/:id/activity`, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const session = await sessionFor(request, reply)
    if (!session) return reply
    const reads = services.readFor(session.storeId)
    const theme = await findTheme(reads, session.storeId, request.params.id)
    if (!theme) return sendError(request, reply, 'NOT_FOUND', 'theme not found')
    return reply.header('cache-control', 'no-store').send({
      data: {
        activity: await recentThemeActivity(reads.db, session.storeId, theme.themeId, session.store.timeZone, 5),
      },
    })
  })

  app.all(`${API_PATH}/*`, async (request, reply) =>
    sendError(request, reply, 'NOT_FOUND', `no editor route for ${request.method} ${request.url.split('?')[0]}`),
  )
}
