import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from './config.ts'

// The signing secret (preview tokens, cursors). In production it must be configured; elsewhere
// it is generated on first start and kept in DATA_DIR so links survive restarts.
export function resolveSigningSecret(config: Config): string {
  if (config.signingSecret) return config.signingSecret
  const file = join(config.dataDir, 'signing-secret')
  try {
    const kept = readFileSync(file, 'utf8').trim()
    if (kept.length >= 32) return kept
  } catch {
    // first start
  }
  mkdirSync(config.dataDir, { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}
