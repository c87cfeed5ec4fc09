// Settings forms generated from the JSON Schema the theme schema endpoint serves. Nothing here
// knows a section type: a new type in the catalogue gets its form from its schema alone.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Samples } from './changes.ts'
import { LinkPicker, type SitePage } from './links.tsx'
import { labelOf, setUnsaved } from './unsaved.ts'
import { optionLabel, settingHelp, settingLabel } from '../../theme/merchant-texts.ts'
import { ImageField, ImageUrlPicker, ReferenceField, type Pickers } from './pickers.tsx'
import { formattingSummary, RichTextEditor, type RichTextRules } from './rich-text.tsx'
import type { JsonSchema } from './types.ts'

/** `scope`: the section or block type whose settings the form edits (its help texts and defaults). */
export type FormContext = {
  pickers: Pickers
  richText: RichTextRules
  disabled: boolean
  scope?: string | undefined
  defaults?: Readonly<Record<string, unknown>> | undefined
  /** What a new block starts with where it must name a product, collection or picture. */
  samples?: Samples | undefined
  /** The theme's own pages, which links can lead to. */
  pages?: SitePage[] | undefined
}

type FieldProps = {
  name: string
  schema: JsonSchema
  required: boolean
  value: unknown
  /** Path of this value from the form's root, as the service reports issues (settings.heading). */
  path: string
  issues: Map<string, string>
  onCommit: (value: unknown) => void
  ctx: FormContext
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const REFERENCE_KEYS: Record<string, { kind: 'product' | 'collection'; many: boolean }> = {
  productId: { kind: 'product', many: false },
  productIds: { kind: 'product', many: true },
  collectionId: { kind: 'collection', many: false },
  collectionIds: { kind: 'collection', many: true },
}

const domId = (path: string) => `f-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`

/** The field's schema without a `null` alternative, and whether null is allowed. */
function unwrap(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (!schema.anyOf) return { schema, nullable: false }
  const rest = schema.anyOf.filter((s) => s.type !== 'null')
  const inner = rest.length === 1 ? { ...rest[0]!, description: schema.description ?? rest[0]!.description } : schema
  return { schema: inner, nullable: rest.length < schema.anyOf.length }
}

const isImage = (s: JsonSchema) =>
  s.type === 'object' && !!s.properties?.url && !!s.properties?.alt && Object.keys(s.properties).length === 2

export function SchemaForm(props: {
  schema: JsonSchema
  value: Record<string, unknown>
  prefix: string
  issues: Map<string, string>
  onCommit: (key: string, value: unknown) => void
  ctx: FormContext
}) {
  const { schema, value, prefix, issues, onCommit, ctx } = props
  const required = new Set(schema.required ?? [])
  return (
    <div class="fields">
      {Object.entries(schema.properties ?? {}).map(([key, field]) => (
        <Field
          key={key}
          name={key}
          schema={field}
          required={required.has(key)}
          value={value[key]}
          path={prefix ? `${prefix}.${key}` : key}
          issues={issues}
          onCommit={(v) => onCommit(key, v)}
          ctx={ctx}
        />
      ))}
    </div>
  )
}

function Shell(props: {
  id: string
  label: string
  required: boolean
  help: string
  error: string | undefined
  children: preact.ComponentChildren
  wide?: boolean
  labelId?: string
}) {
  return (
    <div class={`field${props.error ? ' has-error' : ''}`}>
      <div class="label-row">
        {/* A contenteditable is not labelable: it names itself with aria-labelledby instead. */}
        {props.labelId ? (
          // biome-ignore lint/a11y/noLabelWithoutControl lint/a11y/useKeyWithClickEvents: the area is keyboard-focusable itself; the click only mirrors what label-for does for inputs
          <label id={props.labelId} onClick={() => document.getElementById(props.id)?.focus()}>
            {props.label}
          </label>
        ) : (
          <label for={props.id}>{props.label}</label>
        )}
        {props.required ? (
          <span class="req" aria-hidden="true">
            *
          </span>
        ) : null}
      </div>
      {props.children}
      {props.help ? (
        <p class="help" id={`${props.id}-help`}>
          {props.help}
        </p>
      ) : null}
      {props.error ? (
        <p class="error" id={`${props.id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  )
}

export function describedBy(id: string, help: string, error: string | undefined) {
  return [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
}

function Field(props: FieldProps) {
  const { name, required, value, path, issues, onCommit, ctx } = props
  const { schema, nullable } = unwrap(props.schema)
  const id = domId(path)
  // Merchant words (src/theme/merchant-texts.ts), never the schema's descriptions, which speak to agents.
  const label = settingLabel(name)
  const help = settingHelp(name, ctx.scope)
  const fallback = ctx.defaults?.[name]
  const error = issues.get(path)
  const optional = !required || nullable
  const common = {
    id,
    disabled: ctx.disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, help, error),
    'aria-required': required && !nullable ? true : undefined,
  }

  const reference = REFERENCE_KEYS[name]
  if (reference) {
    return (
      <Shell id={id} label={label} required={required} help={help} error={error}>
        <ReferenceField
          id={id}
          kind={reference.kind}
          many={reference.many}
          value={value}
          optional={optional}
          label={label}
          describedBy={describedBy(id, help, error)}
          disabled={ctx.disabled}
          pickers={ctx.pickers}
          onCommit={onCommit}
        />
      </Shell>
    )
  }
  if (isImage(schema)) {
    return (
      <Group label={label} required={required} help={help} error={error}>
        <ImageField
          id={id}
          label={label}
          value={value as { url: string; alt: string } | undefined}
          optional={optional}
          disabled={ctx.disabled}
          pickers={ctx.pickers}
          issues={issues}
          path={path}
          onCommit={onCommit}
        />
      </Group>
    )
  }
  if (schema.type === 'object' && schema.properties) {
    const current = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>
    const commitPart = (key: string, part: unknown) => {
      const next: Record<string, unknown> = { ...current }
      if (part === null || part === undefined || part === '') delete next[key]
      else next[key] = part
      onCommit(Object.keys(next).length === 0 && optional ? null : next)
    }
    return (
      <Group label={label} required={required} help={help} error={error}>
        <SchemaForm schema={schema} value={current} prefix={path} issues={issues} onCommit={commitPart} ctx={ctx} />
      </Group>
    )
  }
  if (schema.enum) {
    return (
      <Shell id={id} label={label} required={required} help={help} error={error}>
        <select
          {...common}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(e) => {
            const raw = e.currentTarget.value
            onCommit(raw === '' ? null : (schema.enum!.find((option) => String(option) === raw) ?? raw))
          }}
        >
          {optional ? (
            <option value="">
              {fallback === undefined ? 'Default' : `Default (${optionLabel(name, String(fallback))})`}
            </option>
          ) : null}
          {schema.enum.map((option) => (
            <option key={String(option)} value={String(option)}>
              {optionLabel(name, option)}
            </option>
          ))}
        </select>
      </Shell>
    )
  }
  if (schema.type === 'boolean') {
    if (!optional) {
      return (
        <div class={`field check${error ? ' has-error' : ''}`}>
          <input
            type="checkbox"
            {...common}
            checked={value === true}
            onChange={(e) => onCommit(e.currentTarget.checked)}
          />
          <label for={id}>{label}</label>
          {help ? (
            <p class="help" id={`${id}-help`}>
              {help}
            </p>
          ) : null}
          {error ? (
            <p class="error" id={`${id}-error`}>
              {error}
            </p>
          ) : null}
        </div>
      )
    }
    return (
      <Shell id={id} label={label} required={false} help={help} error={error}>
        <select
          {...common}
          value={value === true ? 'yes' : value === false ? 'no' : ''}
          onChange={(e) => {
            const raw = e.currentTarget.value
            onCommit(raw === '' ? null : raw === 'yes')
          }}
        >
          <option value="">{fallback === undefined ? 'Default' : `Default (${fallback ? 'yes' : 'no'})`}</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
      </Shell>
    )
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const bounds = [
      schema.minimum !== undefined ? `from ${schema.minimum}` : '',
      schema.maximum !== undefined ? `to ${schema.maximum}` : '',
    ]
      .filter(Boolean)
      .join(' ')
    return (
      <Shell id={id} label={label} required={required} help={help} error={error}>
        <TextInput
          common={common}
          type="number"
          min={schema.minimum}
          max={schema.maximum}
          step={schema.type === 'integer' ? 1 : 'any'}
          value={value === undefined || value === null ? '' : String(value)}
          title={bounds || undefined}
          onCommit={(raw) => onCommit(raw.trim() === '' ? null : Number(raw))}
        />
      </Shell>
    )
  }
  if (schema.type === 'string') {
    const text = typeof value === 'string' ? value : ''
    const toValue = (raw: string) => (raw === '' && optional ? null : raw)
    if (
      schema.pattern &&
      COLOR.test('#abcdef') &&
      new RegExp(schema.pattern).test('#abcdef') &&
      !new RegExp(schema.pattern).test('abcdef')
    ) {
      const full = /^#[0-9a-fA-F]{3}$/.test(text)
        ? `#${[...text.slice(1)].map((c) => c + c).join('')}`
        : COLOR.test(text)
          ? text
          : '#000000'
      return (
        <Shell id={id} label={label} required={required} help={help} error={error}>
          <div class="color">
            <input
              type="color"
              id={`${id}-swatch`}
              aria-label={`${label} swatch`}
              disabled={ctx.disabled}
              value={full.toLowerCase()}
              onChange={(e) => onCommit(e.currentTarget.value)}
            />
            <TextInput
              common={common}
              type="text"
              value={text}
              maxLength={7}
              onCommit={(raw) => onCommit(toValue(raw))}
            />
          </div>
        </Shell>
      )
    }
    if (schema.contentMediaType === 'text/html') {
      const richHelp =
        `${help} Formatting: ${formattingSummary(ctx.richText).join(', ')}; pasted text keeps only these.`.trim()
      return (
        <Shell id={id} labelId={`${id}-label`} label={label} required={required} help={richHelp} error={error}>
          <RichTextEditor
            id={id}
            labelId={`${id}-label`}
            label={label}
            value={text}
            rules={ctx.richText}
            disabled={ctx.disabled}
            invalid={!!error}
            required={required && !nullable}
            describedBy={describedBy(id, richHelp, error)}
            onCommit={(html) => onCommit(toValue(html))}
          />
        </Shell>
      )
    }
    if (schema.format === 'uri-reference' && /\bimage\b/i.test(schema.description ?? '')) {
      return (
        <Shell id={id} label={label} required={required} help={help} error={error}>
          {text ? <img class="thumb" src={text} alt={`Current ${label.toLowerCase()}`} /> : null}
          <TextInput
            common={common}
            type="text"
            inputMode="url"
            value={text}
            onCommit={(raw) => onCommit(toValue(raw))}
          />
          <ImageUrlPicker label={label} disabled={ctx.disabled} pickers={ctx.pickers} onPick={(url) => onCommit(url)} />
        </Shell>
      )
    }
    if (schema.format === 'uri-reference') {
      const meaningId = text ? `${id}-meaning` : ''
      return (
        <Shell id={id} label={label} required={required} help={help} error={error}>
          <LinkPicker
            id={id}
            label={label}
            value={text}
            pages={ctx.pages ?? []}
            pickers={ctx.pickers}
            disabled={ctx.disabled}
            describedBy={describedBy(id, help, error)}
            onPick={(href) => onCommit(href)}
            input={
              <TextInput
                common={{
                  ...common,
                  'aria-describedby': [common['aria-describedby'], meaningId].filter(Boolean).join(' ') || undefined,
                }}
                type="text"
                inputMode="url"
                value={text}
                onCommit={(raw) => onCommit(toValue(raw))}
              />
            }
          />
        </Shell>
      )
    }
    const multiline = !schema.format && (schema.maxLength ?? 0) > 160
    return (
      <Shell id={id} label={label} required={required} help={help} error={error}>
        <TextInput
          common={common}
          multiline={multiline}
          type="text"
          inputMode={schema.format === 'uri-reference' ? 'url' : undefined}
          value={text}
          onCommit={(raw) => onCommit(toValue(raw))}
        />
      </Shell>
    )
  }
  // A shape this form does not know yet: edited as JSON, still validated by the service.
  return (
    <Shell id={id} label={`${label} (JSON)`} required={required} help={help} error={error}>
      <TextInput
        common={common}
        multiline
        value={value === undefined ? '' : JSON.stringify(value, null, 2)}
        onCommit={(raw) => {
          if (raw.trim() === '') return onCommit(null)
          try {
            onCommit(JSON.parse(raw))
          } catch {
            onCommit(raw)
          }
        }}
      />
    </Shell>
  )
}

type InputCommon = {
  id: string
  disabled: boolean
  'aria-invalid'?: boolean | undefined
  'aria-describedby'?: string | undefined
  'aria-required'?: boolean | undefined
}

/** A text box that keeps what is typed and hands it over on change (blur or Enter), not on every key. */
export function TextInput(props: {
  common: InputCommon
  value: string
  onCommit: (raw: string) => void
  multiline?: boolean
  type?: 'text' | 'number'
  min?: number | undefined
  max?: number | undefined
  step?: number | string
  maxLength?: number | undefined
  inputMode?: 'url' | undefined
  title?: string | undefined
}) {
  const [draft, setDraft] = useState(props.value)
  const sent = useRef<string | null>(null)
  const id = props.common.id
  useEffect(() => {
    setDraft(props.value)
    sent.current = null
    setUnsaved(id, null)
  }, [props.value])
  useEffect(() => () => setUnsaved(id, null), [])
  // Enter and the change event that follows on blur hand over the same text once.
  const commit = (raw: string) => {
    setUnsaved(id, null)
    if (raw === props.value || raw === sent.current) return
    sent.current = raw
    props.onCommit(raw)
  }
  const typed = (raw: string) => {
    setDraft(raw)
    setUnsaved(id, raw === props.value ? null : { label: labelOf(id), save: () => commit(raw) })
  }
  if (props.multiline) {
    return (
      <textarea
        {...props.common}
        rows={4}
        value={draft}
        onInput={(e) => typed(e.currentTarget.value)}
        onChange={(e) => commit(e.currentTarget.value)}
      />
    )
  }
  const attrs = {
    ...props.common,
    value: draft,
    min: props.min,
    max: props.max,
    step: props.step,
    inputMode: props.inputMode,
    title: props.title,
    onInput: (e: { currentTarget: HTMLInputElement }) => typed(e.currentTarget.value),
    onChange: (e: { currentTarget: HTMLInputElement }) => commit(e.currentTarget.value),
    onKeyDown: (e: KeyboardEvent & { currentTarget: HTMLInputElement }) => {
      if (e.key === 'Enter') commit(e.currentTarget.value)
    },
  }
  return props.type === 'number' ? <input type="number" {...attrs} /> : <input type="text" {...attrs} />
}

/** A setting made of several inputs (an image, a nested object): a fieldset with its legend. */
function Group(props: {
  label: string
  required: boolean
  help: string | undefined
  error: string | undefined
  children: preact.ComponentChildren
}) {
  return (
    <fieldset class={`group${props.error ? ' has-error' : ''}`}>
      <legend>
        {props.label}
        {props.required ? (
          <span class="req" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </legend>
      {props.help ? <p class="help">{props.help}</p> : null}
      {props.error ? <p class="error">{props.error}</p> : null}
      {props.children}
    </fieldset>
  )
}
