import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { findTheme } from '../queries/themes/theme-queries.ts'
import type { Services } from '../services.ts'
import { registerEditorApi } from './api-routes.ts'
import { editorAssets, type EditorAsset } from './assets.ts'
import { API_PATH, ASSET_PATH, EDITOR_CSP, EDITOR_PATH, editorMessagePage, editorPage } from './page.ts'
import { readMerchantSession } from '../auth/merchant-session.ts'
import { CSRF_HEADER } from './session.ts'
import { classifyError, type ErrorCode } from '../errors.ts'
import { sendAppError } from '../web/errors.ts'
import { registerMerchantCsrf } from '../web/merchant-csrf.ts'
import { addSecurityHeaders } from '../web/security-headers.ts'

// The visual theme editor (issue 11): its page, its bundled front end and its JSON routes.
//   GET  /dashboard/themes/editor?themeId=…           the editor (signed-in merchant, own store)
//   GET  /dashboard/themes/editor/assets/<file>       the bundled script and stylesheet (immutable)
//   *    /dashboard/themes/editor/api/…               getTheme, getThemeSchema, applyThemeBatch,
//                                                     publishTheme, duplicateTheme, getThemeChecks,
//                                                     listProducts,
//                                                     listCollections, listMedia, uploadMedia, and
//                                                     a theme's latest activity
const THEME_ID = /^[A-Za-z0-9_-]{1,100}$/

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', EDITOR_CSP)
    .send(html)
}

export async function editorPlugin(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (editor) => {
    // The dashboard's CSRF secret cookie, read here from the X-CSRF-Token header instead of a form field.
    await registerMerchantCsrf(editor, services.baseUrl, (request) => {
      const header = request.headers[CSRF_HEADER]
      return typeof header === 'string' ? header : undefined
    })
    addSecurityHeaders(editor, {
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
    })
    // The bundle is built when the server starts listening, so the first visitor does not wait.
    editor.addHook(
      'onListen',
      async () =>
        void editorAssets().catch((error: unknown) => services.logger.error({ err: error }, 'editor build failed')),
    )

    editor.setErrorHandler(async (error, request, reply) => {
      if (String((error as { code?: string }).code ?? '').startsWith('FST_CSRF')) {
        return sendAppError(request, reply, {
          code: 'CSRF_TOKEN_INVALID',
          message: `the ${CSRF_HEADER} header is missing or does not match your session; reload the editor`,
        })
      }
      const status = (error as { statusCode?: number }).statusCode ?? 500
      const classified = status >= 500 ? classifyError(error as never) : null
      if (status >= 500) request.log.error({ err: error, requestId: request.id }, 'editor request failed')
      const code: ErrorCode =
        classified?.code ??
        (status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED')
      const message = classified?.message ?? 'the request is malformed'
      if (request.url.startsWith(API_PATH)) return sendAppError(request, reply, { code, message })
      return sendHtml(reply, status >= 500 ? 500 : 400, editorMessagePage('Something went wrong', message))
    })

    editor.get(EDITOR_PATH, async (request: FastifyRequest<{ Querystring: { themeId?: unknown } }>, reply) => {
      const session = await readMerchantSession(request, services)
      if (!session) return reply.redirect(`/dashboard/login?next=${encodeURIComponent(request.url)}`, 303)
      const themeId = request.query.themeId
      const theme =
        typeof themeId === 'string' && THEME_ID.test(themeId)
          ? // After a save here the store's reads stay on the primary until a replica has it.
            await findTheme(services.readFor(session.storeId), session.storeId, themeId)
          : null
      // Another store's theme is indistinguishable from a missing one.
      if (!theme)
        return sendHtml(
          reply,
          404,
          editorMessagePage('Theme not found', 'There is no theme with this id in your store.'),
        )
      const assets = await editorAssets()
      return sendHtml(
        reply,
        200,
        editorPage(assets, {
          themeId: theme.themeId,
          csrfToken: reply.generateCsrf(),
          previewBase: `/dashboard/themes/${encodeURIComponent(theme.themeId)}/preview`,
          themesUrl: '/dashboard/themes',
          activityUrl: `/dashboard/developer/activity?theme=${encodeURIComponent(theme.themeId)}`,
        }),
      )
    })

    editor.get(`${ASSET_PATH}/:file`, async (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
      const assets = await editorAssets()
      const found: EditorAsset | undefined = [assets.script, assets.style].find((a) => a.name === request.params.file)
      if (!found) return reply.code(404).type('text/plain; charset=utf-8').send('not found')
      reply
        .header('content-type', found.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('vary', 'accept-encoding')
      const accept = request.headers['accept-encoding']
      if (typeof accept === 'string' && /\bgzip\b/.test(accept))
        return reply.header('content-encoding', 'gzip').send(found.gzip)
      return reply.send(found.body)
    })

    registerEditorApi(editor, services)
  })
}
