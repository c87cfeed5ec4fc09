import { render } from 'preact'
import { createApi } from './api.ts'
import { Editor } from './editor.tsx'
import './styles.css'

const root = document.getElementById('editor')
if (root) {
  const d = root.dataset
  const api = createApi(d.api ?? '', d.csrfToken ?? '')
  root.textContent = ''
  render(
    <Editor
      api={api}
      boot={{
        themeId: d.themeId ?? '',
        previewBase: d.previewBase ?? '',
        themesUrl: d.themesUrl ?? '/dashboard/themes',
        activityUrl: d.activityUrl ?? '/dashboard/developer/activity',
      }}
    />,
    root,
  )
}
