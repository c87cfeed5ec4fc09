// Where a linked tool's result carries the review view's data: written by src/mcp/tools.ts, read
// by the view (src/mcp/theme-review/view/view.ts), which esbuild bundles with this file.
export const REVIEW_META_KEY = 'storefront/review'
