import { z } from 'zod'

// The single source of every commerce shape the service returns as `data` (REST) and as
// MCP tool output. camelCase fields; money is { amount: "12.50", currencyCode, cents };
// timestamps are ISO 8601 UTC strings; URLs are absolute. Secrets have no field anywhere.

const id = (prefix: string, what: string) =>
  z.string().meta({ description: `${what} identifier (opaque, starts with "${prefix}_").` })
const timestamp = z.iso.datetime()

export const moneySchema = z
  .object({
    amount: z
      .string()
      .regex(/^-?\d+\.\d{2}$/)
      .meta({ description: 'Decimal amount in major units with two decimals, as a string.', examples: ['189.00'] }),
    currencyCode: z
      .string()
      .length(3)
      .meta({ description: 'ISO 4217 currency code.', examples: ['MAD'] }),
    cents: z.int().meta({ description: 'The same amount in minor units.', examples: [18900] }),
  })
  .meta({ description: 'A money amount.' })
export type Money = z.output<typeof moneySchema>

export const imageSchema = z
  .object({
    url: z.url().meta({ description: 'Absolute URL of the image, served by this service.' }),
    alt: z.string(),
    width: z.int().nullable(),
    height: z.int().nullable(),
  })
  .meta({ description: 'An image.' })
export type Image = z.output<typeof imageSchema>

// --- store ---

export const brandingSchema = z.object({
  logoUrl: z.url().nullable(),
  logoAlt: z.string(),
  primaryColor: z.string().meta({ description: 'Hex colour, #RRGGBB.' }),
  secondaryColor: z.string().meta({ description: 'Hex colour, #RRGGBB.' }),
  tagline: z.string(),
})
export type Branding = z.output<typeof brandingSchema>

export const storeSchema = z
  .object({
    id: z.string().meta({ description: 'Store identifier.' }),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    currency: z.string().length(3),
    locale: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2 country code.' }),
    timezone: z.string().meta({ description: 'IANA time zone.' }),
    contactEmail: z.string(),
    branding: brandingSchema,
    createdAt: timestamp,
  })
  .meta({ description: 'Store profile and branding.' })
export type Store = z.output<typeof storeSchema>

export const storeSettingsSchema = z
  .object({
    storeName: z.string(),
    contactEmail: z.string(),
    contactPhone: z.string().nullable(),
    locale: z.string(),
    languages: z.array(z.string()),
    currency: z.string().length(3),
    timezone: z.string(),
    weightUnit: z.enum(['kg', 'g', 'lb', 'oz']),
    dimensionUnit: z.enum(['cm', 'in']),
    taxesIncluded: z.boolean().meta({ description: 'Whether displayed prices include taxes.' }),
    orderConfirmation: z.object({
      byPhone: z
        .boolean()
        .meta({ description: 'Cash-on-delivery orders are confirmed by a phone call before shipping.' }),
      callHours: z.string().nullable(),
      smsUpdates: z.boolean(),
    }),
    address: z.object({ city: z.string(), region: z.string().nullable(), country: z.string() }),
    socialLinks: z.array(z.object({ network: z.string(), url: z.url() })),
  })
  .meta({ description: 'Sanitized, non-secret store settings. Credentials, keys and passwords are never part of it.' })
export type StoreSettings = z.output<typeof storeSettingsSchema>

// --- catalog ---

export const productStatusSchema = z.enum(['active', 'draft', 'archived']).meta({
  description:
    'active: sold on the storefront; draft: not yet published; archived: no longer sold. Agents see all three.',
})

export const variantSchema = z
  .object({
    id: id('var', 'Variant'),
    title: z.string(),
    sku: z.string(),
    price: moneySchema,
    compareAtPrice: moneySchema
      .nullable()
      .meta({ description: 'Former price shown struck through; null when not on sale.' }),
    inventoryQuantity: z.int(),
    availableForSale: z.boolean().meta({ description: 'In stock and the product is active.' }),
    options: z.array(z.object({ name: z.string(), value: z.string() })),
    position: z.int(),
  })
  .meta({ description: 'A purchasable variant of a product.' })
export type Variant = z.output<typeof variantSchema>

export const inventorySummarySchema = z
  .object({
    totalQuantity: z
      .int()
      .meta({ description: 'Sum of the quantities of all variants (negative quantities count as 0).' }),
    inStock: z.boolean().meta({ description: 'At least one variant has a positive quantity.' }),
    variantsInStock: z.int(),
    variantsTotal: z.int(),
  })
  .meta({ description: 'Inventory summary across variants.' })
export type InventorySummary = z.output<typeof inventorySummarySchema>

export const priceRangeSchema = z.object({ min: moneySchema, max: moneySchema })

export const productSchema = z
  .object({
    id: id('prod', 'Product'),
    handle: z.string(),
    title: z.string(),
    description: z.string(),
    vendor: z.string(),
    productType: z.string(),
    tags: z.array(z.string()),
    status: productStatusSchema,
    visibleOnStorefront: z
      .boolean()
      .meta({ description: 'True only for active products; draft and archived products are flagged false.' }),
    availableForSale: z.boolean().meta({ description: 'Active and at least one variant in stock.' }),
    featuredImage: imageSchema.nullable(),
    images: z.array(imageSchema),
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    variants: z.array(variantSchema),
    priceRange: priceRangeSchema
      .nullable()
      .meta({ description: 'Lowest and highest variant price; null when the product has no variants.' }),
    compareAtPriceRange: priceRangeSchema
      .nullable()
      .meta({ description: 'Range of compare-at prices; null when no variant has one.' }),
    inventory: inventorySummarySchema,
    collectionIds: z
      .array(z.string())
      .meta({ description: 'Collections containing the product, oldest collection first.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    description:
      'A product with its variants and inventory summary. Price and stock are live: never copy them into a theme.',
  })
export type Product = z.output<typeof productSchema>

export const collectionSchema = z
  .object({
    id: id('coll', 'Collection'),
    handle: z.string(),
    title: z.string(),
    description: z.string(),
    image: imageSchema.nullable(),
    productIds: z.array(z.string()).meta({ description: 'Products in the collection, in merchandising order.' }),
    productCount: z.int(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ description: 'A collection of products.' })
export type Collection = z.output<typeof collectionSchema>

// --- orders and customers (read-only) ---

export const orderStatusSchema = z
  .enum(['pending', 'confirmed', 'shipped', 'delivered', 'cancelled', 'returned'])
  .meta({
    description:
      'pending: awaiting phone confirmation; confirmed; shipped; delivered (cash collected); cancelled; returned.',
  })

export const addressSchema = z.object({
  name: z.string(),
  phone: z.string(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string(),
})
export type Address = z.output<typeof addressSchema>

export const orderLineItemSchema = z.object({
  productId: z.string(),
  variantId: z.string(),
  title: z.string(),
  variantTitle: z.string(),
  sku: z.string(),
  quantity: z.int(),
  unitPrice: moneySchema,
  total: moneySchema,
})
export type OrderLineItem = z.output<typeof orderLineItemSchema>

export const orderSchema = z
  .object({
    id: id('ord', 'Order'),
    number: z.int(),
    name: z.string().meta({ description: 'Display name, "#" followed by the number.', examples: ['#1001'] }),
    status: orderStatusSchema,
    paymentMethod: z.string().meta({ examples: ['cash_on_delivery'] }),
    customerId: z.string().nullable().meta({ description: 'Null for a guest order.' }),
    currency: z.string().length(3),
    lineItems: z.array(orderLineItemSchema),
    itemCount: z.int().meta({ description: 'Sum of line item quantities.' }),
    subtotal: moneySchema,
    shipping: moneySchema,
    codFee: moneySchema.meta({ description: 'Cash-on-delivery fee: total minus subtotal minus shipping.' }),
    total: moneySchema,
    shippingAddress: addressSchema,
    note: z
      .string()
      .nullable()
      .meta({ description: "The customer's note to the store, given at checkout; null when none." }),
    createdAt: timestamp,
  })
  .meta({ description: 'A cash-on-delivery order (read-only).' })
export type Order = z.output<typeof orderSchema>

export const customerSchema = z
  .object({
    id: id('cust', 'Customer'),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    city: z.string(),
    country: z.string(),
    acceptsMarketing: z.boolean(),
    ordersCount: z.int(),
    totalSpent: moneySchema.meta({ description: 'Sum of the totals of delivered orders (cash collected).' }),
    createdAt: timestamp,
  })
  .meta({ description: 'A customer (read-only).' })
export type Customer = z.output<typeof customerSchema>

// --- checkout ---

export const shippingRateSchema = z.object({
  name: z.string(),
  price: moneySchema,
  minDeliveryDays: z.int(),
  maxDeliveryDays: z.int(),
})

export const checkoutSchema = z
  .object({
    paymentMethods: z.array(z.string()).meta({ examples: [['cash_on_delivery']] }),
    currency: z.string().length(3),
    codFee: moneySchema.meta({ description: 'Fee added to every cash-on-delivery order.' }),
    freeShippingThreshold: moneySchema
      .nullable()
      .meta({ description: 'Subtotal from which shipping is free; null when never free.' }),
    maxOrderTotal: moneySchema
      .nullable()
      .meta({ description: 'Largest order total accepted for cash on delivery; null when unlimited.' }),
    shippingZones: z.array(
      z.object({ name: z.string(), countries: z.array(z.string()), rates: z.array(shippingRateSchema) }),
    ),
    orderConfirmation: z.object({
      method: z.string().meta({ examples: ['phone_call'] }),
      required: z.boolean(),
      policy: z.string(),
    }),
    guestCheckout: z.boolean(),
    requiredFields: z.array(z.string()).meta({ description: 'Checkout form fields the customer must fill in.' }),
  })
  .meta({
    description: 'Checkout configuration summary. The service runs checkout; no keys or secrets are part of it.',
  })
export type Checkout = z.output<typeof checkoutSchema>

// --- lists ---
