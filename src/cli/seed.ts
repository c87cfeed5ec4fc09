import { hasAnyStore } from '../seed/seed-commerce.ts'
import { seedDemo } from '../seed/seed-demo.ts'
import { runCli } from './open.ts'

// Seeds the demo stores into an empty database (npm start does this by itself for the embedded one).
await runCli(async (s) => {
  if (s.config.env === 'production') throw new Error('refusing to seed demo data with NODE_ENV=production')
  if (await hasAnyStore(s.db)) throw new Error('the database already has stores; seeding is for an empty database')
  const result = await seedDemo(s)
  for (const store of result.stores)
    process.stdout.write(`seeded ${store.storeId} (${store.name}) at /s/${store.slug}\n`)
  for (const k of result.keys) process.stdout.write(`  ${k.storeName.padEnd(18)} ${k.name.padEnd(26)} ${k.key}\n`)
  for (const m of result.merchants)
    process.stdout.write(`  merchant ${m.email.padEnd(34)} password ${m.password}   (${m.stores.join(', ')})\n`)
  return 0
})
