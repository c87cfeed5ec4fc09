import { createHash } from 'node:crypto'
import { z } from 'zod'
import { listMediaAssets, mediaAssetSchema, mediaAssetView } from '../queries/media-assets.ts'
import { listNavigationMenus, navigationMenuSchema } from '../queries/navigation.ts'
import { paginationQuerySchema } from '../queries/pagination.ts'
import { urlProblem } from '../theme/url.ts'
import { commandContext } from './command-context.ts'
import { defineOperation } from './operation.ts'
import { invalidInput } from './results.ts'
import { paged } from './paged.ts'
import { MAX_UPLOAD_BYTES } from '../aggregates/media/decider.ts'
import { registerMedia } from '../commands/media.ts'
import { updateNavigation } from '../commands/navigation.ts'
import { updateNavigationSchema } from '../aggregates/navigation/decider.ts'
import { sniffImage } from '../aggregates/media/sniff-image.ts'
import { checkUpload } from '../images/encode.ts'

const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false }

export const listMediaOperation = defineOperation({
  operationId: 'listMedia',
  method: 'GET',
  path: '/api/v1/media',
  scopes: ['media:read'],
  tag: 'Media',
  summary: 'List media assets',
  description: 'Uploaded and registered images of the store, oldest first, paginated.',
  query: paginationQuerySchema,
  data: z.object({ media: z.array(mediaAssetSchema) }),
  paginated: true,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_media',
    title: 'Get media',
    description: 'The store’s images. Use to pick images; put an asset’s themeUrl (not url) in image settings.',
    annotations: read,
  },
  async run(input, caller, s) {
    return paged('media', () => listMediaAssets(s.read, caller.storeId, input))
  },
})

export const uploadMediaBodySchema = z.strictObject({
  url: z.string().max(2048).optional().meta({
    description:
      'Register an https image URL. It is never fetched: it gets no resized copies, and a width and height only if given in the theme.',
  }),
  dataBase64: z
    .string()
    .max(Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 4)
    .optional()
    .meta({
      description: 'Or upload image bytes, base64-encoded (PNG, JPEG, WebP, GIF, AVIF; at most 5 MiB; SVG refused).',
    }),
  file: z.unknown().optional().meta({ description: 'Multipart uploads only: the file part.' }),
  alt: z.string().max(300).default('').meta({ description: 'Alternative text for accessibility.' }),
})

export const uploadMediaOperation = defineOperation({
  operationId: 'uploadMedia',
  method: 'POST',
  path: '/api/v1/media',
  scopes: ['media:write'],
  tag: 'Media',
  summary: 'Upload or register an image',
  description:
    'multipart/form-data with a `file` part (and `alt`), or JSON with `url` (https) or `dataBase64`. The type is read from the bytes; only PNG, JPEG, WebP, GIF and AVIF up to 5 MiB and 50 megapixels; SVG is refused. An upload is checked once: its EXIF orientation is applied, it is scaled down to 4,096 px on its longest side and its metadata is stripped. 201 when new; 200 when the same bytes or URL were already registered.',
  body: uploadMediaBodySchema,
  multipart: { maxFileBytes: MAX_UPLOAD_BYTES },
  // 5 MiB of image as base64, plus the JSON around it.
  bodyLimit: 8 * 1024 * 1024,
  data: mediaAssetSchema,
  successStatus: 201,
  idempotent: true,
  mcp: {
    name: 'upload_media',
    title: 'Upload media',
    description:
      'Add an image (https url or dataBase64). Next: put the returned themeUrl in image settings via apply_theme_batch.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    if (/[<>]/.test(input.alt)) return invalidInput('alt', 'alt text is plain text', 'UNSAFE_CONTENT')
    const sources = [input.url, input.dataBase64, input.file].filter((v) => v !== undefined).length
    if (sources !== 1) return invalidInput('', 'give exactly one of file (multipart), url or dataBase64')
    const ctx = commandContext(caller, 'uploadMedia')
    if (input.url !== undefined) {
      const problem = urlProblem(input.url)
      if (problem) return invalidInput('url', problem.message, problem.code)
      if (!input.url.startsWith('https://'))
        return invalidInput('url', 'a registered image URL is an absolute https URL')
      const result = await registerMedia(s.commands, ctx, { source: 'url', url: input.url, alt: input.alt })
      if (!result.ok) return result
      return { ok: true, status: result.value.created ? 201 : 200, data: mediaAssetView(s.baseUrl, result.value.asset) }
    }
    // The multipart reader puts the file part's bytes here (src/http/multipart.ts).
    const file = input.file as { bytes: Uint8Array } | undefined
    const bytes = file ? file.bytes : new Uint8Array(Buffer.from(input.dataBase64!, 'base64'))
    if (bytes.byteLength === 0) return invalidInput(file ? 'file' : 'dataBase64', 'the upload is empty')
    if (bytes.byteLength > MAX_UPLOAD_BYTES)
      return {
        ok: false,
        error: { code: 'PAYLOAD_TOO_LARGE', message: `an upload is at most ${MAX_UPLOAD_BYTES} bytes` },
      }
    const sniffed = sniffImage(bytes)
    if (!sniffed) {
      const text = Buffer.from(bytes.subarray(0, 512)).toString('utf8').toLowerCase()
      const message =
        text.includes('<svg') || text.includes('<?xml')
          ? 'SVG is not accepted (it can carry script); upload PNG, JPEG, WebP, GIF or AVIF'
          : 'not a supported image; upload PNG, JPEG, WebP, GIF or AVIF'
      return { ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE', message } }
    }
    // The address and the duplicate check use the hash of the bytes as uploaded; the bytes kept are
    // the checked ones (oriented, at most 4,096 px, metadata stripped: src/images/encode.ts).
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    const checked = await checkUpload(bytes, sniffed.contentType)
    if (!checked.ok) return { ok: false, error: checked.error }
    const result = await registerMedia(s.commands, ctx, {
      source: 'upload',
      bytes: checked.value.bytes,
      sha256,
      contentType: sniffed.contentType,
      width: checked.value.width,
      height: checked.value.height,
      alt: input.alt,
    })
    if (!result.ok) return result
    return { ok: true, status: result.value.created ? 201 : 200, data: mediaAssetView(s.baseUrl, result.value.asset) }
  },
})

export const getNavigationOperation = defineOperation({
  operationId: 'getNavigation',
  method: 'GET',
  path: '/api/v1/navigation',
  scopes: ['navigation:read'],
  tag: 'Navigation',
  summary: 'The store’s navigation menus',
  description:
    'The main and footer menus (and any others). A theme’s own navigation array is part of the theme document.',
  data: z.object({ menus: z.array(navigationMenuSchema) }),
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_navigation',
    title: 'Get navigation',
    description: 'The store’s menus (main, footer). Use before update_navigation.',
    annotations: read,
  },
  async run(_input, caller, s) {
    return { ok: true, data: { menus: await listNavigationMenus(s.read, caller.storeId) } }
  },
})

export const updateNavigationOperation = defineOperation({
  operationId: 'updateNavigation',
  method: 'PATCH',
  path: '/api/v1/navigation',
  scopes: ['navigation:write'],
  tag: 'Navigation',
  summary: 'Update navigation menus',
  description:
    'Menus given are replaced by handle; others stay. Entries are { label, href, children? } with https or site-relative hrefs. Audited like a theme change.',
  body: updateNavigationSchema,
  data: z.object({ menus: z.array(navigationMenuSchema) }),
  successStatus: 200,
  idempotent: true,
  mcp: {
    name: 'update_navigation',
    title: 'Update navigation',
    description: 'Replace store menus (main, footer) by handle. Read get_navigation first.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    const result = await updateNavigation(s.commands, commandContext(caller, 'updateNavigation'), input)
    if (!result.ok) return result
    return { ok: true, data: { menus: await listNavigationMenus(s.read, caller.storeId) } }
  },
})
