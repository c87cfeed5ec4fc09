import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A local https server with a self-signed certificate for localhost (openssl), for client
// metadata documents. The certificate file is what OAUTH_CIMD_CA_FILE points at.
export async function httpsServer(
  t: { teardown: (fn: () => unknown) => void },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; caFile: string; requests: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-'))
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  )
  const requests: string[] = []
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    requests.push(req.url ?? '')
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return { port: address.port, caFile: cert, requests }
}
