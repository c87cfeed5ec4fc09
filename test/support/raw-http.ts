import { connect } from 'node:net'

// One raw HTTP exchange over a fresh TCP connection: the bytes are sent as given (framing faults
// that no HTTP client library would produce), and whatever comes back before the server closes
// the connection (or `timeoutMs` passes) is parsed as one response. The timeout only ends a wait
// for a server that never answers; it is no speed limit: on a loaded machine an answer took more
// than the 3 s it once was, and the fuzz test counted it as none.
export type RawResponse = { status: number; headers: Record<string, string>; body: string; raw: string }

export function rawRequest(port: number, bytes: Buffer | string, timeoutMs = 30_000): Promise<RawResponse | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      const raw = Buffer.concat(chunks).toString('utf8')
      if (raw === '') return resolve(null)
      const split = raw.indexOf('\r\n\r\n')
      const head = split === -1 ? raw : raw.slice(0, split)
      const [statusLine, ...lines] = head.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      let body = split === -1 ? '' : raw.slice(split + 4)
      const length = headers['content-length']
      if (length !== undefined) body = Buffer.from(body).subarray(0, Number(length)).toString('utf8')
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body, raw })
    }
    const timer = setTimeout(done, timeoutMs)
    socket.on('data', (c) => {
      chunks.push(c)
      // One response is enough: stop once the announced body has arrived.
      const text = Buffer.concat(chunks).toString('latin1')
      const split = text.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1]
      if (split !== -1 && length !== undefined && text.length - split - 4 >= Number(length)) done()
    })
    socket.on('end', done)
    socket.on('close', done)
    socket.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNRESET' || e.code === 'EPIPE' ? done() : reject(e),
    )
    socket.write(bytes)
  })
}
