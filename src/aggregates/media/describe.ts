import type { MediaEvent } from './events.ts'

export function describeMediaEvent(event: MediaEvent): string | null {
  return event.data.source === 'upload'
    ? `Uploaded image ${event.data.url} (${event.data.contentType}, ${event.data.byteSize} bytes)`
    : `Registered image URL ${event.data.url}`
}
