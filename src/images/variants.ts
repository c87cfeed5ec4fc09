// The responsive copies of a media-library image (issue 35 C): which widths and formats exist
// for an original, and their addresses. Pure, shared by the renderer (srcset) and the media
// route (which copies it may make), so a page never links a copy the route would refuse.
//
//   /media/<sha256>.<ext>            the original, as uploaded (checked and normalized once)
//   /media/<sha256>-<width>w.<fmt>   a copy <width> pixels wide, in AVIF, WebP or the original's format

export const DERIVATIVE_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920, 2560] as const

export const DERIVATIVE_FORMATS = ['avif', 'webp', 'png', 'jpg'] as const
export type DerivativeFormat = (typeof DERIVATIVE_FORMATS)[number]

export const CONTENT_TYPES: Readonly<Record<DerivativeFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
}

const FORMAT_OF_TYPE: Readonly<Record<string, DerivativeFormat>> = {
  'image/avif': 'avif',
  'image/webp': 'webp',
  'image/png': 'png',
  'image/jpeg': 'jpg',
}

/** The format an original's own copies use (the <img> fallback); null for GIF, which is served as it is. */
export const fallbackFormat = (contentType: string): DerivativeFormat | null => FORMAT_OF_TYPE[contentType] ?? null

/** The widths copies exist at: the set's widths below the original's, and the original's own when within the set. */
export function derivativeWidths(originalWidth: number): number[] {
  const max = DERIVATIVE_WIDTHS[DERIVATIVE_WIDTHS.length - 1]!
  const widths: number[] = DERIVATIVE_WIDTHS.filter((w) => w < originalWidth)
  if (originalWidth <= max) widths.push(originalWidth)
  return widths
}

/** The formats copies exist in: AVIF, WebP and the original's own; none for GIF (animation is kept as is). */
export function derivativeFormats(contentType: string): DerivativeFormat[] {
  const own = fallbackFormat(contentType)
  if (own === null) return []
  return own === 'avif' || own === 'webp' ? ['avif', 'webp'] : ['avif', 'webp', own]
}

/** Whether a copy of this width and format may exist for the original (the route makes no other). */
export function isDerivative(
  original: { contentType: string; width: number | null },
  width: number,
  format: DerivativeFormat,
): boolean {
  if (original.width === null) return false
  return derivativeFormats(original.contentType).includes(format) && derivativeWidths(original.width).includes(width)
}

export const derivativePath = (sha256: string, width: number, format: DerivativeFormat): string =>
  `/media/${sha256}-${width}w.${format}`

/** The height of a copy, from the original's aspect ratio (what the page reserves for it). */
export const scaledHeight = (original: { width: number; height: number }, width: number): number =>
  Math.max(1, Math.round((original.height * width) / original.width))

const MEDIA_FILE = /^([0-9a-f]{64})(?:-([1-9][0-9]{0,4})w)?\.(png|jpg|jpeg|gif|webp|avif)$/

export type MediaFile =
  | { kind: 'original'; sha256: string }
  | { kind: 'derivative'; sha256: string; width: number; format: DerivativeFormat }

/** The file name of a /media/ address, or null when it is none of ours. */
export function parseMediaFile(file: string): MediaFile | null {
  const m = MEDIA_FILE.exec(file)
  if (m === null) return null
  const sha256 = m[1]!
  if (m[2] === undefined) return { kind: 'original', sha256 }
  const format = m[3] === 'jpeg' ? null : (m[3] as DerivativeFormat | 'gif')
  if (format === null || format === 'gif') return null
  return { kind: 'derivative', sha256, width: Number(m[2]), format }
}

const MEDIA_URL = /^\/media\/([0-9a-f]{64})\.(?:png|jpg|jpeg|gif|webp|avif)$/

/** The content hash of a media-library original's site-relative address, else null (an external URL is never ours). */
export function mediaHash(url: string): string | null {
  return MEDIA_URL.exec(url)?.[1] ?? null
}
