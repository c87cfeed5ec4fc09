import type { MediaEvent } from './events.ts'

export function describeMediaEvent(event: MediaEvent): string | null {
  return event.data.source === 'upload'
    ? `Uploaded an image (${(event.data.contentType ?? 'image').replace(/^image\//, '').toUpperCase()}, ${Math.max(1, Math.round((event.data.byteSize ?? 0) / 1024))} KB)`
    : `Registered image URL ${event.data.url}`
}
