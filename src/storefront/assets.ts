// The storefront's static text assets (the stylesheet, the favicon), compressed once, at their
// first request, with brotli and gzip (node:zlib) and sent in the encoding the client prefers
// (issue 35 D 12). Not at start-up: brotli's best quality costs 0.08 s, paid by every process
// that loads the service, CLIs included. Their addresses carry a content hash, so they are
// cached for a year.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export type Encoding = 'br' | 'gzip' | 'identity'

export type TextAsset = {
  contentType: string
  bodies: Readonly<Record<Encoding, Buffer>>
}

/** An asset and its compressed copies (each kept only when smaller than the plain one), made when first read. */
export function textAsset(content: string, contentType: string): TextAsset {
  let bodies: TextAsset['bodies'] | undefined
  return {
    contentType,
    get bodies() {
      return (bodies ??= compressed(content))
    },
  }
}

function compressed(content: string): TextAsset['bodies'] {
  const identity = Buffer.from(content, 'utf8')
  const br = brotliCompressSync(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  })
  const gzip = gzipSync(identity, { level: 9 })
  return {
    identity,
    br: br.length < identity.length ? br : identity,
    gzip: gzip.length < identity.length ? gzip : identity,
  }
}

/** The q-value of each coding in an Accept-Encoding header (absent: not listed). */
function qualities(header: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    let q = 1
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)
      if (m) q = Number(m[1])
    }
    out.set(name, Number.isFinite(q) ? q : 0)
  }
  return out
}

// Clients send the same Accept-Encoding on every request: the last answers are kept.
const chosen = new Map<string, Encoding>()

/** brotli if the client takes it, else gzip, else the plain bytes (RFC 9110 12.5.3, `*` included). */
export function preferredEncoding(header: string | undefined): Encoding {
  if (header === undefined || header === '') return 'identity'
  const known = chosen.get(header)
  if (known !== undefined) return known
  const q = qualities(header)
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0
  const encoding: Encoding = accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : 'identity'
  if (chosen.size > 100) chosen.clear()
  chosen.set(header, encoding)
  return encoding
}
