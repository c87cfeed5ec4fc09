import type { FastifyRequest } from 'fastify'
import type { AppError } from '../errors.ts'

// A multipart upload as the uploadMedia body: the `file` part's bytes (at most maxFileBytes, the
// operation's cap) plus text fields (alt).
export async function readMultipartUpload(
  request: FastifyRequest,
  maxFileBytes: number,
): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; error: AppError }> {
  const body: Record<string, unknown> = {}
  let files = 0
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxFileBytes, files: 1, fields: 10, fieldSize: 2048 },
    })) {
      if (part.type === 'file') {
        files++
        const bytes = await part.toBuffer()
        if (part.file.truncated)
          return {
            ok: false,
            error: { code: 'PAYLOAD_TOO_LARGE', message: `an upload is at most ${maxFileBytes} bytes` },
          }
        body.file = { bytes: new Uint8Array(bytes), filename: part.filename ?? null }
      } else {
        body[part.fieldname] = part.value
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      return {
        ok: false,
        error: { code: 'PAYLOAD_TOO_LARGE', message: `an upload is at most ${maxFileBytes} bytes` },
      }
    if (code === 'FST_FILES_LIMIT')
      return {
        ok: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'send exactly one file part',
          details: { issues: [{ path: 'file', code: 'VALIDATION_FAILED', message: 'one file only' }] },
        },
      }
    return {
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'the multipart body is malformed',
        details: { issues: [{ path: '', code: 'VALIDATION_FAILED', message: 'malformed multipart body' }] },
      },
    }
  }
  if (files === 0)
    return {
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'a multipart upload needs a "file" part',
        details: { issues: [{ path: 'file', code: 'VALIDATION_FAILED', message: 'missing' }] },
      },
    }
  return { ok: true, body }
}
