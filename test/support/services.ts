import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import type { CommandContext } from '../../src/commands/context.ts'
import { createServices, type Services } from '../../src/services.ts'
import { freshDatabase } from './database.ts'

// The service layer on a fresh database (migrated, or seeded: freshDatabase's `seed`), without
// HTTP: for command and projection tests.
export async function testServices(
  t: { teardown: (fn: () => unknown) => void },
  opts: Parameters<typeof freshDatabase>[1] = {},
): Promise<Services> {
  const { db } = await freshDatabase(t, opts)
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  return createServices({ config, db, signingSecret: config.signingSecret!, logger: pino({ level: 'silent' }) })
}

export const agent = (storeId: string, operation: string, extra: Partial<CommandContext> = {}): CommandContext => ({
  storeId,
  actor: { kind: 'api_key', credentialId: 'key_test', appId: 'app_test' },
  channel: 'rest',
  requestId: `req_${operation}`,
  operation,
  ...extra,
})
