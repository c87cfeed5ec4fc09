import { parseArgs } from 'node:util'
import { createMerchant, resetPassword } from '../auth/merchant-accounts.ts'
import { runCli } from './open.ts'

const usage = `Usage:
  npm run merchants -- create --store <storeId> --email <email> [--name <name>]
  npm run merchants -- reset-password --email <email>
The generated password is printed once; only its Argon2id hash is stored. A reset ends every session of the merchant.`

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { store: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } },
})

await runCli(async (s) => {
  const [command] = positionals
  if (command === 'create' && values.store && values.email) {
    const created = await createMerchant(s.db, {
      storeId: values.store,
      email: values.email,
      ...(values.name ? { name: values.name } : {}),
    })
    process.stdout.write(`${created.password}\n`)
    process.stderr.write(
      `merchant ${created.merchantId} (${created.email}) owns ${values.store}; sign in at ${s.baseUrl}/dashboard/login\n`,
    )
    return 0
  }
  if (command === 'reset-password' && values.email) {
    const reset = await resetPassword(s.db, values.email, s.clock())
    if (!reset) {
      process.stderr.write(`no merchant with email ${values.email}\n`)
      return 1
    }
    process.stdout.write(`${reset.password}\n`)
    process.stderr.write(`new password for ${reset.email}; every session of this merchant was ended\n`)
    return 0
  }
  process.stderr.write(`${usage}\n`)
  return 2
})
