import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { makeDerivative } from '../images/encode.ts'
import { CONTENT_TYPES, isDerivative } from '../images/variants.ts'
import { mediaDerivatives } from '../metrics/registry.ts'
import { getMediaBlob } from '../queries/commerce/media-blobs.ts'
import { storedDerivative, type DerivativeKey, type StoredDerivative } from '../queries/media-derivatives.ts'

// The responsive copies of media-library images (issue 35 C), made on the first request for one
// and stored in media_derivatives, where every instance finds them; never at seed time.
//
// Made once: on an instance, concurrent requests for one copy share one promise; across
// instances, the first inserts a claim row (no bytes yet) and makes the copy, and the others
// wait for its bytes. A claim left by an instance that died is taken over after
// CLAIM_STALE_SECONDS. Served copies are kept in memory (a bounded LRU), as they never change.

export type DerivativeAnswer = ({ ok: true } & StoredDerivative) | { ok: false; reason: 'not-found' | 'busy' }

const CLAIM_STALE_SECONDS = 60
const WAIT_MS = 20_000
const POLL_MS = 100

export type MediaDerivatives = {
  /** The copy's bytes: from memory, the database, or made now. */
  get(key: DerivativeKey): Promise<DerivativeAnswer>
}

export function createMediaDerivatives(db: Kysely<Database>, options: { memoryBytes?: number } = {}): MediaDerivatives {
  const budget = options.memoryBytes ?? 32 * 1024 * 1024
  const memory = new Map<string, StoredDerivative>()
  let memoryBytes = 0
  const inFlight = new Map<string, Promise<DerivativeAnswer>>()

  const remember = (name: string, copy: StoredDerivative) => {
    if (copy.bytes.byteLength > budget / 8) return
    memory.set(name, copy)
    memoryBytes += copy.bytes.byteLength
    for (const [oldest, value] of memory) {
      if (memoryBytes <= budget) break
      memory.delete(oldest)
      memoryBytes -= value.bytes.byteLength
    }
  }

  // One statement takes the claim: a new row, or the row of a claim left too long without bytes.
  async function claim(key: DerivativeKey): Promise<boolean> {
    const inserted = await db
      .insertInto('media_derivatives')
      .values({ sha256: key.sha256, width: key.width, format: key.format, content_type: CONTENT_TYPES[key.format] })
      .onConflict((oc) => oc.columns(['sha256', 'width', 'format']).doNothing())
      .returning('sha256')
      .executeTakeFirst()
    if (inserted) return true
    const { rows } = await sql<{ sha256: string }>`
      update media_derivatives set claimed_at = now()
      where sha256 = ${key.sha256} and width = ${key.width} and format = ${key.format} and bytes is null
        and claimed_at < now() - make_interval(secs => ${CLAIM_STALE_SECONDS})
      returning sha256`.execute(db)
    return rows.length > 0
  }

  async function make(key: DerivativeKey, original: Uint8Array): Promise<DerivativeAnswer> {
    try {
      const copy = await makeDerivative(original, key.width, key.format)
      await db
        .updateTable('media_derivatives')
        .set({ bytes: copy.bytes, byte_size: copy.bytes.byteLength, height: copy.height, created_at: new Date() })
        .where('sha256', '=', key.sha256)
        .where('width', '=', key.width)
        .where('format', '=', key.format)
        .execute()
      mediaDerivatives.inc({ source: 'made' })
      return { ok: true, contentType: copy.contentType, bytes: copy.bytes }
    } catch (error) {
      // Release the claim so a later request may try again; the original stays the fallback.
      await db
        .deleteFrom('media_derivatives')
        .where('sha256', '=', key.sha256)
        .where('width', '=', key.width)
        .where('format', '=', key.format)
        .where('bytes', 'is', null)
        .execute()
      throw error
    }
  }

  async function load(key: DerivativeKey): Promise<DerivativeAnswer> {
    const stored = await storedDerivative(db, key)
    if (stored) {
      mediaDerivatives.inc({ source: 'stored' })
      return { ok: true, ...stored }
    }
    const blob = await getMediaBlob(db, key.sha256)
    if (blob === null || !isDerivative(blob, key.width, key.format)) return { ok: false, reason: 'not-found' }
    const deadline = Date.now() + WAIT_MS
    for (;;) {
      if (await claim(key)) return make(key, blob.bytes)
      // Another instance is making it.
      await sleep(POLL_MS)
      const made = await storedDerivative(db, key)
      if (made) {
        mediaDerivatives.inc({ source: 'stored' })
        return { ok: true, ...made }
      }
      if (Date.now() > deadline) return { ok: false, reason: 'busy' }
    }
  }

  return {
    async get(key) {
      const name = `${key.sha256}-${key.width}.${key.format}`
      const known = memory.get(name)
      if (known) {
        mediaDerivatives.inc({ source: 'memory' })
        return { ok: true, ...known }
      }
      let running = inFlight.get(name)
      if (running === undefined) {
        running = load(key).finally(() => inFlight.delete(name))
        inFlight.set(name, running)
      }
      const answer = await running
      if (answer.ok && !memory.has(name)) remember(name, { contentType: answer.contentType, bytes: answer.bytes })
      return answer
    },
  }
}
