// URL policy for every URL a theme may carry (links, images, logo, navigation,
// rich-text hrefs). Two questions are answered separately: "could this run or
// embed code?" (UNSAFE_CONTENT) and "is this an allowed URL?" (VALIDATION_FAILED).

export type UrlProblem = { code: 'UNSAFE_CONTENT' | 'VALIDATION_FAILED'; message: string; hint?: string }

export const DANGEROUS_SCHEMES: readonly string[] = [
  'javascript',
  'vbscript',
  'livescript',
  'data',
  'file',
  'blob',
  'filesystem',
  'mhtml',
  'jar',
]

export const URL_HINT =
  'Use an https:// URL or a site-relative path starting with a single / (for example /products/<id> or /pages/<slug>).'

// Named references an attacker can use to spell a scheme; the full HTML table is
// not needed because decoding here only classifies, it never produces output.
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  excl: '!',
  num: '#',
  percnt: '%',
  equals: '=',
  semi: ';',
  grave: '`',
  plus: '+',
  quest: '?',
  commat: '@',
  hyphen: '-',
  lowbar: '_',
  zwj: '\u200d',
  zwnj: '\u200c',
  shy: '\u00ad',
}

function decodeCharacterReferences(value: string): string {
  // Semicolons are optional because browsers decode legacy `&#106avascript:` too.
  return value.replace(
    /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,8})|([A-Za-z][A-Za-z0-9]{1,31}));?/g,
    (match: string, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (dec !== undefined || hex !== undefined) {
        const codePoint = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16)
        const valid = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff)
        return valid ? String.fromCodePoint(codePoint) : '\ufffd'
      }
      return NAMED_REFERENCES[(name ?? '').toLowerCase()] ?? match
    },
  )
}

function decodePercent(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_match: string, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  )
}

// Browsers drop ASCII tab/newline anywhere in a URL and leading C0/space; we also
// drop other invisibles so no spelling of a scheme slips past the comparison.
const IGNORABLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the ranges name single code units on purpose (lone marks included)
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff0-\uffff]/g

/** The dangerous scheme a URL would resolve to after any decoding a browser or a sloppy renderer might apply, or null. */
export function dangerousScheme(value: string): string | null {
  let current = value
  for (let round = 0; round < 4; round++) {
    const decoded = decodePercent(decodeCharacterReferences(current))
    if (decoded === current) break
    current = decoded
  }
  const normalized = current.replace(IGNORABLE, '').toLowerCase()
  const match = /^([a-z][a-z0-9+.-]*):/.exec(normalized)
  const scheme = match?.[1]
  return scheme !== undefined && DANGEROUS_SCHEMES.includes(scheme) ? scheme : null
}

const WHITESPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/
const ATTRIBUTE_BREAKERS = /[<>"`]/

export type UrlPolicy = {
  /** Rich-text links may also be mailto: and tel:. */
  allowContactSchemes?: boolean
}

function invalid(message: string): UrlProblem {
  return { code: 'VALIDATION_FAILED', message, hint: URL_HINT }
}

function unsafe(message: string): UrlProblem {
  return { code: 'UNSAFE_CONTENT', message, hint: URL_HINT }
}

/** Null when the URL is allowed; otherwise the single most serious problem. */
export function urlProblem(value: string, policy: UrlPolicy = {}): UrlProblem | null {
  const scheme = dangerousScheme(value)
  if (scheme !== null) {
    return unsafe(`URL uses the ${scheme}: scheme, which can run or embed code; it is never allowed`)
  }
  if (ATTRIBUTE_BREAKERS.test(value)) {
    return unsafe('URL contains <, >, " or `, which could break out of an HTML attribute')
  }
  if (value.length === 0) return invalid('URL is empty')
  if (WHITESPACE_OR_CONTROL.test(value)) {
    return invalid('URL contains whitespace or control characters; percent-encode them (for example %20)')
  }
  if (value.includes('\\')) {
    return invalid('URL contains a backslash, which browsers treat as / and can turn a path into another host')
  }
  if (value.startsWith('//')) {
    return invalid('Protocol-relative URLs (//host/...) are not allowed')
  }
  if (value.startsWith('/')) return null
  if (policy.allowContactSchemes === true) {
    if (/^mailto:/i.test(value)) {
      return value.length > 'mailto:'.length ? null : invalid('mailto: link without an address')
    }
    if (/^tel:/i.test(value)) {
      return /^tel:\+?[0-9][0-9().-]{0,31}$/i.test(value)
        ? null
        : invalid('tel: link must be a phone number such as tel:+15551234567')
    }
  }
  if (/^https:\/\//i.test(value)) {
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      return invalid('Not a valid https:// URL')
    }
    if (parsed.hostname === '') return invalid('https:// URL without a host')
    if (parsed.username !== '' || parsed.password !== '') {
      return invalid('URLs with credentials (user:password@host) are not allowed')
    }
    return null
  }
  if (/^http:/i.test(value)) return invalid('Insecure http: URL; only https:// is allowed')
  const allowed = policy.allowContactSchemes === true ? 'an https://, mailto: or tel: URL' : 'an https:// URL'
  return invalid(`Must be ${allowed} or a site-relative path starting with /`)
}
