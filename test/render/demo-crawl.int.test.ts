import t from 'tap'
import { testApp } from '../support/app.ts'
import { byTag, elements, parse, textOf } from './support.ts'

// What every newcomer sees first: the two demo storefronts, crawled from their home pages.
// Every link, image, stylesheet and GET form of every page they reach must answer (no 404 and
// no other error), and each store shows its own identity and design.

type Crawl = {
  pages: number
  links: number
  checked: number
  external: number
  failures: string[]
  pagesSeen: Map<string, string>
  /** Pages reached through a 301 (id URLs). */
  redirects: string[]
}

type El = ReturnType<typeof elements>[number]

/** The URL a browser opens when the GET form is submitted as it is (nothing when it cannot be). */
function submission(form: El): string[] {
  const buttons = elements(form, (e) => e.name === 'button' && (e.attribs.type ?? 'submit') === 'submit')
  if (buttons.length > 0 && buttons.every((b) => b.attribs.disabled !== undefined)) return []
  const params = new URLSearchParams()
  for (const field of elements(
    form,
    (e) =>
      (e.name === 'input' || e.name === 'select') && e.attribs.name !== undefined && e.attribs.disabled === undefined,
  )) {
    const type = field.attribs.type ?? 'text'
    if (field.name === 'select') {
      const options = byTag(field, 'option')
      const chosen = options.find((o) => o.attribs.selected !== undefined) ?? options[0]
      if (chosen) params.append(field.attribs.name!, chosen.attribs.value ?? textOf(chosen))
    } else if (type === 'radio' || type === 'checkbox') {
      if (field.attribs.checked !== undefined) params.append(field.attribs.name!, field.attribs.value ?? 'on')
    } else params.append(field.attribs.name!, field.attribs.value ?? '')
  }
  const qs = params.toString()
  return [`${form.attribs.action ?? ''}${qs ? `?${qs}` : ''}`]
}

async function crawl(
  get: (url: string) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>,
  root: string,
): Promise<Crawl> {
  const result: Crawl = {
    pages: 0,
    links: 0,
    checked: 0,
    external: 0,
    failures: [],
    pagesSeen: new Map(),
    redirects: [],
  }
  const status = new Map<string, number>()
  const queue = [root]
  const queued = new Set(queue)
  while (queue.length > 0) {
    const url = queue.shift()!
    const res = await get(url)
    status.set(url, res.statusCode)
    result.checked++
    // An id URL answers 301 to the product's or collection's handle URL, which is crawled in turn.
    const location = res.headers.location
    if (res.statusCode === 301 && typeof location === 'string' && location.startsWith(root)) {
      result.redirects.push(url)
      status.set(url, 200)
      if (!queued.has(location)) {
        queued.add(location)
        queue.push(location)
      }
      continue
    }
    if (res.statusCode !== 200) {
      result.failures.push(`${res.statusCode} ${url}`)
      continue
    }
    if (!String(res.headers['content-type']).startsWith('text/html')) continue
    result.pages++
    result.pagesSeen.set(url, res.body)
    const dom = parse(res.body)
    const targets = [
      ...elements(dom, (e) => e.name === 'a' || e.name === 'link').map((e) => e.attribs.href),
      ...byTag(dom, 'img').map((e) => e.attribs.src),
      ...elements(dom, (e) => e.name === 'form' && (e.attribs.method ?? 'get').toLowerCase() === 'get').flatMap(
        submission,
      ),
    ]
    for (const raw of targets) {
      if (raw === undefined || raw === '' || raw.startsWith('#')) continue
      result.links++
      if (/^(mailto|tel):/.test(raw) || /^https:\/\//.test(raw)) {
        result.external++
        continue
      }
      const target = new URL(raw, `http://storefront.test${url}`)
      const path = `${target.pathname}${target.search}`
      if (queued.has(path)) {
        if (status.get(path) !== undefined && status.get(path) !== 200)
          result.failures.push(`${status.get(path)} ${path} (linked from ${url})`)
        continue
      }
      queued.add(path)
      // Pages of this store are crawled further; other files (media, stylesheet) only fetched.
      if (path.startsWith(root)) queue.push(path)
      else {
        const file = await get(path)
        status.set(path, file.statusCode)
        result.checked++
        if (file.statusCode !== 200) result.failures.push(`${file.statusCode} ${path} (linked from ${url})`)
      }
    }
  }
  return result
}

t.test('the demo storefronts have no dead ends and speak for their stores', async (t) => {
  const { app } = await testApp(t)
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url })
    return { statusCode: res.statusCode, headers: res.headers as Record<string, unknown>, body: res.body }
  }
  const homes = new Map<string, string>()
  for (const [slug, name, tagline] of [
    ['atlas', 'Atlas Outfitters', 'Gear for every trail from Toubkal to Merzouga'],
    ['lumen', 'Lumen Home', 'Warm light, honest materials'],
  ] as const) {
    await t.test(slug, async (t) => {
      const root = `/s/${slug}`
      const result = await crawl(get, root)
      t.comment(
        `${slug}: ${result.pages} pages crawled, ${result.links} links followed (${result.checked} distinct URLs fetched, ${result.external} external or contact links not fetched)`,
      )
      t.same(result.failures, [], 'no link answers 404 or any other error')
      const themed = [...result.pagesSeen.entries()].filter(([url]) => !url.includes('/checkout'))
      t.same(
        themed
          .filter(([, body]) => /href="[^"]*\/(products|collections)\/(prod|coll?)_/.test(body))
          .map(([url]) => url),
        [],
        'themed pages link products and collections by handle (only the checkout links back by id, through the 301)',
      )
      t.ok(result.pages >= 40, `every product, collection and page is reached (${result.pages} pages)`)
      for (const page of ['about', 'contact', 'shipping-returns', 'cash-on-delivery'])
        t.ok(result.pagesSeen.has(`${root}/pages/${page}`), `the footer's /pages/${page} is reached`)

      const home = parse(result.pagesSeen.get(root)!)
      homes.set(slug, result.pagesSeen.get(root)!)
      const h1 = byTag(home, 'h1')
      t.equal(h1.length, 1)
      t.equal(textOf(h1[0]!), name, 'the hero says the store’s name')
      t.ok(textOf(home).includes(tagline), 'and its tagline')
      t.notOk(textOf(home).includes('Welcome to our store'), 'not the generic greeting')
      const brand = elements(home, (e) => e.name === 'a' && e.attribs.class === 'brand')[0]!
      t.match(byTag(brand, 'img')[0]?.attribs.src, /^\/media\/[0-9a-f]{64}\.png$/, 'the header shows the store’s logo')
      const heroImg = elements(home, (e) => e.name === 'div' && e.attribs.class === 'hero-media')[0]
      t.match(
        heroImg && byTag(heroImg, 'img')[0]?.attribs.src,
        /^\/media\/[0-9a-f]{64}\.png$/,
        'the hero has an image from the store’s media',
      )
      const about = textOf(parse(result.pagesSeen.get(`${root}/pages/about`)!))
      t.ok(about.includes(name), 'the About page names the store')
      const contact = textOf(parse(result.pagesSeen.get(`${root}/pages/contact`)!))
      t.match(contact, /@/, 'the Contact page has the store’s email')
    })
  }

  await t.test('the two demo stores have distinct designs', async (t) => {
    const design = (html: string) => {
      const dom = parse(html)
      return {
        preset: byTag(dom, 'body')[0]!.attribs.class,
        sections: elements(dom, (e) => e.attribs['data-section-type'] !== undefined).map(
          (e) => e.attribs['data-section-type'],
        ),
      }
    }
    const atlas = design(homes.get('atlas')!)
    const lumen = design(homes.get('lumen')!)
    t.not(atlas.preset, lumen.preset, `different presets (${atlas.preset}, ${lumen.preset})`)
    t.notSame(atlas.sections, lumen.sections, 'different home layouts')
    t.ok(
      homes.get('atlas')!.includes('Tested on Moroccan trails') &&
        !homes.get('lumen')!.includes('Tested on Moroccan trails'),
      'each store its own copy',
    )
  })
})
