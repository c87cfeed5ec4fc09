import {
  alreadyRegistered,
  mediaDecider,
  type MediaAsset,
  type RegisterMedia,
  toAsset,
} from '../aggregates/media/decider.ts'
import { ok } from '../aggregates/result.ts'
import type { CommandContext, CommandDeps } from './context.ts'
import { change, handleCommand } from './handle-command.ts'

// An image for the store's media library: checked bytes (their type sniffed, their size read by
// the adapter) or an external https URL. The bytes are kept in media_blobs, written in the same
// transaction as the event; the event carries only their address and size.
export type RegisterMediaInput =
  | { source: 'url'; url: string; alt: string }
  | {
      source: 'upload'
      bytes: Uint8Array
      sha256: string
      contentType: string
      width: number | null
      height: number | null
      alt: string
    }

export type Registered = { asset: MediaAsset; created: boolean }

export function registerMedia(deps: CommandDeps, ctx: CommandContext, input: RegisterMediaInput) {
  const command: RegisterMedia =
    input.source === 'upload'
      ? {
          assetId: deps.newId('med'),
          alt: input.alt,
          source: 'upload',
          sha256: input.sha256,
          contentType: input.contentType,
          byteSize: input.bytes.byteLength,
          width: input.width,
          height: input.height,
        }
      : { assetId: deps.newId('med'), alt: input.alt, source: 'url', url: input.url }
  return handleCommand(deps, ctx, {
    load: async (r) => ({ media: await r.read(mediaDecider, ctx.storeId), at: r.at }),
    decide: ({ media, at }) => {
      const decided = mediaDecider.decide(command, media.state, { at })
      return decided.ok ? ok([change(media, decided.value)]) : decided
    },
    result: ({ media }, after): Registered => {
      const existing = alreadyRegistered(media.state, command)
      if (existing) return { asset: toAsset(existing), created: false }
      return { asset: toAsset(after(media).at(-1)!), created: true }
    },
    within:
      input.source === 'upload'
        ? async (trx) => {
            await trx
              .insertInto('media_blobs')
              .values({
                sha256: input.sha256,
                content_type: input.contentType,
                byte_size: input.bytes.byteLength,
                width: input.width,
                height: input.height,
                bytes: input.bytes,
              })
              .onConflict((oc) => oc.column('sha256').doNothing())
              .execute()
          }
        : undefined,
  })
}
