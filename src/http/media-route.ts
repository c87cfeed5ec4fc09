import type { FastifyInstance } from 'fastify'
import { getMediaBlob } from '../queries/commerce/media-blobs.ts'
import type { Services } from '../services.ts'
import { sendError } from '../web/errors.ts'

// Media bytes are content-addressed (/media/<sha256>.<ext>), so they never change: cache forever.
export function registerMediaRoute(app: FastifyInstance, services: Services) {
  app.get<{ Params: { file: string } }>('/media/:file', async (request, reply) => {
    const match = /^([0-9a-f]{64})\.(png|jpg|jpeg|gif|webp|avif)$/.exec(request.params.file)
    if (!match) return sendError(request, reply, 'NOT_FOUND', 'no such media')
    const blob = await getMediaBlob(services.db, match[1]!)
    if (!blob) return sendError(request, reply, 'NOT_FOUND', 'no such media')
    return reply
      .header('content-type', blob.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(Buffer.from(blob.bytes))
  })
}
