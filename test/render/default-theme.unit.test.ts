import t from 'tap'
import { defaultThemeDocument, INFORMATION_PAGES, type StoreIdentity } from '../../src/theme/default-theme.ts'
import { validateThemeDocument } from '../../src/theme/validate.ts'
import { heroImageOf } from '../../src/queries/store-identity.ts'
import type { MediaAssetView } from '../../src/queries/media-assets.ts'

const NO_REFS = { productIds: new Set<string>(), collectionIds: new Set<string>() }

const identity = (over: Partial<StoreIdentity> = {}): StoreIdentity => ({
  name: 'Atlas Outfitters',
  tagline: 'Gear for every trail',
  description: 'Outdoor gear for the High Atlas.',
  logo: '/media/aaaa.png',
  heroImage: { url: '/media/bbbb.png', alt: 'Mountains at sunrise' },
  primaryColor: '#3A5A40',
  secondaryColor: '#DDA15E',
  contact: { email: 'hello@atlas.example', phone: '+212 522 00 41 41', city: 'Casablanca', callHours: '09:00-19:00' },
  delivery: ['Casablanca: Standard 25,00 MAD (1–2 days)'],
  freeDeliveryFrom: '500,00 MAD',
  cashOnDelivery: { fee: '10,00 MAD', maxOrderTotal: '10.000,00 MAD', confirmationPolicy: 'We call to confirm.' },
  ...over,
})

t.test('without a store: the neutral default, unchanged', async (t) => {
  const doc = defaultThemeDocument()
  t.equal(doc.templates.home[0]!.type === 'hero' && doc.templates.home[0]!.settings.heading, 'Welcome to our store')
  t.same(doc.pages, [])
})

t.test('with a store: its name, tagline, logo, hero image, About text and information pages', async (t) => {
  const doc = defaultThemeDocument(identity())
  t.ok(validateThemeDocument(doc, NO_REFS).ok, 'valid')
  t.same(
    doc.templates.home.map((s) => s.id),
    ['home-hero', 'home-products', 'home-about'],
    'the same section ids as the neutral default',
  )
  const hero = doc.templates.home[0]!
  t.match(hero.settings, {
    heading: 'Atlas Outfitters',
    subheading: 'Gear for every trail',
    image: { url: '/media/bbbb.png', alt: 'Mountains at sunrise' },
  })
  t.equal(doc.theme.logo, '/media/aaaa.png')
  t.equal(doc.theme.primaryColor, '#3A5A40')
  t.match(JSON.stringify(doc.templates.home[2]), /Outdoor gear for the High Atlas/)
  t.same(
    doc.pages.map((p) => [p.slug, p.status]),
    INFORMATION_PAGES.map((slug) => [slug, 'published']),
  )
  const text = JSON.stringify(doc.pages)
  for (const fact of [
    'hello@atlas.example',
    'tel:+212522004141',
    'Casablanca: Standard 25,00 MAD',
    '500,00 MAD',
    '10,00 MAD',
    'We call to confirm.',
  ])
    t.ok(text.includes(fact), fact)
  const nav = doc.navigation.map((n) => n.href)
  for (const slug of ['about', 'contact']) t.ok(nav.includes(`/pages/${slug}`), `the menu links to /pages/${slug}`)
})

t.test('awkward store data still makes a valid document', async (t) => {
  const doc = defaultThemeDocument(
    identity({
      name: '<b>Shop</b> & "Co"',
      tagline: '',
      description: '<script>alert(1)</script> Ünïcödé',
      logo: null,
      heroImage: null,
      primaryColor: 'red',
      secondaryColor: null,
      contact: { email: 'a@b.example', phone: null, city: '', callHours: null },
      delivery: [],
      freeDeliveryFrom: null,
      cashOnDelivery: { fee: null, maxOrderTotal: null, confirmationPolicy: null },
    }),
  )
  const result = validateThemeDocument(doc, NO_REFS)
  t.ok(result.ok, result.ok ? 'valid' : JSON.stringify(result))
  t.notMatch(JSON.stringify(doc), /<script|<b>/, 'markup in store data is never passed through')
  t.equal(doc.theme.primaryColor, '#1f2937', 'an invalid colour falls back')
  t.notOk('image' in doc.templates.home[0]!.settings, 'no hero image when the store has none')
})

t.test('the hero image is the widest landscape asset', async (t) => {
  const asset = (id: string, width: number | null, height: number | null) =>
    ({ id, width, height, themeUrl: `/media/${id}.png` }) as MediaAssetView
  t.equal(
    heroImageOf([asset('logo', 256, 256), asset('a', 1200, 480), asset('b', 1600, 600), asset('tall', 400, 900)])?.id,
    'b',
  )
  t.equal(heroImageOf([asset('logo', 256, 256), asset('unknown', null, null)]), null)
})
