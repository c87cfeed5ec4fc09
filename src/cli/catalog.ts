import { parseArgs } from 'node:util'
import { bumpCatalogVersion, refreshCatalogReadModels } from '../queries/commerce/catalog-read-models.ts'
import { runCli } from './open.ts'

// The platform's catalogue change signal, by hand: the platform bumps stores.catalog_version on
// every catalogue or stock change; this does the same for a demo (after editing the commerce
// tables directly) and rebuilds the store's catalogue read models (product cards, the context's
// first page) right away instead of on the next read.
const usage =
  'Usage: npm run catalog -- bump --store <storeId> [--lazy]   (--lazy: leave the rebuild to the next read)\n'
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { store: { type: 'string' }, lazy: { type: 'boolean', default: false } },
})

await runCli(async (s) => {
  if (positionals[0] !== 'bump' || !values.store) {
    process.stderr.write(usage)
    return 2
  }
  const version = await bumpCatalogVersion(s.db, values.store)
  if (version === null) {
    process.stderr.write(`no store ${values.store}\n`)
    return 1
  }
  if (!values.lazy) await refreshCatalogReadModels(s.read, values.store)
  process.stdout.write(`${values.store}: catalog_version ${version}${values.lazy ? '' : ', read models rebuilt'}\n`)
  return 0
})
