// The dashboard's one script, served from its own origin (CSP script-src 'self'): Copy buttons for
// values shown once (a client secret, an API key) and for client IDs. A button
// <button data-copy="ID" hidden> copies the text of the element #ID; without script the buttons
// stay hidden and the value can still be selected by hand.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const target = document.getElementById(button.dataset.copy)
  if (!target) continue
  const status = document.createElement('span')
  status.className = 'copy-status'
  status.setAttribute('role', 'status')
  button.after(status)
  button.hidden = false
  button.addEventListener('click', async () => {
    const value = target.textContent.trim()
    try {
      await navigator.clipboard.writeText(value)
      status.textContent = 'Copied.'
    } catch {
      // No clipboard access (an older browser, a page not served over https): select it instead.
      const range = document.createRange()
      range.selectNodeContents(target)
      const selection = window.getSelection()
      selection.removeAllRanges()
      selection.addRange(range)
      status.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.'
    }
  })
}
