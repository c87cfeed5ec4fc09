import { eventTypes, streamName } from '../stream-name.ts'

// A store's media library (`media-<storeId>`). The bytes of uploads live in media_blobs (written
// in the same transaction), never in events.
export type MediaEvent = {
  type: 'MediaAssetRegistered'
  data: {
    assetId: string
    url: string
    source: 'upload' | 'url'
    contentType: string | null
    byteSize: number | null
    width: number | null
    height: number | null
    sha256: string | null
    alt: string
    at: string
  }
}

export const mediaStream = streamName('media')

export const MEDIA_EVENT_TYPES = eventTypes<MediaEvent>()(['MediaAssetRegistered'])
