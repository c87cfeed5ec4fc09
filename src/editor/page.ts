import { escapeHtml } from '../web/html.ts'
import type { EditorAssets } from './assets.ts'

// The editor's HTML: an empty shell the bundled script fills in. No inline script or style;
// what the script needs to start (theme id, CSRF token, addresses) rides on data attributes.
export const EDITOR_PATH = '/dashboard/themes/editor'
export const ASSET_PATH = `${EDITOR_PATH}/assets`
export const API_PATH = `${EDITOR_PATH}/api`

export const EDITOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Media thumbnails: uploads are served here, registered images are https URLs elsewhere.
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

export function editorPage(
  assets: EditorAssets,
  boot: { themeId: string; csrfToken: string; previewBase: string; themesUrl: string; activityUrl: string },
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Theme editor</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PATH}/${assets.style.name}">
<script type="module" src="${ASSET_PATH}/${assets.script.name}"></script>
</head>
<body>
<div id="editor" data-theme-id="${escapeHtml(boot.themeId)}" data-csrf-token="${escapeHtml(boot.csrfToken)}" data-api="${API_PATH}" data-preview-base="${escapeHtml(boot.previewBase)}" data-themes-url="${escapeHtml(boot.themesUrl)}" data-activity-url="${escapeHtml(boot.activityUrl)}">
<p class="loading">Loading the editor…</p>
</div>
</body>
</html>
`
}

export function editorMessagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/dashboard/themes">Back to themes</a></p></main></body>
</html>
`
}
