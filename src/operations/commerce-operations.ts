import { z } from 'zod'
import {
  checkoutSchema,
  collectionSchema,
  customerSchema,
  orderSchema,
  productSchema,
  productStatusSchema,
  storeSchema,
  storeSettingsSchema,
} from '../queries/commerce/schemas.ts'
import {
  getCheckout,
  getCollection,
  getOrder,
  getProduct,
  getStore,
  getStoreSettings,
  listCollections,
  listCustomers,
  listOrders,
  listProductsJson,
} from '../queries/commerce/index.ts'
import { paginationQuerySchema } from '../queries/pagination.ts'
import { warmCatalogRead } from '../queries/catalog-reads.ts'
import { defineOperation } from './operation.ts'
import { paged, pagedJson } from './paged.ts'
import { notFound } from './results.ts'

// Read-only commerce: agents see the catalog, orders and customers; nothing here writes.
const idParams = z.object({ id: z.string().min(1).max(100) })
const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false }

export const getStoreOperation = defineOperation({
  operationId: 'getStore',
  method: 'GET',
  path: '/api/v1/store',
  scopes: ['store:read'],
  tag: 'Store',
  summary: 'Store profile and branding',
  description: 'The connected store (always the one of the credential).',
  data: storeSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_store',
    title: 'Get store',
    description: 'Store profile and branding. Rarely needed: get_context includes it.',
    annotations: read,
  },
  async run(_input, caller, s) {
    const store = await warmCatalogRead(s.read, caller.storeId, ['getStore'], () => getStore(s.read, caller.storeId))
    return store ? { ok: true, data: store } : notFound('store')
  },
})

export const getStoreSettingsOperation = defineOperation({
  operationId: 'getStoreSettings',
  method: 'GET',
  path: '/api/v1/store/settings',
  scopes: ['settings:read'],
  tag: 'Store',
  summary: 'Sanitized store settings',
  description: 'Non-secret settings only. Secrets (payment, database, session) are never exposed.',
  data: storeSettingsSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_store_settings',
    title: 'Get store settings',
    description: 'Locale, currency, contact and social links (no secrets). Use for footer or contact sections.',
    annotations: read,
  },
  async run(_input, caller, s) {
    const settings = await warmCatalogRead(s.read, caller.storeId, ['getStoreSettings'], () =>
      getStoreSettings(s.read, caller.storeId),
    )
    return settings ? { ok: true, data: settings } : notFound('store settings')
  },
})

export const listProductsOperation = defineOperation({
  operationId: 'listProducts',
  method: 'GET',
  path: '/api/v1/products',
  scopes: ['products:read'],
  tag: 'Catalog',
  summary: 'List products with inventory summaries',
  description:
    'Paginated, oldest first. Use the ids from here in product references of sections; price and stock are read by the storefront at render time and never copied into a theme.',
  query: paginationQuerySchema.extend({
    collectionId: z.string().min(1).max(100).optional().meta({ description: 'Only products of this collection.' }),
    status: productStatusSchema.optional(),
    query: z.string().min(1).max(100).optional().meta({ description: 'Case-insensitive part of the title.' }),
  }),
  data: z.object({ products: z.array(productSchema) }),
  paginated: true,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_products',
    title: 'Get products',
    description:
      'Real products, paginated. Use before referencing products in sections; put their ids in the settings (never invent ids). Next: apply_theme_batch.',
    annotations: read,
  },
  async run(input, caller, s) {
    return pagedJson('products', () => listProductsJson(s.read, caller.storeId, input))
  },
})

export const getProductOperation = defineOperation({
  operationId: 'getProduct',
  method: 'GET',
  path: '/api/v1/products/:id',
  scopes: ['products:read'],
  tag: 'Catalog',
  summary: 'Get a product',
  description: 'A product with variants, prices and inventory summary.',
  params: idParams,
  data: productSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_product',
    title: 'Get product',
    description:
      'One product with variants and inventory. Use to pick a featured product; next reference its id in apply_theme_batch.',
    annotations: read,
  },
  async run(input, caller, s) {
    const product = await warmCatalogRead(s.read, caller.storeId, ['getProduct', input.id], () =>
      getProduct(s.read, caller.storeId, input.id),
    )
    return product ? { ok: true, data: product } : notFound('product')
  },
})

export const listCollectionsOperation = defineOperation({
  operationId: 'listCollections',
  method: 'GET',
  path: '/api/v1/collections',
  scopes: ['collections:read'],
  tag: 'Catalog',
  summary: 'List collections',
  description: 'Paginated, oldest first. Use the ids from here in collection references of sections.',
  query: paginationQuerySchema,
  data: z.object({ collections: z.array(collectionSchema) }),
  paginated: true,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_collections',
    title: 'Get collections',
    description:
      'Real collections, paginated. Use before referencing collections in sections (never invent ids). Next: apply_theme_batch.',
    annotations: read,
  },
  async run(input, caller, s) {
    return paged(
      'collections',
      async () =>
        (await warmCatalogRead(s.read, caller.storeId, ['listCollections', input], () =>
          listCollections(s.read, caller.storeId, input),
        ))!,
    )
  },
})

export const getCollectionOperation = defineOperation({
  operationId: 'getCollection',
  method: 'GET',
  path: '/api/v1/collections/:id',
  scopes: ['collections:read'],
  tag: 'Catalog',
  summary: 'Get a collection',
  description: 'A collection with its product ids.',
  params: idParams,
  data: collectionSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_collection',
    title: 'Get collection',
    description: 'One collection with its product ids. Use to check what a collection section would show.',
    annotations: read,
  },
  async run(input, caller, s) {
    const collection = await warmCatalogRead(s.read, caller.storeId, ['getCollection', input.id], () =>
      getCollection(s.read, caller.storeId, input.id),
    )
    return collection ? { ok: true, data: collection } : notFound('collection')
  },
})

export const listOrdersOperation = defineOperation({
  operationId: 'listOrders',
  method: 'GET',
  path: '/api/v1/orders',
  scopes: ['orders:read'],
  tag: 'Commerce (read-only)',
  summary: 'List orders (read-only)',
  description: 'Paginated, newest first. Orders cannot be changed through this API.',
  query: paginationQuerySchema,
  data: z.object({ orders: z.array(orderSchema) }),
  paginated: true,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_orders',
    title: 'Get orders',
    description: 'Recent orders, read-only. Use to learn what sells before choosing featured products.',
    annotations: read,
  },
  async run(input, caller, s) {
    return paged('orders', () => listOrders(s.read, caller.storeId, input))
  },
})

export const getOrderOperation = defineOperation({
  operationId: 'getOrder',
  method: 'GET',
  path: '/api/v1/orders/:id',
  scopes: ['orders:read'],
  tag: 'Commerce (read-only)',
  summary: 'Get an order (read-only)',
  description: 'One order with its line items.',
  params: idParams,
  data: orderSchema,
  successStatus: 200,
  idempotent: false,
  mcp: { name: 'get_order', title: 'Get order', description: 'One order, read-only.', annotations: read },
  async run(input, caller, s) {
    const order = await getOrder(s.read, caller.storeId, input.id)
    return order ? { ok: true, data: order } : notFound('order')
  },
})

export const listCustomersOperation = defineOperation({
  operationId: 'listCustomers',
  method: 'GET',
  path: '/api/v1/customers',
  scopes: ['customers:read'],
  tag: 'Commerce (read-only)',
  summary: 'List customers (read-only)',
  description: 'Paginated, newest first.',
  query: paginationQuerySchema,
  data: z.object({ customers: z.array(customerSchema) }),
  paginated: true,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'list_customers',
    title: 'List customers',
    description: 'Customers, read-only. Rarely needed for design.',
    annotations: read,
  },
  async run(input, caller, s) {
    return paged('customers', () => listCustomers(s.read, caller.storeId, input))
  },
})

export const getCheckoutOperation = defineOperation({
  operationId: 'getCheckout',
  method: 'GET',
  path: '/api/v1/checkout',
  scopes: ['checkout:read'],
  tag: 'Commerce (read-only)',
  summary: 'Checkout configuration summary',
  description:
    'Payment methods (cash on delivery), shipping zones and rates. No secrets. Checkout itself is always the service’s, never part of a theme.',
  data: checkoutSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_checkout',
    title: 'Get checkout',
    description: 'Checkout summary (payment, shipping), read-only. Use for trust or shipping sections.',
    annotations: read,
  },
  async run(_input, caller, s) {
    const checkout = await getCheckout(s.read, caller.storeId)
    return checkout ? { ok: true, data: checkout } : notFound('checkout')
  },
})
