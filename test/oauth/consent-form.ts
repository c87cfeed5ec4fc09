// Reads the consent page the way a browser submits it: hidden fields, ticked boxes, the store.
export type ConsentForm = { hidden: Record<string, string>; scopes: { value: string; checked: boolean }[] }

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

export function readConsentForm(html: string): ConsentForm {
  const hidden: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[decodeEntities(m[1]!)] = decodeEntities(m[2]!)
  const scopes = [...html.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"( checked)?>/g)].map((m) => ({
    value: decodeEntities(m[1]!),
    checked: m[2] !== undefined,
  }))
  return { hidden, scopes }
}

// What pressing a button sends: hidden fields, the ticked scopes, the decision.
export function submission(
  form: ConsentForm,
  decision: 'allow' | 'deny',
  scopes = form.scopes.filter((s) => s.checked).map((s) => s.value),
): string {
  const body = new URLSearchParams(form.hidden)
  for (const s of scopes) body.append('scope', s)
  body.append('decision', decision)
  return body.toString()
}
