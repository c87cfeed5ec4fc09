import type { Decider } from '../decider.ts'
import { ok } from '../result.ts'
import { mediaStream, type MediaEvent } from './events.ts'

// Uploads are at most 5 MiB, whichever way the bytes arrive (multipart, base64, MCP).
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024

export type MediaAsset = Omit<MediaEvent['data'], 'at'> & { createdAt: string }
export type RegisteredMedia = MediaEvent['data'][]

// An image to register: bytes already checked by the adapter (sniffed type, size, dimensions)
// and hashed, or an external https URL the service never fetches.
export type RegisterMedia = { assetId: string; alt: string } & (
  | { source: 'url'; url: string }
  | {
      source: 'upload'
      sha256: string
      contentType: string
      byteSize: number
      width: number | null
      height: number | null
    }
)

export const toAsset = (d: MediaEvent['data']): MediaAsset => {
  const { at, ...rest } = d
  return { ...rest, createdAt: at }
}

// The same bytes (or the same URL) register once: the address of an upload is its content hash.
export const alreadyRegistered = (state: RegisteredMedia, command: RegisterMedia) =>
  state.find((d) =>
    command.source === 'upload' ? d.sha256 === command.sha256 : d.source === 'url' && d.url === command.url,
  )

export function extension(contentType: string): string {
  const extensions: Record<string, string> = {
    'image/png': 'png',
    'image/jpeg': 'jpg',
    'image/webp': 'webp',
    'image/gif': 'gif',
    'image/avif': 'avif',
  }
  return extensions[contentType] ?? 'bin'
}

export const mediaDecider: Decider<RegisterMedia, RegisteredMedia, MediaEvent> = {
  stream: mediaStream,
  initialState: [],
  evolve: (state, event) => [...state, event.data],
  decide(command, state, { at }) {
    if (alreadyRegistered(state, command)) return ok([])
    const data: MediaEvent['data'] =
      command.source === 'upload'
        ? {
            assetId: command.assetId,
            url: `/media/${command.sha256}.${extension(command.contentType)}`,
            source: 'upload',
            contentType: command.contentType,
            byteSize: command.byteSize,
            width: command.width,
            height: command.height,
            sha256: command.sha256,
            alt: command.alt,
            at,
          }
        : {
            assetId: command.assetId,
            url: command.url,
            source: 'url',
            contentType: null,
            byteSize: null,
            width: null,
            height: null,
            sha256: null,
            alt: command.alt,
            at,
          }
    return ok([{ type: 'MediaAssetRegistered', data }])
  },
}
