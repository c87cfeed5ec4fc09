import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js'
import { builtOnce, bundleForBrowser } from '../../web/browser-bundle.ts'

// The MCP App of the review (SEP-1865, extension io.modelcontextprotocol/ui): one self-contained
// HTML document, its script and style inline as hosts load it into their own sandbox, bundled
// in memory once per process (src/web/browser-bundle.ts). Hosts that know the
// extension render it beside the results of the linked tools; other clients never read it.

export const THEME_REVIEW_URI = 'ui://storefront/theme-review'
export const REVIEW_TOOLS: ReadonlySet<string> = new Set(['preview_theme', 'diff_theme', 'check_theme'])

// Both spellings of the link: `ui.resourceUri` (the extension's) and the flat key older hosts read.
export const reviewToolMeta = { ui: { resourceUri: THEME_REVIEW_URI }, [RESOURCE_URI_META_KEY]: THEME_REVIEW_URI }

// The view frames the signed preview and loads the preview's images and styles from the
// service's origin; it connects nowhere itself (every call goes through the host).
const uiMeta = (baseUrl: string) => {
  const origin = new URL(baseUrl).origin
  return { ui: { csp: { connectDomains: [], resourceDomains: [origin], frameDomains: [origin] }, prefersBorder: true } }
}

export const themeReviewResource = (baseUrl: string): Resource => ({
  uri: THEME_REVIEW_URI,
  name: 'theme-review',
  title: 'Theme review',
  description:
    'The merchant’s review of a theme version inside the chat: its preview at three widths, what publishing changes, the checks, and publishing.',
  mimeType: RESOURCE_MIME_TYPE,
  _meta: uiMeta(baseUrl),
})

const VIEW_DIR = fileURLToPath(new URL('./view/', import.meta.url))

async function buildHtml(): Promise<string> {
  const [bundle, css] = await Promise.all([
    bundleForBrowser(`${VIEW_DIR}view.ts`),
    readFile(`${VIEW_DIR}view.css`, 'utf8'),
  ])
  // A "</script" inside the bundle would end the element early.
  const script = bundle.find((f) => f.path.endsWith('.js'))!.text.replaceAll('</script', '<\\/script')
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Theme review</title><style>${css}</style></head>`,
    `<body><main id="review"></main><script type="module">${script}</script></body></html>`,
  ].join('')
}

export const themeReviewHtml: () => Promise<string> = builtOnce(buildHtml)

export async function readThemeReview(baseUrl: string): Promise<ReadResourceResult> {
  return {
    contents: [
      { uri: THEME_REVIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: await themeReviewHtml(), _meta: uiMeta(baseUrl) },
    ],
  }
}
