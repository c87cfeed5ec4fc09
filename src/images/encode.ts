// Image work, on sharp (libvips): the one check of an upload (point 11 of issue 35) and the
// making of a responsive copy (point 9). Nothing else in the service decodes an image.
import sharp, { type Metadata, type Sharp } from 'sharp'
import { CONTENT_TYPES, type DerivativeFormat } from './variants.ts'

/** The longest side an upload keeps; larger ones are scaled down to it. */
export const MAX_SIDE = 4096
/**
 * Pixels an image may declare before anything decodes it (width × height × frames). A 5 MiB
 * file can declare gigapixels (a decompression bomb); 50 megapixels is a 8,660 × 5,773 photo.
 */
export const MAX_INPUT_PIXELS = 50_000_000

export type CheckedUpload = {
  bytes: Uint8Array
  width: number
  height: number
  /** False: the bytes are the upload's own, byte for byte (nothing to rotate, scale or strip). */
  changed: boolean
}

export type UploadRefusal = { code: 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE'; message: string }

const input = (bytes: Uint8Array) =>
  sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: true, failOn: 'error' })

/**
 * Checks an upload once: it decodes whole within the pixel limit; its EXIF orientation is applied,
 * it is scaled to at most MAX_SIDE pixels on its longest side and its metadata (EXIF with GPS
 * positions, XMP, IPTC, ICC, comments) is stripped, in its own format. An image with nothing to
 * change is kept byte for byte, so no quality is lost to a second encoding.
 */
export async function checkUpload(
  bytes: Uint8Array,
  contentType: string,
): Promise<{ ok: true; value: CheckedUpload } | { ok: false; error: UploadRefusal }> {
  let meta: Metadata
  try {
    // The header alone, whatever size it claims (nothing is decoded here), so a claim over the limit
    // is answered as such; every decode below runs under limitInputPixels.
    meta = await sharp(bytes, { limitInputPixels: false, animated: true }).metadata()
  } catch {
    return { ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'the image cannot be read' } }
  }
  const width = meta.width
  const height = meta.pageHeight ?? meta.height
  const pixels = width * (meta.height ?? height)
  if (!width || !height || pixels > MAX_INPUT_PIXELS) {
    return {
      ok: false,
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: `the image is ${width} × ${height} pixels${(meta.pages ?? 1) > 1 ? ` in ${meta.pages} frames` : ''}; at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are accepted`,
      },
    }
  }
  const oriented = (meta.orientation ?? 1) !== 1
  const oversize = Math.max(width, height) > MAX_SIDE
  const metadata =
    meta.exif !== undefined ||
    meta.icc !== undefined ||
    meta.iptc !== undefined ||
    meta.xmp !== undefined ||
    meta.tifftagPhotoshop !== undefined ||
    (meta.comments?.length ?? 0) > 0
  try {
    if (!oriented && !oversize && !metadata) {
      // Decoding every pixel finds a truncated or damaged file that a valid header hides.
      await input(bytes).stats()
      return { ok: true, value: { bytes, width, height, changed: false } }
    }
    const pipeline = input(bytes)
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    const { data, info } = await encodeAs(pipeline, contentType, 'original').toBuffer({ resolveWithObject: true })
    return {
      ok: true,
      value: { bytes: new Uint8Array(data), width: info.width, height: info.pageHeight ?? info.height, changed: true },
    }
  } catch {
    return { ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'the image is damaged or incomplete' } }
  }
}

// An upload keeps high quality (it is the source of every copy); copies trade a little for size.
function encodeAs(pipeline: Sharp, contentType: string, use: 'original' | 'copy'): Sharp {
  const original = use === 'original'
  switch (contentType) {
    case 'image/jpeg':
      return pipeline.jpeg({ quality: original ? 90 : 78, mozjpeg: true })
    case 'image/png':
      return pipeline.png({ compressionLevel: 9 })
    case 'image/webp':
      return pipeline.webp({ quality: original ? 90 : 75, effort: 4 })
    case 'image/avif':
      // effort 2: a quarter of the default's time on this hardware, a few per cent larger.
      return pipeline.avif({ quality: original ? 70 : 50, effort: 2 })
    case 'image/gif':
      return pipeline.gif()
    default:
      throw new Error(`no encoder for ${contentType}`)
  }
}

export type Derivative = { bytes: Uint8Array; width: number; height: number; contentType: string }

/** A copy of an original, `width` pixels wide (never wider than the original), in `format`. */
export async function makeDerivative(
  original: Uint8Array,
  width: number,
  format: DerivativeFormat,
): Promise<Derivative> {
  const contentType = CONTENT_TYPES[format]
  const pipeline = sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width, withoutEnlargement: true })
  const { data, info } = await encodeAs(pipeline, contentType, 'copy').toBuffer({ resolveWithObject: true })
  return { bytes: new Uint8Array(data), width: info.width, height: info.height, contentType }
}
