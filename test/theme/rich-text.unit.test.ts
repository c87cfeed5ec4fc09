import t, { type Test } from 'tap'
import { parseDocument } from 'htmlparser2'
import { findMarkup, RICH_TEXT_TAGS, sanitizeRichText, validateRichText } from '../../src/theme/rich-text.ts'

// Re-parses sanitized output with a real parser: every element must be on the
// allowlist with only allowed attributes and safe hrefs. Text may say anything;
// it is escaped, so it is inert.
function inertProblems(html: string): string[] {
  const allowed = new Set<string>(RICH_TEXT_TAGS)
  const problems: string[] = []
  const stack: any[] = [...parseDocument(html).children]
  while (stack.length > 0) {
    const node = stack.pop()
    if (node.type === 'comment' || node.type === 'directive' || node.type === 'cdata')
      problems.push(`${node.type} left`)
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      if (!allowed.has(node.name)) problems.push(`<${node.name}> left`)
      for (const [name, value] of Object.entries(node.attribs as Record<string, string>)) {
        if (!(node.name === 'a' && (name === 'href' || name === 'title')))
          problems.push(`attribute ${name} on <${node.name}>`)
        if (name === 'href' && !/^(https:\/\/|mailto:|tel:|\/(?![/\\]))/i.test(value))
          problems.push(`unsafe href ${value}`)
      }
    }
    if (node.children) stack.push(...node.children)
  }
  return problems
}

function assertInert(t: Test, html: string): void {
  t.same(inertProblems(html), [], `inert: ${html.slice(0, 60)}`)
}

t.test('allowed markup survives validation and sanitizing unchanged', async (t) => {
  const html =
    '<h2>Title</h2><p>Plain <strong>bold</strong> <em>em</em> <b>b</b> <i>i</i> <u>u</u> <s>s</s> <code>x &lt; y</code><br></p>' +
    '<ul><li>one</li></ul><ol><li>two</li></ol><h3>h3</h3><h4>h4</h4><blockquote>quote</blockquote>' +
    '<p><a href="https://example.com/a?b=1&amp;c=2" title="Example &quot;site&quot;">web</a> <a href="/pages/about">site</a> ' +
    '<a href="mailto:hi@example.com">mail</a> <a href="tel:+15551234567">call</a></p>'
  t.same(validateRichText(html, 'body'), [])
  t.equal(sanitizeRichText(html), html.replace('&quot;site&quot;', '&quot;site&quot;'))
})

t.test('sanitizer re-escapes text and attributes', async (t) => {
  t.equal(sanitizeRichText('<p>a &lt;b&gt; &amp; "c"</p>'), '<p>a &lt;b&gt; &amp; "c"</p>')
  t.equal(
    sanitizeRichText('<a title=\'x" onmouseover="alert(1)\' href="/x">t</a>'),
    '<a href="/x" title="x&quot; onmouseover=&quot;alert(1)">t</a>',
  )
  t.equal(sanitizeRichText('1 < 2 > 0'), '1 &lt; 2 &gt; 0')
})

t.test('sanitizer drops code-bearing elements with their content', async (t) => {
  t.equal(sanitizeRichText('<p>a</p><script>alert(1)</script><p>b</p>'), '<p>a</p><p>b</p>')
  t.equal(sanitizeRichText('<style>p { color: red }</style>x'), 'x')
  t.equal(sanitizeRichText('<iframe src="https://evil.example/">fallback</iframe>ok'), 'ok')
  t.equal(sanitizeRichText('<svg onload=alert(1)><p>inside</p></svg>'), '')
  t.equal(sanitizeRichText('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'), '')
  t.equal(sanitizeRichText('<object data="x"><embed src="y"></object>z'), 'z')
  t.equal(sanitizeRichText('<template><script>alert(1)</script></template>'), '')
})

t.test('sanitizer unwraps unknown wrappers and strips attributes', async (t) => {
  t.equal(sanitizeRichText('<div class="x"><span style="color:red">hi</span></div>'), 'hi')
  t.equal(sanitizeRichText('<p onclick="alert(1)" style="x" id="y">hi</p>'), '<p>hi</p>')
  t.equal(sanitizeRichText('<P>Mixed <STRONG>case</STRONG></P>'), '<p>Mixed <strong>case</strong></p>')
  t.equal(sanitizeRichText('<p>a<!-- hidden --></p><![CDATA[x]]><!doctype html><?php echo 1 ?>'), '<p>a</p>')
  t.equal(sanitizeRichText('<p>a\u0000b</p>'), '<p>ab</p>')
  t.equal(sanitizeRichText('<br>line<br/>'), '<br>line<br>')
})

t.test('sanitizer removes unsafe hrefs but keeps the link text', async (t) => {
  for (const href of [
    'javascript:alert(1)',
    'java&#x73;cript:alert(1)',
    '&#106;avascript:alert(1)',
    '&#106avascript&#58alert(1)',
    'jav&#x09;ascript:alert(1)',
    'jav\nascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' \u0001javascript:alert(1)',
    'javascript%3Aalert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'file:///etc/passwd',
    'http://insecure.example/',
    '//evil.example/',
    '/\\evil.example',
  ]) {
    const out = sanitizeRichText(`<a href="${href.replace(/"/g, '&quot;')}">x</a>`)
    t.equal(out, '<a>x</a>', `href ${JSON.stringify(href)} removed`)
  }
  t.equal(
    sanitizeRichText('<a href="/ok" href="javascript:alert(1)">x</a>'),
    '<a href="/ok">x</a>',
    'first duplicate wins, as in browsers',
  )
})

t.test('hostile inputs come out inert', async (t) => {
  const inputs = [
    '<scr<script>ipt>alert(1)</scr</script>ipt>',
    '<<script>script>alert(1)<</script>/script>',
    '<img src=x onerror=alert(1)',
    '<p><img src=x onerror=alert(1)></p>',
    '<a href="javascript:alert(1)"><b>x</b></a>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
    '<textarea><script>alert(1)</script></textarea>',
    '<title><img src=x onerror=alert(1)></title>',
    '<p>unclosed <strong>tags <em>everywhere',
    '</p></p><p>stray closers</b>',
    '<a href=javascript:alert(1)>unquoted</a>',
    '<a\nhref="javascript:alert(1)">newline</a>',
    '<a href="  javascript:alert(1)">spaces</a>',
    '<form><button formaction="javascript:alert(1)">x</button></form>',
    '<details open ontoggle=alert(1)>',
    '<body onload=alert(1)>',
    '<base href="https://evil.example/">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    `<p>${'<b>'.repeat(5000)}deep${'</b>'.repeat(5000)}</p>`,
  ]
  for (const input of inputs) {
    const out = sanitizeRichText(input)
    assertInert(t, out)
    t.equal(sanitizeRichText(out), out, `sanitizing is idempotent for ${input.slice(0, 40)}`)
  }
})

t.test('validateRichText reports every problem as UNSAFE_CONTENT with the field path', async (t) => {
  const issues = validateRichText(
    '<p onclick="x" style="y">a</p><script>1</script><!-- c --><a href="javascript:alert(1)">l</a><div>d</div>',
    'body',
  )
  t.ok(issues.length >= 6)
  t.ok(issues.every((i) => i.path === 'body' && i.code === 'UNSAFE_CONTENT'))
  const messages = issues.map((i) => i.message).join('\n')
  t.match(messages, /Event handler attribute onclick/)
  t.match(messages, /Attribute style is not allowed on <p>/)
  t.match(messages, /Tag <script> is not allowed/)
  t.match(messages, /HTML comments are not allowed/)
  t.match(messages, /javascript: scheme/)
  t.match(messages, /Tag <div> is not allowed/)
})

t.test('validateRichText flags CDATA, declarations, duplicates, depth and controls', async (t) => {
  t.match(validateRichText('<![CDATA[x]]>', 'b')[0]?.message ?? '', /CDATA/)
  t.match(validateRichText('<?php echo 1 ?>', 'b')[0]?.message ?? '', /comments/, 'HTML reads <? as a bogus comment')
  t.match(validateRichText('<!doctype html>', 'b')[0]?.message ?? '', /Declarations/)
  t.match(validateRichText('<a href="/a" href="/b">x</a>', 'b')[0]?.message ?? '', /Duplicate attribute href/)
  t.equal(validateRichText('<b>'.repeat(17), 'b')[0]?.code, 'VALIDATION_FAILED')
  t.equal(validateRichText('<p>a\u0000</p>', 'b')[0]?.code, 'VALIDATION_FAILED')
  const insecure = validateRichText('<a href="http://x.example/">x</a>', 'b')
  t.equal(insecure[0]?.code, 'VALIDATION_FAILED', 'http: is invalid, not dangerous')
  t.match(insecure[0]?.message ?? '', /https/)
})

t.test('validateRichText caps the number of issues per field', async (t) => {
  const issues = validateRichText('<div></div>'.repeat(100), 'b')
  t.equal(issues.length, 21)
  t.match(issues[20]?.message ?? '', /80 more problems/)
  t.equal(issues[20]?.code, 'UNSAFE_CONTENT')
})

t.test('findMarkup detects HTML in plain text but not ordinary text', async (t) => {
  t.equal(findMarkup('Tom & Jerry: 2 < 3 and 5 > 4, <3'), null)
  t.equal(findMarkup('a < b'), null)
  t.equal(findMarkup('&lt;script&gt;'), null, 'escaped text is text')
  t.equal(findMarkup('<script>alert(1)</script>'), '<script>')
  t.equal(findMarkup('<img src=x onerror=alert(1)'), '<img>', 'unterminated tags count')
  t.equal(findMarkup('<Foo />'), '<foo>', 'JSX counts')
  t.equal(findMarkup('x <!-- y -->'), 'an HTML comment')
  t.equal(findMarkup('<![CDATA[x]]>'), 'a CDATA section')
})

t.test('every pairing of hostile fragments sanitizes to inert markup', async (t) => {
  const fragments = [
    '<script>alert(1)</script>',
    '<scr',
    'ipt>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">',
    '<a href="/ok">',
    '</a>',
    '<p title="',
    '">',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '<svg>',
    '<style>',
    '</style>',
    '<noscript>',
    '<textarea>',
    '&lt;script&gt;',
    '&#60;img src=x onerror=alert(1)&#62;',
    '<b',
    "' onmouseover='alert(1)",
    '\u0000',
  ]
  let checked = 0
  for (const a of fragments) {
    for (const b of fragments) {
      for (const input of [`<p>${a}${b}x</p>`, `${a}<b>${b}</b>`, `${b}${a}`]) {
        const out = sanitizeRichText(input)
        const problems = inertProblems(out)
        if (problems.length > 0) t.fail(`${JSON.stringify(input)} -> ${JSON.stringify(out)}: ${problems.join(', ')}`)
        if (sanitizeRichText(out) !== out) t.fail(`not idempotent: ${JSON.stringify(input)}`)
        checked++
      }
    }
  }
  t.equal(checked, fragments.length ** 2 * 3)
})

// Clean verdicts are remembered by text (an edit validates every setting of its section again);
// a remembered verdict must never hide a problem, and problems carry each caller's own path.
t.test('validating the same text again: the same verdict, problems with the path of each call', async (t) => {
  const clean = '<p>Remembered <strong>clean</strong> text</p>'
  t.same(validateRichText(clean, 'a'), [])
  t.same(validateRichText(clean, 'b'), [], 'clean again')
  const dirty = '<p>Then <img src=x onerror=alert(1)></p>'
  const first = validateRichText(dirty, 'settings.body')
  t.ok(first.length > 0 && first.every((i) => i.path === 'settings.body'))
  const again = validateRichText(dirty, 'blocks[0].settings.text')
  t.same(
    again.map((i) => i.message),
    first.map((i) => i.message),
    'a value with problems is checked every time',
  )
  t.ok(again.every((i) => i.path === 'blocks[0].settings.text'))
  t.ok(
    validateRichText(`${clean}<script>x</script>`, 'c').length > 0,
    'a clean value with more after it is a new value',
  )
  // Past the bound (4,000,000 characters) the remembered values are forgotten, not kept growing.
  const long = `<p>${'x'.repeat(19_990)}</p>`
  for (let i = 0; i < 250; i++) t.same(validateRichText(long.replace('x', String(i)), 'd'), [])
  t.same(validateRichText(dirty, 'e').length, first.length)
})
