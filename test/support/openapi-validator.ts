import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

// Validates real responses against a published OpenAPI 3.1 document: the status must be
// documented for the operation, the content type must be one the response lists, the body must
// match its JSON Schema (2020-12, $refs resolved inside the document), and every header the
// response promises must be present and match its schema.

type Json = Record<string, any>
export type HttpResponse = {
  statusCode: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020
const DOC_ID = 'https://openapi.test/openapi.json'
const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1')

export type OpenApiValidator = {
  document: Json
  operations: Map<string, { method: string; path: string; pointer: string; operation: Json }>
  // Problems found (empty when the response conforms). `optionalHeaders` are documented headers
  // that are legitimately absent on this response (for example Idempotent-Replayed on a first call).
  validate: (operationId: string, res: HttpResponse, opts?: { optionalHeaders?: string[] }) => string[]
}

export function openApiValidator(document: Json): OpenApiValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
  addFormats(ajv)
  ajv.addSchema(document, DOC_ID)

  const operations: OpenApiValidator['operations'] = new Map()
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method)) continue
      if (operation.operationId)
        operations.set(operation.operationId, {
          method: method.toUpperCase(),
          path,
          pointer: `/paths/${pointerSegment(path)}/${method}`,
          operation,
        })
    }
  }

  // A Reference Object (not a schema) resolved to what it points at, with its JSON pointer.
  const deref = (node: Json, pointer: string): { node: Json; pointer: string } => {
    let current = { node, pointer }
    for (let i = 0; i < 20 && typeof current.node?.$ref === 'string'; i++) {
      const ref = current.node.$ref as string
      if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`)
      const target = ref
        .slice(2)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce<any>((n, key) => (n === undefined ? undefined : n[key]), document)
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`)
      current = { node: target, pointer: ref.slice(1) }
    }
    return current
  }

  const schemaValidator = (pointer: string) => {
    const validate = ajv.getSchema(`${DOC_ID}#${pointer}`)
    if (!validate) throw new Error(`no schema at ${pointer}`)
    return validate
  }
  const errorsText = (errors: unknown) => JSON.stringify(errors).slice(0, 1500)

  const validate: OpenApiValidator['validate'] = (operationId, res, opts = {}) => {
    const entry = operations.get(operationId)
    if (!entry) return [`operation ${operationId} is not in the document`]
    const problems: string[] = []
    const responses = entry.operation.responses ?? {}
    const status = String(res.statusCode)
    const key =
      status in responses
        ? status
        : `${status[0]}XX` in responses
          ? `${status[0]}XX`
          : 'default' in responses
            ? 'default'
            : null
    if (!key)
      return [`${operationId}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`]
    const { node: response, pointer } = deref(responses[key], `${entry.pointer}/responses/${pointerSegment(key)}`)

    const optional = new Set((opts.optionalHeaders ?? []).map((h) => h.toLowerCase()))
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const { node: h, pointer: hp } = deref(header, `${pointer}/headers/${pointerSegment(name)}`)
      const raw = res.headers[name.toLowerCase()]
      if (raw === undefined) {
        if (!optional.has(name.toLowerCase()))
          problems.push(`${operationId} ${status}: header ${name} is documented but missing`)
        continue
      }
      const text = Array.isArray(raw) ? raw.join(', ') : String(raw)
      if (!h.schema) continue
      const type = deref(h.schema, `${hp}/schema`).node.type
      const value =
        type === 'integer' || type === 'number' ? (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text) : text
      const v = schemaValidator(`${hp}/schema`)
      if (!v(value)) problems.push(`${operationId} ${status}: header ${name}=${text}: ${errorsText(v.errors)}`)
    }

    const content = response.content as Json | undefined
    if (!content) {
      if (res.body.length > 0)
        problems.push(`${operationId} ${status}: a body was sent but the document lists no content`)
      return problems
    }
    const contentType = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase()
    if (!(contentType in content))
      return [
        ...problems,
        `${operationId} ${status}: content type ${contentType} is not one of ${Object.keys(content).join(', ')}`,
      ]
    const media = content[contentType] as Json
    if (!media.schema) return problems
    let body: unknown
    try {
      body = JSON.parse(res.body)
    } catch {
      return [...problems, `${operationId} ${status}: body is not JSON`]
    }
    const v = schemaValidator(`${pointer}/content/${pointerSegment(contentType)}/schema`)
    if (!v(body)) problems.push(`${operationId} ${status}: body does not match the schema: ${errorsText(v.errors)}`)
    return problems
  }

  return { document, operations, validate }
}
