import t from 'tap'
import { RenderCache } from '../../src/render/cache.ts'
import { escapeHtml, html, Html, richText, SafeUrl, styleElement } from '../../src/web/html.ts'
import { parseRoute, queryKey, readQuery } from '../../src/render/routes.ts'
import { createUrls } from '../../src/render/urls.ts'
import { contentSecurityPolicy } from '../../src/render/storefront.ts'
import { inlineStyle, PageStyles, textOn } from '../../src/render/styles.ts'
import { readDocument } from '../../src/render/document.ts'
import { LIMITS, TEXT_LIMITS } from '../../src/theme/constants.ts'

t.test('the html tag escapes every interpolated value', async (t) => {
  const evil = `<script>alert("x")</script>&'`
  t.equal(html`<p>${evil}</p>`.value, '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>')
  t.equal(
    html`<p title="${evil}">x</p>`.value,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">x</p>',
  )
  t.equal(html`<p>${['a<', html`<b>b</b>`]}</p>`.value, '<p>a&lt;<b>b</b></p>', 'lists: strings escaped, Html kept')
  t.equal(html`<p>${null}${undefined}${false}${3}</p>`.value, '<p>3</p>')
  t.equal(escapeHtml('a\u0000b\u0007c\nd'), 'abc\nd', 'control characters removed')
})

t.test('URL attributes take only a SafeUrl, and unsafe contexts refuse values', async (t) => {
  const urls = createUrls('/s/shop', 'http://storefront.test')
  t.throws(() => html`<a href="${'/x'}">x</a>`, /SafeUrl/, 'a plain string in href')
  t.throws(() => html`<img src="${'https://x.example/a.png'}">`, /SafeUrl/, 'a plain string in src')
  t.throws(() => html`<form action="${'/x'}"></form>`, /SafeUrl/)
  t.throws(() => html`<a href="/s/${'x'}">x</a>`, /whole SafeUrl/, 'text glued to a URL')
  t.throws(() => html`<a onclick="${'x'}">x</a>`, /onclick/)
  t.throws(() => html`<p style="${'color:red'}">x</p>`, /style/)
  t.throws(() => html`<p class=${'x'}>x</p>`, /double-quoted/)
  t.throws(() => html`<p ${'onclick=alert(1)'}>x</p>`, /between attributes/)
  t.throws(() => html`<p title="${html`<b>`}">x</p>`, /markup/)
  t.throws(() => new Html(Symbol('forged'), '<script>'), /made by/)
  t.throws(() => new SafeUrl(Symbol('forged'), 'javascript:alert(1)'), /made by/)
  const link = urls.link('/products/p1')!
  t.equal(html`<a href="${link}">x</a>`.value, '<a href="/s/shop/products/p1">x</a>')
  t.equal(html`<p ${html` hidden`}>x</p>`.value, '<p  hidden>x</p>')
})

t.test('URLs: the theme URL policy applies at render time', async (t) => {
  const urls = createUrls('/preview/tok.en.x', 'http://storefront.test')
  for (const bad of [
    'javascript:alert(1)',
    'java&#x73;cript:alert(1)',
    'data:text/html,x',
    '//evil.example/',
    'http://insecure.example/',
    'vbscript:x',
    ' /x',
    '/x"><script>',
    42,
    null,
  ]) {
    t.equal(urls.link(bad), null, `link ${JSON.stringify(bad)} dropped`)
    t.equal(urls.image(bad), null, `image ${JSON.stringify(bad)} dropped`)
  }
  t.equal(urls.link('/')?.value, '/preview/tok.en.x', 'home stays in the preview')
  t.equal(urls.link('/pages/about?x=1')?.value, '/preview/tok.en.x/pages/about?x=1', 'query kept')
  t.equal(urls.link('/media/a.png')?.value, '/media/a.png', 'service files keep their path')
  t.equal(urls.link('https://example.com/a')?.value, 'https://example.com/a')
  t.equal(
    urls.image('http://storefront.test/media/a.png')?.value,
    '/media/a.png',
    'catalog images become site-relative',
  )
  t.equal(
    urls.path('/products', { page: 2, sort: 'price-asc', x: undefined })?.value,
    '/preview/tok.en.x/products?page=2&sort=price-asc',
  )
  t.equal(urls.contact('mailto:a@b.example')?.value, 'mailto:a@b.example')
  t.equal(urls.contact('tel:+212600000000')?.value, 'tel:+212600000000')
  t.ok(urls.dropped.length > 0, 'drops are counted for the notes')
})

t.test('rich text is re-sanitized and its links stay in the storefront', async (t) => {
  t.equal(
    richText(
      '<p onclick="x">Hi <a href="/pages/a">a</a> <a href="javascript:alert(1)">b</a></p><script>x</script>',
      '/s/shop',
    ).value,
    '<p>Hi <a href="/s/shop/pages/a">a</a> <a>b</a></p>',
  )
  t.equal(
    richText('<a href="/media/x.png">m</a><a href="https://e.example/">e</a>', '/s/shop').value,
    '<a href="/media/x.png">m</a><a href="https://e.example/">e</a>',
  )
  t.equal(
    richText('Text &lt;a href="/x"&gt;', '/s/shop').value,
    'Text &lt;a href="/x"&gt;',
    'escaped text is not rewritten',
  )
  t.equal(richText(42, '/s/shop').value, '')
})

t.test("a stored document's lists are read up to the theme format's limits, no further", async (t) => {
  const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i))
  const link = (i: number) => ({ label: `L${i}`, href: '/' })
  const doc = readDocument({
    templates: {
      home: many(LIMITS.sectionsPerLayout + 5, (i) => ({
        id: `s${i}`,
        type: 'faq',
        settings: {},
        blocks: many(LIMITS.blocksPerSection + 5, (j) => ({ id: `b${j}`, type: 'question', settings: {} })),
      })),
    },
    navigation: many(TEXT_LIMITS.navigationEntries + 5, (i) => ({ ...link(i), children: many(30, link) })),
  })
  t.equal(doc.templates.home.length, LIMITS.sectionsPerLayout)
  t.equal(doc.templates.home[0]!.blocks.length, LIMITS.blocksPerSection)
  t.equal(doc.navigation.length, TEXT_LIMITS.navigationEntries)
  t.equal(doc.navigation[0]!.children.length, TEXT_LIMITS.navigationChildren)
})

t.test('inline CSS comes only from validated tokens; its hash goes into the CSP', async (t) => {
  const doc = readDocument({
    theme: {
      theme: 'bold',
      primaryColor: '#fff;}body{background:url(javascript:alert(1))',
      secondaryColor: '#abc',
      font: "Inter'}",
      logo: null,
    },
  })
  t.equal(doc.tokens.primaryColor, '#1f2937', 'invalid color falls back')
  t.equal(doc.tokens.font, 'Inter')
  const styles = new PageStyles()
  styles.height(9999)
  styles.variantSwitch('pd1', 2)
  styles.variantSwitch('x"y', 2)
  const style = inlineStyle(doc.tokens, styles)
  t.match(style.element.value, /^<style>:root\{--primary:#1f2937;/)
  t.notMatch(style.element.value, /javascript|url\(|x"y/)
  t.match(style.element.value, /\.u-h400\{height:400px\}/, 'heights are clamped')
  t.match(style.hash, /^'sha256-[A-Za-z0-9+/]+=*'$/)
  t.throws(() => styleElement('</style><script>'), /must not contain/)
  const csp = contentSecurityPolicy(style.hash)
  t.match(csp, /script-src 'none'/)
  t.match(csp, /img-src 'self' https:/)
  t.notMatch(csp, /unsafe-inline|unsafe-eval/)
  t.equal(textOn('#ffffff'), '#111111')
  t.equal(textOn('#1f2937'), '#ffffff')
})

t.test('routes and query parameters', async (t) => {
  t.same(parseRoute(''), { kind: 'home' })
  t.same(parseRoute('/'), { kind: 'home' })
  t.same(parseRoute('/products'), { kind: 'products' })
  t.same(parseRoute('/products/prod_1'), { kind: 'product', ref: 'prod_1' })
  t.same(parseRoute('/products/prod_1/'), { kind: 'product', ref: 'prod_1' })
  t.same(parseRoute('/collections/c1'), { kind: 'collection', ref: 'c1' })
  t.same(parseRoute('/pages/about-us'), { kind: 'page', slug: 'about-us' })
  t.same(parseRoute('/blog/sample'), { kind: 'blog', slug: 'sample' })
  t.same(parseRoute('/checkout'), { kind: 'checkout' })
  for (const bad of ['/products/a/b', '/products/%E0%A4%A', '/pages/About', '/nope', '/products/<x>'])
    t.same(parseRoute(bad), { kind: 'not-found' }, bad)
  const q = readQuery(new URLSearchParams('variant=var_1&page=3&sort=price-desc&available=1&min=10&max=x&junk=1'))
  t.same(q, { variant: 'var_1', page: 3, sort: 'price-desc', inStock: true, minPrice: 10, maxPrice: null })
  t.equal(queryKey({ kind: 'home' }, q), '', 'home ignores the query')
  t.equal(queryKey({ kind: 'product', ref: 'p' }, q), 'v=var_1')
  t.equal(readQuery(new URLSearchParams('page=-1&sort=evil')).page, 1)
})

t.test('the render cache: LRU, byte budget, time-to-live, one producer for concurrent misses', async (t) => {
  let now = 0
  const cache = new RenderCache<string>({
    maxEntries: 2,
    maxBytes: 100,
    ttlMs: 10_000,
    now: () => now,
    sizeOf: (v) => v.length,
  })
  cache.set('a', 'x'.repeat(10))
  cache.set('b', 'y'.repeat(10))
  now = 1500
  cache.get('a')
  cache.set('c', 'z')
  t.equal(cache.get('b'), undefined, 'least recently used evicted')
  t.ok(cache.get('a'))
  // Use is recorded at a one-second grain: a read within a second of the last one moves nothing.
  cache.set('d', 'd')
  t.equal(cache.get('a'), undefined, 'a, read again within the second, stayed first and went')
  now = 3000
  t.ok(cache.get('c'), 'a read a second later moves c after d')
  cache.set('e', 'e')
  t.equal(cache.get('d'), undefined, 'so d went')
  t.ok(cache.get('c'))
  now = 20_000
  t.equal(cache.get('c'), undefined, 'expired')
  cache.set('big', 'w'.repeat(200))
  t.equal(cache.get('big'), undefined, 'larger than the budget: not kept')
  let runs = 0
  const produce = async () => {
    runs++
    await new Promise((r) => setTimeout(r, 10))
    return { value: 'v', store: true }
  }
  const results = await Promise.all([
    cache.getOrCreate('k', produce),
    cache.getOrCreate('k', produce),
    cache.getOrCreate('k', produce),
  ])
  t.equal(runs, 1, 'one render for three concurrent requests')
  t.same(
    results.map((r) => r.value),
    ['v', 'v', 'v'],
  )
  t.equal((await cache.getOrCreate('k', produce)).hit, true)
})
