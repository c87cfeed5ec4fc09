import { createHash } from 'node:crypto'
import type { OrderLine } from '../aggregates/orders/events.ts'
import { mulberry32, PALETTES, type BannerSpec, type LogoSpec, type Motif, type ProductImageSpec } from './images.ts'

// Deterministic demo data for two stores with distinct catalogs (outdoor gear in Morocco,
// home goods in France), so that tests can prove store isolation. Everything here is pure
// data: no clock, no Math.random (a seeded PRNG), no database. Images are described by
// specs; seed-commerce.ts renders them and turns them into /media/<sha256>.png URLs.
// Secrets are not here: they are generated at seed time and only ever written to store_secrets.

export const DEMO_STORE_IDS = ['st_demo_atlas', 'st_demo_lumen'] as const

export type DemoImageSpec =
  | { kind: 'product'; spec: ProductImageSpec }
  | { kind: 'banner'; spec: BannerSpec }
  | { kind: 'logo'; spec: LogoSpec }
export type DemoImage = { image: DemoImageSpec; alt: string }

export type DemoVariant = {
  id: string
  title: string
  sku: string
  priceCents: number
  compareAtCents: number | null
  inventoryQuantity: number
  options: { name: string; value: string }[]
  position: number
}
export type DemoProduct = {
  id: string
  handle: string
  title: string
  description: string
  vendor: string
  productType: string
  tags: string[]
  status: 'active' | 'draft' | 'archived'
  images: DemoImage[]
  options: { name: string; values: string[] }[]
  variants: DemoVariant[]
  createdAt: Date
  updatedAt: Date
}
export type DemoCollection = {
  id: string
  handle: string
  title: string
  description: string
  // The image is the first image of this product (same blob, no extra rendering).
  imageFromProductId: string
  productIds: string[]
  createdAt: Date
  updatedAt: Date
}
export type DemoCustomer = {
  id: string
  firstName: string
  lastName: string
  email: string
  phone: string
  city: string
  country: string
  acceptsMarketing: boolean
  createdAt: Date
}
export type DemoAddress = {
  name: string
  phone: string
  address1: string
  address2: string | null
  city: string
  region: string
  postalCode: string
  country: string
}
// A demo order's line is an order line as the orders aggregate records it.
export type DemoLineItem = OrderLine
export type DemoOrder = {
  id: string
  number: number
  customerId: string | null
  status: 'pending' | 'confirmed' | 'shipped' | 'delivered' | 'cancelled' | 'returned'
  paymentMethod: 'cash_on_delivery'
  currency: string
  subtotalCents: number
  shippingCents: number
  codFeeCents: number
  totalCents: number
  lineItems: DemoLineItem[]
  shippingAddress: DemoAddress
  createdAt: Date
}
// Stored as checkout_configs.config (money in cents); the query layer turns it into Money.
export type DemoCheckoutConfig = {
  paymentMethods: ['cash_on_delivery']
  currency: string
  codFeeCents: number
  freeShippingThresholdCents: number | null
  maxOrderCents: number | null
  shippingZones: {
    name: string
    countries: string[]
    rates: { name: string; priceCents: number; minDeliveryDays: number; maxDeliveryDays: number }[]
  }[]
  orderConfirmation: { method: 'phone_call'; required: boolean; policy: string }
  guestCheckout: boolean
  requiredFields: string[]
}
// Stored as store_settings.settings: non-secret only.
export type DemoSettings = {
  storeName: string
  contactEmail: string
  contactPhone: string
  locale: string
  languages: string[]
  currency: string
  timezone: string
  weightUnit: 'kg' | 'g' | 'lb' | 'oz'
  dimensionUnit: 'cm' | 'in'
  taxesIncluded: boolean
  orderConfirmation: { byPhone: boolean; callHours: string; smsUpdates: boolean }
  address: { city: string; region: string; country: string }
  socialLinks: { network: string; url: string }[]
}
export type DemoNavItem = { label: string; href: string; children?: DemoNavItem[] }
export type DemoMenu = { handle: string; title: string; items: DemoNavItem[] }

export type DemoStore = {
  storeId: string
  merchant: { id: string; email: string; name: string }
  name: string
  slug: string
  currency: string
  locale: string
  country: string
  timezone: string
  contactEmail: string
  description: string
  createdAt: Date
  branding: { logo: DemoImage; primaryColor: string; secondaryColor: string; tagline: string }
  banners: DemoImage[]
  settings: DemoSettings
  secretNames: string[]
  products: DemoProduct[]
  collections: DemoCollection[]
  customers: DemoCustomer[]
  orders: DemoOrder[]
  checkout: DemoCheckoutConfig
  navigationMenus: DemoMenu[]
}

// Opaque, prefixed, stable ids: prefix + 16 hex characters of a hash of the natural key.
export function demoId(prefix: string, ...parts: string[]): string {
  return `${prefix}_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16)}`
}

// --- definitions ---

type ProductDef = {
  title: string
  type: string
  motif: Motif
  price: number // major units
  desc: string
  tags: string[]
  in: string[] // collection keys
  opts?: [string, string[]][] // at most 4 combinations
  step?: number // price added per value index of the first option
  status?: 'draft' | 'archived'
  vendor?: string
}
type CollectionDef = { key: string; title: string; desc: string }
type StoreDef = {
  storeId: string
  seed: number
  name: string
  slug: string
  skuPrefix: string
  currency: string
  locale: string
  languages: string[]
  country: string
  timezone: string
  contactEmail: string
  contactPhone: string
  merchant: { email: string; name: string }
  description: string
  tagline: string
  palette: number
  logoStyle: 'peak' | 'sun'
  bannerStyle: 'hills' | 'arches'
  bannerAlts: string[]
  weightUnit: 'kg' | 'g'
  address: { city: string; region: string; country: string }
  social: { network: string; url: string }[]
  vendors: string[]
  collections: CollectionDef[]
  products: ProductDef[]
  people: [string, string][]
  places: { city: string; region: string; postalCode: string; country: string }[]
  streets: string[]
  phone: (rnd: () => number) => string
  checkout: Omit<DemoCheckoutConfig, 'currency'>
  callHours: string
}

const ATLAS: StoreDef = {
  storeId: 'st_demo_atlas',
  seed: 0x41544c53,
  name: 'Atlas Outfitters',
  slug: 'atlas',
  skuPrefix: 'ATL',
  currency: 'MAD',
  locale: 'fr-MA',
  languages: ['fr', 'ar', 'en'],
  country: 'MA',
  timezone: 'Africa/Casablanca',
  contactEmail: 'hello@atlas-outfitters.example',
  contactPhone: '+212 522 00 41 41',
  merchant: { email: 'owner@atlas-outfitters.example', name: 'Nadia Benkirane' },
  description:
    'Outdoor gear for the High Atlas, the Rif and the Sahara: tents, packs, trail apparel and camp kitchens, tested on Moroccan trails and delivered to your door. Pay in cash on delivery.',
  tagline: 'Gear for every trail from Toubkal to Merzouga',
  palette: 9,
  logoStyle: 'peak',
  bannerStyle: 'hills',
  bannerAlts: ['Layered mountain ridges at sunrise', 'Desert dunes and a low sun', 'Green foothills under a clear sky'],
  weightUnit: 'kg',
  address: { city: 'Casablanca', region: 'Casablanca-Settat', country: 'MA' },
  social: [
    { network: 'instagram', url: 'https://instagram.com/atlas.outfitters.demo' },
    { network: 'facebook', url: 'https://facebook.com/atlas.outfitters.demo' },
    { network: 'youtube', url: 'https://youtube.com/@atlas-outfitters-demo' },
  ],
  vendors: ['Atlas Outfitters', 'Toubkal Works', 'Sahara Trail Co.', 'Rif Mountain Supply'],
  collections: [
    {
      key: 'camp',
      title: 'Camp & Sleep',
      desc: 'Tents, sleeping bags, pads and camp furniture for nights under the Atlas sky.',
    },
    {
      key: 'packs',
      title: 'Packs & Trail Essentials',
      desc: 'Backpacks, dry bags and the small things that get you home safely.',
    },
    { key: 'apparel', title: 'Trail Apparel', desc: 'Layers, footwear and sun protection for mountains and desert.' },
    { key: 'kitchen', title: 'Hydration & Camp Kitchen', desc: 'Bottles, filters, stoves and cook sets.' },
    { key: 'best', title: 'Best Sellers', desc: 'The gear our customers come back for.' },
  ],
  products: [
    {
      title: 'Toubkal 2-Person Tent',
      type: 'Tents',
      motif: 'dome-tent',
      price: 1899,
      opts: [['Colour', ['Sand', 'Olive']]],
      tags: ['tent', 'camping', '3-season'],
      in: ['camp', 'best'],
      desc: 'A freestanding three-season tent with two doors, two vestibules and a packed weight of 1.9 kg. It pitches in under five minutes and shrugs off the wind on the Toubkal plateau.',
    },
    {
      title: 'Ridge Ultralight 1-Person Tent',
      type: 'Tents',
      motif: 'tent',
      price: 1499,
      tags: ['tent', 'ultralight'],
      in: ['camp'],
      desc: 'A single-wall shelter for fast and light treks. It pitches with one trekking pole and packs down to the size of a water bottle.',
    },
    {
      title: 'Summit 45L Trekking Backpack',
      type: 'Backpacks',
      motif: 'backpack',
      price: 899,
      opts: [['Colour', ['Slate', 'Terracotta']]],
      tags: ['backpack', 'trekking'],
      in: ['packs', 'best'],
      desc: 'An adjustable back system, hip-belt pockets and a rain cover tucked into the lid. Built for multi-day routes in the High Atlas.',
    },
    {
      title: 'Medina 22L Daypack',
      type: 'Backpacks',
      motif: 'daypack',
      price: 449,
      opts: [['Colour', ['Black', 'Ochre', 'Teal']]],
      tags: ['backpack', 'everyday'],
      in: ['packs'],
      desc: 'A light everyday daypack with a padded laptop sleeve and a hidden passport pocket, equally at home in the souk and on the trail.',
    },
    {
      title: 'Merzouga Wide-Brim Sun Hat',
      type: 'Hats',
      motif: 'hat',
      price: 179,
      opts: [['Size', ['S/M', 'L/XL']]],
      tags: ['hat', 'sun', 'desert'],
      in: ['apparel'],
      desc: 'A UPF 50+ wide brim with a chin cord and a vented crown for long desert afternoons.',
    },
    {
      title: 'Trail Runner Shoes',
      type: 'Footwear',
      motif: 'shoe',
      price: 799,
      opts: [['Size', ['40', '41', '42', '43']]],
      tags: ['shoes', 'trail running'],
      in: ['apparel', 'best'],
      desc: 'A grippy lugged outsole, a breathable mesh upper and a rock plate for stony single-track.',
    },
    {
      title: 'Waterproof Hiking Boots',
      type: 'Footwear',
      motif: 'boot',
      price: 1199,
      opts: [['Size', ['40', '42', '44']]],
      tags: ['boots', 'waterproof'],
      in: ['apparel'],
      desc: 'Full-grain leather boots with a waterproof membrane and a deep-lug outsole. Broken in within a weekend, good for years.',
    },
    {
      title: 'Insulated Water Bottle 750 ml',
      type: 'Hydration',
      motif: 'bottle',
      price: 199,
      opts: [['Colour', ['Sky', 'Sand', 'Forest']]],
      tags: ['bottle', 'insulated'],
      in: ['kitchen', 'best'],
      desc: 'Double-wall stainless steel keeps water cold for 24 hours and mint tea hot for 12.',
    },
    {
      title: 'Titanium Camp Mug 450 ml',
      type: 'Cookware',
      motif: 'mug',
      price: 159,
      tags: ['mug', 'titanium', 'ultralight'],
      in: ['kitchen'],
      desc: 'Weighs 62 g, nests over a gas canister and doubles as a pot for one.',
    },
    {
      title: 'Compact Gas Stove',
      type: 'Cookware',
      motif: 'stove',
      price: 349,
      tags: ['stove', 'cooking'],
      in: ['kitchen'],
      desc: 'Boils a litre of water in three and a half minutes. Piezo ignition and a folding pot support.',
    },
    {
      title: 'Oukaimeden Down Sleeping Bag -5 °C',
      type: 'Sleeping',
      motif: 'sleeping-bag',
      price: 1299,
      opts: [['Size', ['Regular', 'Long']]],
      step: 100,
      tags: ['sleeping bag', 'down'],
      in: ['camp', 'best'],
      desc: 'Responsibly sourced 650-fill down in a mummy cut with a draft collar. Comfort rated to -5 °C for spring nights in the mountains.',
    },
    {
      title: 'Self-Inflating Sleeping Pad',
      type: 'Sleeping',
      motif: 'sleeping-pad',
      price: 549,
      opts: [['Size', ['Regular', 'Wide']]],
      step: 80,
      tags: ['sleeping pad'],
      in: ['camp'],
      desc: 'Open the valve and it inflates itself: five centimetres of foam and air between you and the cold ground.',
    },
    {
      title: 'Headlamp 350 Lumens',
      type: 'Lighting',
      motif: 'headlamp',
      price: 229,
      tags: ['headlamp', 'rechargeable'],
      in: ['camp', 'best'],
      desc: 'Recharges over USB-C, with a red night mode and a lock-out switch for the bottom of your pack.',
    },
    {
      title: 'Solar Camp Lantern',
      type: 'Lighting',
      motif: 'lantern',
      price: 259,
      tags: ['lantern', 'solar'],
      in: ['camp'],
      desc: 'Charges in the sun all day and lights the tent all night. Collapses flat for packing.',
    },
    {
      title: 'Carbon Trekking Poles (Pair)',
      type: 'Accessories',
      motif: 'poles',
      price: 399,
      tags: ['poles', 'carbon'],
      in: ['packs'],
      desc: 'Three-section carbon poles with cork grips and flick locks, 240 g each.',
    },
    {
      title: 'Merino Base Layer Top',
      type: 'Apparel',
      motif: 'long-sleeve',
      price: 499,
      opts: [['Size', ['S', 'M', 'L', 'XL']]],
      tags: ['merino', 'base layer'],
      in: ['apparel'],
      desc: 'A 150 g/m² merino jersey that stays warm when damp and does not smell after three days on the trail.',
    },
    {
      title: 'Jbel Fleece Jacket',
      type: 'Apparel',
      motif: 'jacket',
      price: 699,
      opts: [
        ['Size', ['S', 'M']],
        ['Colour', ['Olive', 'Rust']],
      ],
      tags: ['fleece', 'mid layer'],
      in: ['apparel', 'best'],
      desc: 'A grid-fleece mid layer with a full zip, thumb loops and two hand pockets.',
    },
    {
      title: 'Storm Rain Shell',
      type: 'Apparel',
      motif: 'rain-shell',
      price: 899,
      opts: [['Size', ['S', 'M', 'L']]],
      tags: ['rain jacket', 'waterproof'],
      in: ['apparel'],
      desc: 'A three-layer waterproof shell with pit zips and a helmet-compatible hood.',
    },
    {
      title: 'Quick-Dry Hiking Shorts',
      type: 'Apparel',
      motif: 'shorts',
      price: 299,
      opts: [['Size', ['S', 'M', 'L', 'XL']]],
      tags: ['shorts'],
      in: ['apparel'],
      desc: 'Stretch nylon with zipped pockets and a built-in belt. Dries in an hour in the sun.',
    },
    {
      title: 'Wool Hiking Socks (3-Pack)',
      type: 'Apparel',
      motif: 'socks',
      price: 149,
      opts: [['Size', ['36-39', '40-43', '44-47']]],
      tags: ['socks', 'merino'],
      in: ['apparel'],
      desc: 'A cushioned merino blend with a seamless toe and a reinforced heel.',
    },
    {
      title: 'Desert Chèche Scarf',
      type: 'Apparel',
      motif: 'scarf',
      price: 129,
      opts: [['Colour', ['Indigo', 'Saffron', 'Sand']]],
      tags: ['scarf', 'desert'],
      in: ['apparel'],
      desc: 'Three metres of light cotton that wraps into a turban against sun and sand, the Saharan way.',
    },
    {
      title: 'Folding Camp Chair',
      type: 'Furniture',
      motif: 'camp-chair',
      price: 379,
      opts: [['Colour', ['Charcoal', 'Olive']]],
      tags: ['chair', 'camp furniture'],
      in: ['camp'],
      desc: 'Sets up in seconds, holds 120 kg and packs into its own bag.',
    },
    {
      title: 'Hammock with Tree Straps',
      type: 'Furniture',
      motif: 'hammock',
      price: 329,
      tags: ['hammock'],
      in: ['camp'],
      desc: 'A parachute-nylon hammock with tree-friendly straps, hung in two minutes.',
    },
    {
      title: 'Trail First Aid Kit',
      type: 'Safety',
      motif: 'first-aid',
      price: 249,
      tags: ['first aid', 'safety'],
      in: ['packs'],
      desc: 'Forty-eight pieces for blisters, cuts and sprains in a waterproof pouch, with a printed guide in French and Arabic.',
    },
    {
      title: 'Multi-Tool 14-in-1',
      type: 'Accessories',
      motif: 'multi-tool',
      price: 289,
      tags: ['multi-tool'],
      in: ['packs'],
      desc: 'Pliers, knife, saw, screwdrivers and a bottle opener in stainless steel.',
    },
    {
      title: 'Roll-Top Dry Bag 20 L',
      type: 'Bags',
      motif: 'dry-bag',
      price: 189,
      opts: [['Colour', ['Yellow', 'Blue']]],
      tags: ['dry bag', 'waterproof'],
      in: ['packs'],
      desc: 'Welded seams and a roll-top closure keep your gear dry on river crossings.',
    },
    {
      title: 'Polarized Sport Sunglasses',
      type: 'Accessories',
      motif: 'sunglasses',
      price: 349,
      tags: ['sunglasses'],
      in: ['apparel'],
      desc: 'Category 3 polarized lenses in a wrap frame with rubber nose pads.',
    },
    {
      title: 'Baseplate Compass',
      type: 'Navigation',
      motif: 'compass',
      price: 139,
      tags: ['compass', 'navigation'],
      in: ['packs'],
      desc: 'A liquid-filled compass with declination adjustment and a map-scale ruler.',
    },
    {
      title: 'Hard Cooler 25 L',
      type: 'Coolers',
      motif: 'cooler',
      price: 649,
      opts: [['Colour', ['White', 'Sand']]],
      tags: ['cooler'],
      in: ['kitchen'],
      desc: 'Keeps ice for three days, at the beach in Essaouira or at base camp.',
    },
    {
      title: 'Climbing Chalk Bag',
      type: 'Climbing',
      motif: 'chalk-bag',
      price: 119,
      opts: [['Colour', ['Red', 'Black']]],
      tags: ['climbing', 'chalk'],
      in: ['packs'],
      desc: 'A fleece-lined chalk bag with a brush holder and a drawcord closure.',
    },
    {
      title: 'Squeeze Water Filter',
      type: 'Hydration',
      motif: 'water-filter',
      price: 429,
      tags: ['water filter'],
      in: ['kitchen'],
      desc: 'Removes 99.9999 % of bacteria and screws onto standard bottles.',
    },
    {
      title: 'Two-Person Cook Set',
      type: 'Cookware',
      motif: 'cook-set',
      price: 459,
      tags: ['cook set'],
      in: ['kitchen', 'best'],
      desc: 'A hard-anodised pot, a pan, two bowls and two sporks that nest together.',
    },
    {
      title: "Kids' Explorer Backpack 12 L",
      type: 'Backpacks',
      motif: 'daypack',
      price: 259,
      status: 'draft',
      tags: ['backpack', 'kids'],
      in: [],
      desc: 'A small pack sized for young hikers, with a chest strap and a whistle. Coming soon.',
    },
    {
      title: 'Classic Canvas Bell Tent',
      type: 'Tents',
      motif: 'bell-tent',
      price: 3499,
      status: 'archived',
      tags: ['tent', 'canvas'],
      in: [],
      desc: 'Our original cotton-canvas bell tent. Discontinued; kept for order history.',
    },
    {
      title: 'Winter Trail Gaiters',
      type: 'Accessories',
      motif: 'gaiters',
      price: 219,
      status: 'draft',
      tags: ['gaiters', 'winter'],
      in: [],
      desc: 'Water-resistant gaiters for snow on the Toubkal approach. Launching in December.',
    },
  ],
  people: [
    ['Youssef', 'Benali'],
    ['Salma', 'El Amrani'],
    ['Omar', 'Alaoui'],
    ['Khadija', 'Bennani'],
    ['Mehdi', 'Tazi'],
    ['Imane', 'Idrissi'],
    ['Hamza', 'Chraibi'],
    ['Nadia', 'Berrada'],
    ['Karim', 'Fassi'],
    ['Sara', 'Ouazzani'],
    ['Anas', 'Lahlou'],
    ['Zineb', 'Bouzid'],
    ['Reda', 'Naciri'],
    ['Meryem', 'Kettani'],
    ['Amine', 'Sqalli'],
    ['Houda', 'Amrani'],
    ['Ilyas', 'Zahraoui'],
    ['Ghita', 'Haddad'],
    ['Yassine', 'Mansouri'],
    ['Leila', 'Benjelloun'],
  ],
  places: [
    { city: 'Casablanca', region: 'Casablanca-Settat', postalCode: '20250', country: 'MA' },
    { city: 'Rabat', region: 'Rabat-Salé-Kénitra', postalCode: '10000', country: 'MA' },
    { city: 'Marrakech', region: 'Marrakech-Safi', postalCode: '40000', country: 'MA' },
    { city: 'Fès', region: 'Fès-Meknès', postalCode: '30000', country: 'MA' },
    { city: 'Tanger', region: 'Tanger-Tétouan-Al Hoceïma', postalCode: '90000', country: 'MA' },
    { city: 'Agadir', region: 'Souss-Massa', postalCode: '80000', country: 'MA' },
    { city: 'Meknès', region: 'Fès-Meknès', postalCode: '50000', country: 'MA' },
    { city: 'Oujda', region: "L'Oriental", postalCode: '60000', country: 'MA' },
    { city: 'Essaouira', region: 'Marrakech-Safi', postalCode: '44000', country: 'MA' },
    { city: 'Ifrane', region: 'Fès-Meknès', postalCode: '53000', country: 'MA' },
  ],
  streets: [
    'Rue Ibn Batouta',
    'Boulevard Zerktouni',
    'Avenue Mohammed V',
    'Rue de la Liberté',
    'Avenue Hassan II',
    'Rue Moulay Youssef',
    'Boulevard Anfa',
    'Rue Tarik Ibn Ziad',
  ],
  phone: (rnd) => `+212 6${pad2(rnd)} ${pad2(rnd)} ${pad2(rnd)} ${pad2(rnd)}`,
  checkout: {
    paymentMethods: ['cash_on_delivery'],
    codFeeCents: 1000,
    freeShippingThresholdCents: 50000,
    maxOrderCents: 1000000,
    shippingZones: [
      {
        name: 'Casablanca & Rabat',
        countries: ['MA'],
        rates: [{ name: 'Standard delivery', priceCents: 2500, minDeliveryDays: 1, maxDeliveryDays: 2 }],
      },
      {
        name: 'Rest of Morocco',
        countries: ['MA'],
        rates: [
          { name: 'Standard delivery', priceCents: 3500, minDeliveryDays: 2, maxDeliveryDays: 4 },
          { name: 'Express delivery', priceCents: 6000, minDeliveryDays: 1, maxDeliveryDays: 2 },
        ],
      },
    ],
    orderConfirmation: {
      method: 'phone_call',
      required: true,
      policy:
        'Every order is confirmed by a phone call before it ships. We call up to three times within 48 hours; unconfirmed orders are cancelled.',
    },
    guestCheckout: true,
    requiredFields: ['fullName', 'phone', 'address1', 'city'],
  },
  callHours: '09:00-19:00, Monday to Saturday',
}

const LUMEN: StoreDef = {
  storeId: 'st_demo_lumen',
  seed: 0x4c554d4e,
  name: 'Lumen Home',
  slug: 'lumen',
  skuPrefix: 'LUM',
  currency: 'EUR',
  locale: 'fr-FR',
  languages: ['fr', 'en'],
  country: 'FR',
  timezone: 'Europe/Paris',
  contactEmail: 'bonjour@lumen-home.example',
  contactPhone: '+33 1 84 00 00 42',
  merchant: { email: 'owner@lumen-home.example', name: 'Claire Fontaine' },
  description:
    'Quiet, well-made things for the home: washed linen, stoneware, warm light and natural materials from small European workshops. Cash on delivery across France, Belgium and Luxembourg.',
  tagline: 'Warm light, honest materials',
  palette: 2,
  logoStyle: 'sun',
  bannerStyle: 'arches',
  bannerAlts: [
    'Terracotta arches in afternoon light',
    'A row of soft arches and round lamps',
    'Arched alcoves in warm plaster tones',
  ],
  weightUnit: 'kg',
  address: { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR' },
  social: [
    { network: 'instagram', url: 'https://instagram.com/lumen.home.demo' },
    { network: 'pinterest', url: 'https://pinterest.com/lumenhomedemo' },
  ],
  vendors: ['Lumen Home', 'Atelier Rhône', 'Maison Lin', 'Terre & Feu'],
  collections: [
    { key: 'bedroom', title: 'Bedroom', desc: 'Washed linen, percale and wool for slow mornings.' },
    {
      key: 'kitchen',
      title: 'Kitchen & Dining',
      desc: 'Stoneware, glass and wood for everyday meals and long dinners.',
    },
    { key: 'lighting', title: 'Lighting & Candles', desc: 'Lamps, shades and candles for warm evenings.' },
    { key: 'bath', title: 'Bath', desc: 'Towels, mats and fragrance for a calmer bathroom.' },
    { key: 'decor', title: 'Decor', desc: 'Mirrors, vases, rugs and baskets that make a room feel finished.' },
  ],
  products: [
    {
      title: 'Washed Linen Duvet Cover',
      type: 'Bedding',
      motif: 'bedding',
      price: 129,
      opts: [
        ['Size', ['140 × 200', '220 × 240']],
        ['Colour', ['Natural', 'Terracotta']],
      ],
      step: 30,
      tags: ['linen', 'bedding'],
      in: ['bedroom'],
      desc: 'Stone-washed French linen that gets softer with every wash, with coconut-button closures.',
    },
    {
      title: 'Percale Sheet Set',
      type: 'Bedding',
      motif: 'folded-linen',
      price: 99,
      opts: [['Size', ['Double', 'Queen', 'King']]],
      step: 15,
      tags: ['cotton', 'bedding'],
      in: ['bedroom'],
      desc: 'Crisp 300-thread-count cotton percale: a flat sheet, a fitted sheet and two pillowcases.',
    },
    {
      title: 'Chunky Wool Throw',
      type: 'Textiles',
      motif: 'throw',
      price: 79,
      opts: [['Colour', ['Oat', 'Moss']]],
      tags: ['wool', 'throw'],
      in: ['bedroom', 'decor'],
      desc: 'Hand-loomed in Portugal from undyed wool, 130 × 170 cm.',
    },
    {
      title: 'Velvet Cushion Cover 45 × 45',
      type: 'Textiles',
      motif: 'cushion',
      price: 35,
      opts: [['Colour', ['Rust', 'Sage', 'Navy']]],
      tags: ['cushion', 'velvet'],
      in: ['bedroom', 'decor'],
      desc: 'Cotton velvet with a hidden zip. Insert sold separately.',
    },
    {
      title: 'Oak Bedside Table',
      type: 'Furniture',
      motif: 'side-table',
      price: 229,
      tags: ['oak', 'furniture'],
      in: ['bedroom'],
      desc: 'Solid oak with a soft-close drawer and an open shelf for books.',
    },
    {
      title: 'Ceramic Table Lamp',
      type: 'Lighting',
      motif: 'table-lamp',
      price: 89,
      opts: [['Colour', ['Chalk', 'Clay']]],
      tags: ['lamp', 'ceramic'],
      in: ['lighting'],
      desc: 'A hand-glazed base under a linen shade. E27 bulb; warm white recommended.',
    },
    {
      title: 'Brass Floor Lamp',
      type: 'Lighting',
      motif: 'floor-lamp',
      price: 219,
      tags: ['lamp', 'brass'],
      in: ['lighting'],
      desc: 'A slim brushed-brass stem with an adjustable head, 150 cm tall.',
    },
    {
      title: 'Rattan Pendant Shade',
      type: 'Lighting',
      motif: 'pendant',
      price: 119,
      opts: [['Size', ['Ø 35 cm', 'Ø 50 cm']]],
      step: 40,
      tags: ['rattan', 'pendant'],
      in: ['lighting'],
      desc: 'Hand-woven rattan that throws patterned light across the ceiling.',
    },
    {
      title: 'Hand-Poured Soy Candle',
      type: 'Candles',
      motif: 'jar-candle',
      price: 24,
      opts: [['Scent', ['Fig', 'Cedar', 'Linen']]],
      tags: ['candle', 'soy'],
      in: ['lighting'],
      desc: 'Poured in Grasse into a reusable ceramic vessel, with about 45 hours of burn time.',
    },
    {
      title: 'Beeswax Taper Candles (Pair)',
      type: 'Candles',
      motif: 'taper-candles',
      price: 14,
      opts: [['Colour', ['Honey', 'Ivory']]],
      tags: ['candle', 'beeswax'],
      in: ['lighting'],
      desc: 'Dripless pure beeswax tapers, 25 cm tall.',
    },
    {
      title: 'Scented Reed Diffuser',
      type: 'Home Fragrance',
      motif: 'diffuser',
      price: 29,
      opts: [['Scent', ['Orange Blossom', 'Vetiver']]],
      tags: ['fragrance'],
      in: ['bath', 'decor'],
      desc: 'Eight rattan reeds and 100 ml of fragrance that lasts about three months.',
    },
    {
      title: 'Waffle Bath Towel',
      type: 'Bath',
      motif: 'towel',
      price: 29,
      opts: [['Colour', ['White', 'Sage', 'Clay']]],
      tags: ['towel', 'cotton'],
      in: ['bath'],
      desc: 'Light, quick-drying Turkish cotton waffle, 70 × 140 cm.',
    },
    {
      title: 'Bamboo Bath Mat',
      type: 'Bath',
      motif: 'bath-mat',
      price: 34,
      tags: ['bath mat', 'bamboo'],
      in: ['bath'],
      desc: 'Slatted bamboo that dries fast and rolls up for cleaning.',
    },
    {
      title: 'Linen Bathrobe',
      type: 'Bath',
      motif: 'robe',
      price: 95,
      opts: [['Size', ['S/M', 'L/XL']]],
      tags: ['linen', 'robe'],
      in: ['bath'],
      desc: 'A lightweight washed-linen robe with deep pockets and a tie belt.',
    },
    {
      title: 'Stoneware Dinner Plates (Set of 4)',
      type: 'Tableware',
      motif: 'plates',
      price: 59,
      opts: [['Colour', ['Speckled White', 'Charcoal']]],
      tags: ['stoneware', 'plates'],
      in: ['kitchen'],
      desc: 'Reactive-glaze stoneware, dishwasher and microwave safe, 27 cm across.',
    },
    {
      title: 'Ceramic Salad Bowl',
      type: 'Tableware',
      motif: 'bowl',
      price: 42,
      tags: ['ceramic', 'bowl'],
      in: ['kitchen'],
      desc: 'A wide hand-thrown bowl, 30 cm across, made for sharing.',
    },
    {
      title: 'Stoneware Mug',
      type: 'Tableware',
      motif: 'mug',
      price: 16,
      opts: [['Colour', ['Sand', 'Ink', 'Celadon']]],
      tags: ['mug', 'stoneware'],
      in: ['kitchen'],
      desc: 'A generous 350 ml mug with a thumb-friendly handle.',
    },
    {
      title: 'Espresso Cup Set',
      type: 'Tableware',
      motif: 'espresso',
      price: 28,
      tags: ['porcelain', 'coffee'],
      in: ['kitchen'],
      desc: 'Four 90 ml porcelain cups with saucers.',
    },
    {
      title: 'Glass Carafe 1 L',
      type: 'Tableware',
      motif: 'carafe',
      price: 32,
      tags: ['glass', 'carafe'],
      in: ['kitchen'],
      desc: 'A mouth-blown borosilicate carafe with a tumbler that doubles as a lid.',
    },
    {
      title: 'Oak Serving Board',
      type: 'Kitchen',
      motif: 'board',
      price: 39,
      opts: [['Size', ['Small', 'Large']]],
      step: 15,
      tags: ['oak', 'serving'],
      in: ['kitchen'],
      desc: 'Oiled solid oak with a juice groove, made in the Jura.',
    },
    {
      title: 'Cast Iron Casserole 24 cm',
      type: 'Cookware',
      motif: 'casserole',
      price: 169,
      opts: [['Colour', ['Cream', 'Forest']]],
      tags: ['cast iron', 'cookware'],
      in: ['kitchen'],
      desc: 'Enamelled cast iron for slow braises; works on every hob, induction included.',
    },
    {
      title: 'Olive Wood Utensil Set',
      type: 'Kitchen',
      motif: 'utensils',
      price: 31,
      tags: ['olive wood', 'utensils'],
      in: ['kitchen'],
      desc: 'A spoon, a spatula and a fork carved from olive wood.',
    },
    {
      title: 'Linen Napkins (Set of 4)',
      type: 'Table Linen',
      motif: 'napkins',
      price: 26,
      opts: [['Colour', ['Natural', 'Indigo']]],
      tags: ['linen', 'napkins'],
      in: ['kitchen'],
      desc: 'Washed linen napkins, 45 × 45 cm, that need no ironing.',
    },
    {
      title: 'Tea Towel Trio',
      type: 'Kitchen',
      motif: 'tea-towels',
      price: 19.9,
      tags: ['tea towel', 'cotton'],
      in: ['kitchen'],
      desc: 'Three cotton-linen tea towels in a checked, a striped and a plain weave.',
    },
    {
      title: 'Linen Apron',
      type: 'Kitchen',
      motif: 'apron',
      price: 36,
      tags: ['linen', 'apron'],
      in: ['kitchen'],
      desc: 'A cross-back washed-linen apron with two patch pockets.',
    },
    {
      title: 'Round Wall Mirror Ø 60 cm',
      type: 'Decor',
      motif: 'mirror',
      price: 149,
      tags: ['mirror', 'brass'],
      in: ['decor'],
      desc: 'A thin brass frame around a bevelled mirror, hung from a leather strap.',
    },
    {
      title: 'Porcelain Bud Vase',
      type: 'Decor',
      motif: 'bud-vase',
      price: 49,
      opts: [['Colour', ['White', 'Celadon']]],
      tags: ['vase', 'porcelain'],
      in: ['decor'],
      desc: 'Matte porcelain for a single stem, 18 cm tall.',
    },
    {
      title: 'Terracotta Plant Pot',
      type: 'Decor',
      motif: 'plant-pot',
      price: 22,
      opts: [['Size', ['Ø 14 cm', 'Ø 20 cm', 'Ø 28 cm']]],
      step: 10,
      tags: ['terracotta', 'plants'],
      in: ['decor'],
      desc: 'Unglazed terracotta with a drainage hole and a matching saucer.',
    },
    {
      title: 'Rattan Storage Basket',
      type: 'Storage',
      motif: 'basket',
      price: 45,
      opts: [['Size', ['S', 'M', 'L']]],
      step: 12,
      tags: ['rattan', 'storage'],
      in: ['decor', 'bedroom'],
      desc: 'Hand-woven with two handles, for throws, toys or firewood.',
    },
    {
      title: 'Minimalist Wall Clock',
      type: 'Decor',
      motif: 'clock',
      price: 55,
      tags: ['clock'],
      in: ['decor'],
      desc: 'A silent sweep movement on a 30 cm birch face.',
    },
    {
      title: 'Flatwoven Cotton Rug 160 × 230',
      type: 'Rugs',
      motif: 'rug',
      price: 189,
      opts: [['Colour', ['Natural', 'Blue Stripe']]],
      tags: ['rug', 'cotton'],
      in: ['decor'],
      desc: 'A reversible flatweave, machine washable at 30 °C.',
    },
    {
      title: 'Marble Coaster Set',
      type: 'Decor',
      motif: 'coasters',
      price: 27,
      tags: ['marble', 'coasters'],
      in: ['decor'],
      desc: 'Four white marble coasters with cork backs.',
    },
    {
      title: 'Wooden Coat Rack',
      type: 'Furniture',
      motif: 'coat-rack',
      price: 65,
      tags: ['ash', 'storage'],
      in: ['decor'],
      desc: 'Five pegs in solid ash on a wall rail.',
    },
    {
      title: 'Merino Bed Blanket',
      type: 'Bedding',
      motif: 'bedding',
      price: 159,
      status: 'draft',
      tags: ['merino', 'bedding'],
      in: [],
      desc: 'A fine merino blanket for cold nights. Coming this autumn.',
    },
    {
      title: 'Festive Paper Garland',
      type: 'Decor',
      motif: 'garland',
      price: 12,
      status: 'archived',
      tags: ['seasonal'],
      in: [],
      desc: "Last season's recycled-paper garland, no longer sold.",
    },
  ],
  people: [
    ['Camille', 'Martin'],
    ['Léa', 'Bernard'],
    ['Hugo', 'Dubois'],
    ['Manon', 'Thomas'],
    ['Lucas', 'Robert'],
    ['Chloé', 'Richard'],
    ['Louis', 'Petit'],
    ['Inès', 'Durand'],
    ['Jules', 'Leroy'],
    ['Emma', 'Moreau'],
    ['Arthur', 'Simon'],
    ['Alice', 'Laurent'],
    ['Gabriel', 'Lefebvre'],
    ['Zoé', 'Michel'],
    ['Nathan', 'Garcia'],
    ['Louise', 'David'],
    ['Raphaël', 'Bertrand'],
    ['Jade', 'Roux'],
    ['Théo', 'Vincent'],
    ['Sarah', 'Fournier'],
  ],
  places: [
    { city: 'Paris', region: 'Île-de-France', postalCode: '75011', country: 'FR' },
    { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', postalCode: '69002', country: 'FR' },
    { city: 'Marseille', region: "Provence-Alpes-Côte d'Azur", postalCode: '13006', country: 'FR' },
    { city: 'Bordeaux', region: 'Nouvelle-Aquitaine', postalCode: '33000', country: 'FR' },
    { city: 'Nantes', region: 'Pays de la Loire', postalCode: '44000', country: 'FR' },
    { city: 'Lille', region: 'Hauts-de-France', postalCode: '59000', country: 'FR' },
    { city: 'Toulouse', region: 'Occitanie', postalCode: '31000', country: 'FR' },
    { city: 'Strasbourg', region: 'Grand Est', postalCode: '67000', country: 'FR' },
    { city: 'Bruxelles', region: 'Bruxelles-Capitale', postalCode: '1000', country: 'BE' },
    { city: 'Luxembourg', region: 'Luxembourg', postalCode: '1111', country: 'LU' },
  ],
  streets: [
    'rue des Martyrs',
    'place Bellecour',
    'rue Oberkampf',
    'cours Julien',
    'rue Sainte-Catherine',
    'quai de la Fosse',
    'rue de Béthune',
    'rue des Tanneurs',
  ],
  phone: (rnd) => `+33 6 ${pad2(rnd)} ${pad2(rnd)} ${pad2(rnd)} ${pad2(rnd)}`,
  checkout: {
    paymentMethods: ['cash_on_delivery'],
    codFeeCents: 390,
    freeShippingThresholdCents: 8000,
    maxOrderCents: 150000,
    shippingZones: [
      {
        name: 'France métropolitaine',
        countries: ['FR'],
        rates: [
          { name: 'Colissimo', priceCents: 590, minDeliveryDays: 2, maxDeliveryDays: 3 },
          { name: 'Chronopost', priceCents: 990, minDeliveryDays: 1, maxDeliveryDays: 1 },
        ],
      },
      {
        name: 'Belgique & Luxembourg',
        countries: ['BE', 'LU'],
        rates: [{ name: 'Standard', priceCents: 990, minDeliveryDays: 3, maxDeliveryDays: 5 }],
      },
    ],
    orderConfirmation: {
      method: 'phone_call',
      required: true,
      policy:
        'We call to confirm every cash-on-delivery order before it is prepared. Orders we cannot confirm within three days are cancelled.',
    },
    guestCheckout: true,
    requiredFields: ['fullName', 'phone', 'address1', 'postalCode', 'city', 'country'],
  },
  callHours: '10:00-18:00, Monday to Friday',
}

function pad2(rnd: () => number): string {
  return String(Math.floor(rnd() * 100)).padStart(2, '0')
}

const slugify = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

const DAY = 86_400_000
const HOUR = 3_600_000
const at = (iso: string): number => Date.parse(iso)

// Values of every option combined, first option outermost.
function combinations(opts: [string, string[]][]): { name: string; value: string }[][] {
  let acc: { name: string; value: string }[][] = [[]]
  for (const [name, values] of opts) acc = acc.flatMap((combo) => values.map((value) => [...combo, { name, value }]))
  return acc
}

function buildStore(def: StoreDef): DemoStore {
  const rnd = mulberry32(def.seed)
  const sid = def.storeId
  const products: DemoProduct[] = []
  const productStart = at('2024-08-20T08:00:00.000Z')

  def.products.forEach((p, i) => {
    const handle = slugify(p.title)
    const id = demoId('prod', sid, handle)
    // Two pairs of products share a creation instant, so the (created_at, id) tie-break matters.
    const slot = i === 6 ? 5 : i === 21 ? 20 : i
    const createdAt = new Date(productStart + slot * 2 * DAY + (slot % 5) * HOUR)
    const updatedAt = new Date(createdAt.getTime() + (1 + (i % 9)) * DAY)
    const combos = p.opts ? combinations(p.opts) : [[]]
    if (combos.length > 4) throw new Error(`too many variants for ${p.title}`)
    const hasCompareAt = i % 4 === 1 || i % 7 === 0
    const soldOut = i % 11 === 4 // every variant sold out
    const lowStock = i % 6 === 2
    const variants: DemoVariant[] = combos.map((opts, v) => {
      const firstIndex = p.opts ? p.opts[0]![1].indexOf(opts[0]!.value) : 0
      const priceCents = Math.round((p.price + (p.step ?? 0) * firstIndex) * 100)
      const compareAtCents = hasCompareAt ? Math.round((priceCents * (1.2 + (i % 3) * 0.1)) / 100) * 100 : null
      let inventoryQuantity: number
      if (soldOut) inventoryQuantity = 0
      else if (lowStock) inventoryQuantity = v % 2 === 0 ? 1 + Math.floor(rnd() * 3) : 0
      else if (combos.length > 2 && v === combos.length - 1)
        inventoryQuantity = 0 // one size sold out
      else inventoryQuantity = 5 + Math.floor(rnd() * 56)
      const code = opts.map((o) => slugify(o.value).replace(/-/g, '').slice(0, 3).toUpperCase()).join('-')
      return {
        id: demoId('var', sid, handle, String(v)),
        title: opts.length ? opts.map((o) => o.value).join(' / ') : 'Default',
        sku: `${def.skuPrefix}-${String(i + 1).padStart(3, '0')}${code ? `-${code}` : ''}`,
        priceCents,
        compareAtCents,
        inventoryQuantity,
        options: opts,
        position: v + 1,
      }
    })
    const paletteIndex = (i * 5 + def.seed) % PALETTES.length
    const imageCount = 1 + (i % 3) // 1 to 3 images
    const views: (0 | 1 | 2)[] = ([0, 1, 2] as const).slice(0, imageCount)
    const altSuffixes = ['', ' (close-up)', ' (detail)']
    const images: DemoImage[] = views.map((view) => ({
      image: { kind: 'product', spec: { motif: p.motif, palette: paletteIndex, view, seed: (def.seed % 1000) + i } },
      alt: `${p.title}${altSuffixes[view]}`,
    }))
    products.push({
      id,
      handle,
      title: p.title,
      description: p.desc,
      vendor: p.vendor ?? def.vendors[i % def.vendors.length]!,
      productType: p.type,
      tags: p.tags,
      status: p.status ?? 'active',
      images,
      options: (p.opts ?? []).map(([name, values]) => ({ name, values })),
      variants,
      createdAt,
      updatedAt,
    })
  })

  const collectionStart = at('2024-08-18T10:00:00.000Z')
  const collections: DemoCollection[] = def.collections.map((c, i) => {
    const handle = slugify(c.title)
    const productIds = def.products.flatMap((p, pi) => (p.in.includes(c.key) ? [products[pi]!.id] : []))
    if (productIds.length === 0) throw new Error(`empty collection ${c.title}`)
    const createdAt = new Date(collectionStart + i * 6 * HOUR)
    return {
      id: demoId('coll', sid, handle),
      handle,
      title: c.title,
      description: c.desc,
      imageFromProductId: productIds[0]!,
      productIds,
      createdAt,
      updatedAt: new Date(createdAt.getTime() + 30 * DAY),
    }
  })

  const customerStart = at('2024-10-01T09:30:00.000Z')
  const customers: DemoCustomer[] = def.people.map(([firstName, lastName], i) => {
    const place = def.places[i % def.places.length]!
    // Customers 8 and 9 share a creation instant (tie-break by id).
    const slot = i === 9 ? 8 : i
    return {
      id: demoId('cust', sid, String(i)),
      firstName,
      lastName,
      email: `${slugify(firstName)}.${slugify(lastName).replace(/-/g, '')}@example.com`,
      phone: def.phone(rnd),
      city: place.city,
      country: place.country,
      acceptsMarketing: i % 3 !== 1,
      createdAt: new Date(customerStart + slot * 4 * DAY + (slot % 7) * HOUR),
    }
  })

  const statuses: DemoOrder['status'][] = [
    'delivered',
    'delivered',
    'returned',
    'delivered',
    'cancelled',
    'delivered',
    'shipped',
    'delivered',
    'confirmed',
    'shipped',
    'delivered',
    'cancelled',
    'shipped',
    'confirmed',
    'shipped',
    'confirmed',
    'delivered',
    'confirmed',
    'pending',
    'pending',
  ]
  const sellable = products.filter((p) => p.status === 'active')
  const orderStart = at('2025-01-06T10:15:00.000Z')
  const orders: DemoOrder[] = statuses.map((status, i) => {
    const guest = i === 6
    // Some customers order several times, the newest ones not yet.
    const customer = guest ? null : customers[(i * 7) % 13]!
    const place = def.places.find((pl) => pl.city === customer?.city) ?? def.places[(i + 3) % def.places.length]!
    const lineCount = 1 + (i % 3)
    const lineItems: DemoLineItem[] = []
    for (let l = 0; l < lineCount; l++) {
      const product = sellable[(i * 5 + l * 11) % sellable.length]!
      const variant = product.variants[(i + l) % product.variants.length]!
      lineItems.push({
        productId: product.id,
        variantId: variant.id,
        title: product.title,
        variantTitle: variant.title,
        sku: variant.sku,
        quantity: 1 + ((i + l) % 2),
        unitPriceCents: variant.priceCents,
      })
    }
    const subtotalCents = lineItems.reduce((s, li) => s + li.unitPriceCents * li.quantity, 0)
    const zone =
      def.checkout.shippingZones.find((z) => z.countries.includes(place.country)) ?? def.checkout.shippingZones[0]!
    const rate = zone.rates[i % zone.rates.length]!
    const free =
      def.checkout.freeShippingThresholdCents !== null && subtotalCents >= def.checkout.freeShippingThresholdCents
    const shippingCents = free ? 0 : rate.priceCents
    const codFeeCents = def.checkout.codFeeCents
    const name = customer ? `${customer.firstName} ${customer.lastName}` : guestName(def)
    // Orders 11 and 12 share a creation instant (tie-break by id).
    const slot = i === 12 ? 11 : i
    return {
      id: demoId('ord', sid, String(1001 + i)),
      number: 1001 + i,
      customerId: customer?.id ?? null,
      status,
      paymentMethod: 'cash_on_delivery',
      currency: def.currency,
      subtotalCents,
      shippingCents,
      codFeeCents,
      totalCents: subtotalCents + shippingCents + codFeeCents,
      lineItems,
      shippingAddress: {
        name,
        phone: customer?.phone ?? def.phone(rnd),
        address1: `${1 + Math.floor(rnd() * 120)} ${def.streets[i % def.streets.length]}`,
        address2: i % 4 === 0 ? `Apt ${1 + Math.floor(rnd() * 40)}` : null,
        city: place.city,
        region: place.region,
        postalCode: place.postalCode,
        country: place.country,
      },
      createdAt: new Date(orderStart + slot * 4 * DAY + (slot % 9) * HOUR + (slot % 4) * 17 * 60_000),
    }
  })

  const byKey = new Map(def.collections.map((c, i) => [c.key, collections[i]!]))
  const shopLanding = byKey.get('best') ?? collections[0]!
  const navigationMenus: DemoMenu[] = [
    {
      handle: 'main',
      title: 'Main menu',
      items: [
        { label: 'Home', href: '/' },
        {
          label: 'Shop',
          href: `/collections/${shopLanding.id}`,
          children: collections.map((c) => ({ label: c.title, href: `/collections/${c.id}` })),
        },
        { label: 'About', href: '/pages/about' },
        { label: 'Contact', href: '/pages/contact' },
      ],
    },
    {
      handle: 'footer',
      title: 'Footer menu',
      items: [
        { label: 'Shipping & returns', href: '/pages/shipping-returns' },
        { label: 'Cash on delivery', href: '/pages/cash-on-delivery' },
        { label: 'About us', href: '/pages/about' },
        { label: 'Contact', href: '/pages/contact' },
      ],
    },
  ]

  const primary = PALETTES[def.palette]!
  const toHex = (c: readonly [number, number, number]) =>
    `#${c
      .map((v) => v.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase()}`
  const banners: DemoImage[] = def.bannerAlts.map((alt, i) => ({
    image: {
      kind: 'banner',
      spec: {
        style: def.bannerStyle,
        palette: (def.palette + i * 4) % PALETTES.length,
        seed: def.seed + i,
        width: 1200,
        height: 480,
      },
    },
    alt,
  }))

  return {
    storeId: sid,
    merchant: { id: demoId('mer', def.merchant.email), email: def.merchant.email, name: def.merchant.name },
    name: def.name,
    slug: def.slug,
    currency: def.currency,
    locale: def.locale,
    country: def.country,
    timezone: def.timezone,
    contactEmail: def.contactEmail,
    description: def.description,
    createdAt: new Date(at('2024-08-15T09:00:00.000Z') + (def.slug === 'lumen' ? DAY : 0)),
    branding: {
      logo: {
        image: { kind: 'logo', spec: { style: def.logoStyle, palette: def.palette, size: 256 } },
        alt: `${def.name} logo`,
      },
      primaryColor: toHex(primary.main),
      secondaryColor: toHex(primary.second),
      tagline: def.tagline,
    },
    banners,
    settings: {
      storeName: def.name,
      contactEmail: def.contactEmail,
      contactPhone: def.contactPhone,
      locale: def.locale,
      languages: def.languages,
      currency: def.currency,
      timezone: def.timezone,
      weightUnit: def.weightUnit,
      dimensionUnit: 'cm',
      taxesIncluded: true,
      orderConfirmation: { byPhone: true, callHours: def.callHours, smsUpdates: def.country === 'MA' },
      address: def.address,
      socialLinks: def.social,
    },
    secretNames: ['payment_gateway_secret', 'smtp_password', 'session_secret', 'courier_api_key'],
    products,
    collections,
    customers,
    orders,
    checkout: { ...def.checkout, currency: def.currency },
    navigationMenus,
  }
}

function guestName(def: StoreDef): string {
  return def.country === 'MA' ? 'Rachid Ait Said' : 'Pauline Marchand'
}

let cached: DemoStore[] | undefined

// The two demo stores. Pure and deterministic; computed once per process.
export function buildDemoCatalog(): DemoStore[] {
  cached ??= [buildStore(ATLAS), buildStore(LUMEN)]
  return cached
}
