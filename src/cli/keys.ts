import { parseArgs } from 'node:util'
import { createApiKey, ensureApp, revokeApiKey } from '../auth/credentials.ts'
import { DEFAULT_AGENT_SCOPES, SCOPES } from '../auth/scopes.ts'
import { storeApiKeys } from '../queries/apps-and-keys.ts'
import { getStore } from '../queries/commerce/index.ts'
import { runCli } from './open.ts'

const usage = `Usage:
  npm run keys -- create --store <storeId> [--name <name>] [--scopes default|all|<scope,scope,…>] [--app <app name>]
  npm run keys -- list --store <storeId>
  npm run keys -- revoke <keyId>
The key is printed once; only its SHA-256 is stored.`

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { store: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, app: { type: 'string' } },
})

await runCli(async (s) => {
  const [command, arg] = positionals
  if (command === 'create' && values.store) {
    if (!(await getStore(s.read, values.store))) throw new Error(`no store ${values.store}`)
    const scopes =
      values.scopes === undefined || values.scopes === 'default'
        ? DEFAULT_AGENT_SCOPES
        : values.scopes === 'all'
          ? SCOPES
          : values.scopes.split(',').map((x) => x.trim())
    const appId = await ensureApp(s.db, { storeId: values.store, name: values.app ?? 'CLI' })
    const created = await createApiKey(s.db, { storeId: values.store, appId, name: values.name ?? 'CLI key', scopes })
    process.stdout.write(`${created.key}\n`)
    process.stderr.write(`key ${created.keyId} for ${values.store}, scopes: ${created.scopes.join(' ')}\n`)
    return 0
  }
  if (command === 'list' && values.store) {
    for (const k of await storeApiKeys(s.db, values.store))
      process.stdout.write(
        `${k.key_id}  ${k.key_hint}  ${k.revoked_at ? 'revoked' : 'active '}  ${k.name}  [${k.scopes.join(' ')}]\n`,
      )
    return 0
  }
  if (command === 'revoke' && arg) {
    const revoked = await revokeApiKey(s.db, arg)
    process.stderr.write(revoked ? `revoked ${arg}\n` : `no active key ${arg}\n`)
    return revoked ? 0 : 1
  }
  process.stderr.write(`${usage}\n`)
  return 2
})
