// Reference checks used by theme validation (is this product / collection id real in this store?).
export { existingProductIds } from './products.ts'
export { existingCollectionIds } from './collections.ts'
