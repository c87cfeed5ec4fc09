import type { FastifyInstance, FastifyReply } from 'fastify'
import { parseMediaFile } from '../images/variants.ts'
import { createMediaDerivatives } from '../operations/media-derivatives.ts'
import { getMediaBlob } from '../queries/commerce/media-blobs.ts'
import type { Services } from '../services.ts'
import { sendError } from '../web/errors.ts'

// Media bytes are content-addressed, so they never change: cache forever.
//   /media/<sha256>.<ext>           the original (its hash is the upload's, src/images/encode.ts)
//   /media/<sha256>-<width>w.<fmt>  a responsive copy in AVIF, WebP or the original's format, made
//                                   on its first request (src/operations/media-derivatives.ts);
//                                   only the widths and formats src/images/variants.ts lists exist
export function registerMediaRoute(app: FastifyInstance, services: Services) {
  const derivatives = createMediaDerivatives(services.db)
  const send = (reply: FastifyReply, contentType: string, bytes: Uint8Array) =>
    reply
      .header('content-type', contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      // Public images any page may show, framed token previews included (decision 0170).
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))

  app.get<{ Params: { file: string } }>('/media/:file', async (request, reply) => {
    const file = parseMediaFile(request.params.file)
    if (file === null) return sendError(request, reply, 'NOT_FOUND', 'no such media')
    if (file.kind === 'original') {
      const blob = await getMediaBlob(services.db, file.sha256)
      if (!blob) return sendError(request, reply, 'NOT_FOUND', 'no such media')
      return send(reply, blob.contentType, blob.bytes)
    }
    let answer: Awaited<ReturnType<typeof derivatives.get>>
    try {
      answer = await derivatives.get(file)
    } catch (error) {
      // An original stored before uploads were checked may not decode: its page keeps the original.
      request.log.warn({ err: error, file: request.params.file }, 'image copy could not be made')
      return sendError(request, reply, 'NOT_FOUND', 'this image has no resized copies; use the original')
    }
    if (answer.ok) return send(reply, answer.contentType, answer.bytes)
    if (answer.reason === 'busy') {
      reply.header('retry-after', '2')
      return sendError(request, reply, 'UNAVAILABLE', 'this image copy is being made; try again in a moment')
    }
    return sendError(request, reply, 'NOT_FOUND', 'no such media')
  })
}
