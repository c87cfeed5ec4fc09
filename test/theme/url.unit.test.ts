import t from 'tap'
import { dangerousScheme, urlProblem } from '../../src/theme/url.ts'

t.test('https URLs and site-relative paths are allowed', async (t) => {
  for (const url of [
    'https://example.com',
    'https://cdn.example.com/a/b.jpg?w=600&h=400#x',
    'HTTPS://EXAMPLE.COM/',
    '/',
    '/products/prod_1',
    '/about?x=%20y',
    '/#top',
  ]) {
    t.equal(urlProblem(url), null, url)
  }
})

t.test('dangerous schemes are UNSAFE_CONTENT in every spelling', async (t) => {
  const spellings = [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u0001\u0002javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    'java\u0000script:alert(1)',
    'java\u200bscript:alert(1)',
    'java&#x73;cript:alert(1)',
    'java&#X73;cript:alert(1)',
    '&#106;avascript:alert(1)',
    '&#0000106;avascript:alert(1)',
    '&#106avascript&#58alert(1)',
    'javascript&colon;alert(1)',
    'jav&Tab;ascript:alert(1)',
    'javascript%3Aalert(1)',
    '%6A%61%76%61%73%63%72%69%70%74%3Aalert(1)',
    '%256A%2561vascript:alert(1)',
    '&#x25;6Aavascript:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz4=',
    ' DATA:text/html,x',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
  ]
  for (const url of spellings) {
    t.equal(urlProblem(url)?.code, 'UNSAFE_CONTENT', JSON.stringify(url))
    t.not(dangerousScheme(url), null)
  }
  t.equal(urlProblem('javascript:alert(1)', { allowContactSchemes: true })?.code, 'UNSAFE_CONTENT')
})

t.test('attribute breakers are UNSAFE_CONTENT', async (t) => {
  t.equal(urlProblem('https://example.com/"><script>alert(1)</script>')?.code, 'UNSAFE_CONTENT')
  t.equal(urlProblem('/x`onmouseover=alert(1)')?.code, 'UNSAFE_CONTENT')
})

t.test('other unusable URLs are VALIDATION_FAILED with a hint', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['http://example.com', /https/],
    ['//evil.example', /Protocol-relative/],
    ['/\\evil.example', /backslash/],
    ['https:\\\\evil.example', /backslash/],
    ['/a b', /whitespace/],
    ['https://exa mple.com', /whitespace/],
    ['/a\u00a0b', /whitespace/],
    ['', /empty/],
    ['https://user:pw@evil.example/', /credentials/],
    ['https://', /https/],
    ['ftp://example.com', /https/],
    ['products/1', /site-relative/],
    ['#top', /site-relative/],
    ['mailto:a@example.com', /https/],
  ]
  for (const [url, message] of cases) {
    const problem = urlProblem(url)
    t.equal(problem?.code, 'VALIDATION_FAILED', JSON.stringify(url))
    t.match(problem?.message ?? '', message)
    t.match(problem?.hint ?? '', /https:\/\//)
  }
})

t.test('rich-text links may also use mailto: and tel:', async (t) => {
  t.equal(urlProblem('mailto:hello@example.com', { allowContactSchemes: true }), null)
  t.equal(urlProblem('MAILTO:hello@example.com?subject=Hi', { allowContactSchemes: true }), null)
  t.equal(urlProblem('tel:+1-555-123-4567', { allowContactSchemes: true }), null)
  t.equal(urlProblem('tel:call-me', { allowContactSchemes: true })?.code, 'VALIDATION_FAILED')
  t.equal(urlProblem('mailto:', { allowContactSchemes: true })?.code, 'VALIDATION_FAILED')
})

t.test('decoding only classifies: a safe URL with encoded text stays safe', async (t) => {
  t.equal(urlProblem('/search?q=javascript%3Aalert'), null)
  t.equal(urlProblem('https://example.com/?next=javascript:alert(1)'), null)
  t.equal(dangerousScheme('/javascript:alert(1)'), null)
})
