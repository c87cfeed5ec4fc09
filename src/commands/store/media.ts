import type { MediaEvent } from '../../events/theme-events.ts'
import { streams, streamTypes } from '../../events/theme-events.ts'
import type { CommandContext, CommandDeps } from '../context.ts'
import { runCommand, type Decision } from '../run-command.ts'

// Uploads are at most 5 MiB, whichever way the bytes arrive (multipart, base64, MCP).
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024

export type MediaAsset = Omit<MediaEvent['data'], 'at'> & { createdAt: string }

// Bytes already checked by the adapter (sniffed type, size, dimensions); the URL of an upload is
// its content address, so the same bytes register once.
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

const toAsset = (d: MediaEvent['data']): MediaAsset => {
  const { at, ...rest } = d
  return { ...rest, createdAt: at }
}

export async function registerMedia(deps: CommandDeps, ctx: CommandContext, input: RegisterMediaInput) {
  return runCommand(deps, ctx, async (deps): Promise<Decision<Registered>> => {
    const events = await deps.eventStore.readStream<MediaEvent>(streams.media(ctx.storeId))
    const registered = events.map((e) => e.data)
    const existing = registered.find((d) =>
      input.source === 'upload' ? d.sha256 === input.sha256 : d.source === 'url' && d.url === input.url,
    )
    if (existing) return { ok: true, appends: [], result: () => ({ asset: toAsset(existing), created: false }) }
    const at = deps.clock().toISOString()
    const data: MediaEvent['data'] =
      input.source === 'upload'
        ? {
            assetId: deps.newId('med'),
            url: `/media/${input.sha256}.${extension(input.contentType)}`,
            source: 'upload',
            contentType: input.contentType,
            byteSize: input.bytes.byteLength,
            width: input.width,
            height: input.height,
            sha256: input.sha256,
            alt: input.alt,
            at,
          }
        : {
            assetId: deps.newId('med'),
            url: input.url,
            source: 'url',
            contentType: null,
            byteSize: null,
            width: null,
            height: null,
            sha256: null,
            alt: input.alt,
            at,
          }
    return {
      ok: true,
      appends: [
        {
          streamId: streams.media(ctx.storeId),
          streamType: streamTypes.media,
          storeId: ctx.storeId,
          expected: events.at(-1)?.streamVersion ?? 'no_stream',
          events: [{ type: 'MediaAssetRegistered', data }],
        },
      ],
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
      result: () => ({ asset: toAsset(data), created: true }),
    }
  })
}

export function extension(contentType: string): string {
  return (
    (
      {
        'image/png': 'png',
        'image/jpeg': 'jpg',
        'image/webp': 'webp',
        'image/gif': 'gif',
        'image/avif': 'avif',
      } as Record<string, string>
    )[contentType] ?? 'bin'
  )
}
