// Commerce read side: what REST `data` and MCP tool results are made of.
export * from './schemas.ts'
export { money } from './money.ts'
export { getStore, getStoreSettings } from './store.ts'
export { listProducts, listProductsJson } from './product-cards.ts'
export {
  listProductsFromTables,
  getProduct,
  getProductsByIds,
  existingProductIds,
  PRODUCTS_RESOURCE,
  type ListProductsArgs,
  type ProductStatus,
} from './products.ts'
export {
  listCollections,
  getCollection,
  getCollectionsByIds,
  existingCollectionIds,
  COLLECTIONS_RESOURCE,
} from './collections.ts'
export { listOrders, getOrder, ORDERS_RESOURCE } from './orders.ts'
export { listCustomers, getCustomer, CUSTOMERS_RESOURCE } from './customers.ts'
export { getCheckout } from './checkout.ts'
export { getMediaBlob, type MediaBlob } from './media-blobs.ts'
