import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorEnvelope, type AppError } from '../errors.ts'
import { STATUS_OF, sendAppError } from './errors.ts'
import './audit.ts'

// Answers produced before a route runs — by the router (a path that is not valid
// percent-encoded UTF-8, a path parameter over the limit) or by Node's HTTP parser (framing
// faults, oversize headers, timeouts) — in the contract's envelope with a request id, like
// every other non-2xx. None of them is a 5xx: each is the client's fault.

// A path segment longer than this is refused with 414 before any route runs.
export const MAX_PARAM_LENGTH = 2048

type FrameworkError = Error & { code?: string }

export function frameworkError(error: FrameworkError): AppError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return {
        code: 'VALIDATION_FAILED',
        message: 'the path is not valid percent-encoded UTF-8',
        details: {
          issues: [
            {
              path: '(path)',
              code: 'VALIDATION_FAILED',
              message: 'bad percent-encoding or malformed UTF-8 in the path',
            },
          ],
        },
      }
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { code: 'URI_TOO_LONG', message: `a path segment is longer than ${MAX_PARAM_LENGTH} characters` }
    default:
      return { code: 'MALFORMED_REQUEST', message: 'the request could not be routed' }
  }
}

// Fastify's frameworkErrors hook: onRequest hooks have not run, so the request's audit record
// and X-Request-Id are set here.
export function sendFrameworkError(error: FrameworkError, request: FastifyRequest, reply: FastifyReply) {
  const refusal = frameworkError(error)
  request.audit = { errorCode: refusal.code }
  reply.header('x-request-id', request.id)
  return sendAppError(request, reply, refusal)
}

type ParserError = Error & { code?: string; rawPacket?: unknown }

// What Node's HTTP parser refused, as a contract error. The parser codes come from llhttp.
export function clientError(error: ParserError): AppError {
  const reason = error.code ?? 'UNKNOWN'
  const malformed = (message: string): AppError => ({ code: 'MALFORMED_REQUEST', message, details: { reason } })
  switch (reason) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: 'the request was not received in time' }
    case 'HPE_HEADER_OVERFLOW': {
      // The request line alone over the limit (a huge path or query, a 20,000-character cursor) is
      // a 414; otherwise the headers are too large.
      const head = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.subarray(0, 64 * 1024).toString('latin1') : ''
      const lineEnd = head.indexOf('\n')
      if (head !== '' && (lineEnd === -1 || lineEnd > 8 * 1024))
        return { code: 'URI_TOO_LONG', message: 'the request target (path and query) is too long' }
      return { code: 'HEADERS_TOO_LARGE', message: 'the request headers are too large (at most 16 KiB in all)' }
    }
    case 'HPE_INVALID_VERSION':
      return malformed('unsupported HTTP version; send HTTP/1.1')
    case 'HPE_INVALID_METHOD':
      return malformed('unknown HTTP method')
    case 'HPE_INVALID_URL':
      return malformed('the request target is malformed (raw bytes outside printable ASCII must be percent-encoded)')
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
    case 'HPE_INVALID_CONSTANT':
      return malformed('a header line is malformed (a control character or a bad header name or value)')
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return malformed('Content-Length and Transfer-Encoding may not be sent together')
    case 'HPE_INVALID_CONTENT_LENGTH':
      return malformed('Content-Length is invalid or sent twice with different values')
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return malformed('Transfer-Encoding is invalid (only chunked, and never together with Content-Length)')
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_EOF_STATE':
      return malformed('the chunked body is malformed')
    default:
      return malformed('the request is not valid HTTP/1.1')
  }
}

// The server's `clientError` handler. After a parser fault the connection cannot be trusted to
// find the next request's start, so it is answered (where HTTP allows: the socket is writable and
// no response is under way on it) and closed.
export function answerClientError(
  error: ParserError,
  socket: Socket,
  log?: (details: Record<string, unknown>) => void,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) {
    const requestId = randomUUID()
    const refusal = clientError(error)
    const status = STATUS_OF[refusal.code]
    const body = JSON.stringify(errorEnvelope(refusal, requestId))
    log?.({ requestId, statusCode: status, errorCode: refusal.code, reason: error.code })
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    )
    // A client that never closes its side does not keep the socket.
    setTimeout(() => socket.destroy(), 1000).unref()
    return
  }
  socket.destroy(error)
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

// A request body as text, or undefined when it is not well-formed UTF-8 (a leading BOM is dropped).
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return undefined
  }
}
