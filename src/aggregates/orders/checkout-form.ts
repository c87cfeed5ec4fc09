// The storefront's checkout form: its fields, their labels and limits, and the rules a filled-in
// form must meet. One list, read by the decision (src/aggregates/orders/decider.ts) and by the
// page that renders the form (src/render/service-pages.ts). Pure.

export type CheckoutField = {
  key: CheckoutFieldKey
  label: string
  max: number
  // The browser's autofill hint (HTML autocomplete).
  autocomplete?: string
  type?: 'text' | 'tel' | 'email'
  // What the field is asked for, said to the shopper when it is missing.
  missing: string
}

export const CHECKOUT_FIELD_KEYS = [
  'fullName',
  'phone',
  'email',
  'address1',
  'address2',
  'city',
  'region',
  'postalCode',
  'country',
  'note',
] as const
export type CheckoutFieldKey = (typeof CHECKOUT_FIELD_KEYS)[number]

export const CHECKOUT_FIELDS: readonly CheckoutField[] = [
  { key: 'fullName', label: 'Full name', max: 100, autocomplete: 'name', missing: 'Enter your full name.' },
  {
    key: 'phone',
    label: 'Phone number',
    max: 30,
    autocomplete: 'tel',
    type: 'tel',
    missing: 'Enter a phone number: the store calls it to confirm the order.',
  },
  {
    key: 'email',
    label: 'Email',
    max: 200,
    autocomplete: 'email',
    type: 'email',
    missing: 'Enter your email address.',
  },
  {
    key: 'address1',
    label: 'Address',
    max: 200,
    autocomplete: 'address-line1',
    missing: 'Enter the street and number.',
  },
  {
    key: 'address2',
    label: 'Apartment, floor, building',
    max: 200,
    autocomplete: 'address-line2',
    missing: 'Enter the apartment, floor or building.',
  },
  { key: 'city', label: 'City', max: 100, autocomplete: 'address-level2', missing: 'Enter your city.' },
  { key: 'region', label: 'Region', max: 100, autocomplete: 'address-level1', missing: 'Enter your region.' },
  { key: 'postalCode', label: 'Postal code', max: 12, autocomplete: 'postal-code', missing: 'Enter your postal code.' },
  { key: 'country', label: 'Country', max: 2, autocomplete: 'country', missing: 'Choose your country.' },
  { key: 'note', label: 'Note for the store', max: 500, missing: 'Add a note.' },
]

export const checkoutField = (key: CheckoutFieldKey): CheckoutField => CHECKOUT_FIELDS.find((f) => f.key === key)!

// The form as submitted: every field a string ('' when left empty), and the chosen delivery rate.
export type CheckoutForm = Record<CheckoutFieldKey, string> & { rate: string }

export const emptyCheckoutForm = (): CheckoutForm => ({
  ...(Object.fromEntries(CHECKOUT_FIELD_KEYS.map((k) => [k, ''])) as Record<CheckoutFieldKey, string>),
  rate: '',
})

// A problem with one field (or `cart`, `rate`, `checkout`), in the shopper's words.
export type FieldIssue = { path: string; message: string }

// A courier cannot deliver without a name, a street and a city, whatever the configuration lists;
// a store that confirms by phone needs the number.
const ALWAYS_REQUIRED: readonly CheckoutFieldKey[] = ['fullName', 'address1', 'city']

export function requiredFields(configured: readonly string[], phoneConfirmation: boolean): Set<CheckoutFieldKey> {
  const required = new Set<CheckoutFieldKey>(ALWAYS_REQUIRED)
  for (const name of configured)
    if ((CHECKOUT_FIELD_KEYS as readonly string[]).includes(name)) required.add(name as CheckoutFieldKey)
  if (phoneConfirmation) required.add('phone')
  return required
}

const PHONE = /^\+?[0-9][0-9 ().-]*$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]*$/
// Control characters have no place in an address; the note may have line breaks.
const CONTROL = /[\u0000-\u001f\u007f]/
const CONTROL_IN_NOTE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

// The fields' own rules (presence, length, shape); the country and the delivery rate are the
// decision's, which knows the shipping zones.
export function formIssues(form: CheckoutForm, required: ReadonlySet<CheckoutFieldKey>): FieldIssue[] {
  const issues: FieldIssue[] = []
  for (const field of CHECKOUT_FIELDS) {
    if (field.key === 'country') continue
    const value = form[field.key]
    if (value === '') {
      if (required.has(field.key)) issues.push({ path: field.key, message: field.missing })
      continue
    }
    if ([...value].length > field.max) {
      issues.push({ path: field.key, message: `${field.label} is too long: at most ${field.max} characters.` })
      continue
    }
    if ((field.key === 'note' ? CONTROL_IN_NOTE : CONTROL).test(value)) {
      issues.push({ path: field.key, message: `${field.label} contains characters that cannot be printed.` })
      continue
    }
    if (field.key === 'phone' && (!PHONE.test(value) || value.replace(/[^0-9]/g, '').length < 6))
      issues.push({ path: 'phone', message: 'Enter a phone number with at least 6 digits, such as +33 6 12 34 56 78.' })
    if (field.key === 'email' && !EMAIL.test(value))
      issues.push({ path: 'email', message: 'Enter an email address such as name@example.com.' })
    if (field.key === 'postalCode' && !POSTAL_CODE.test(value))
      issues.push({ path: 'postalCode', message: 'Enter a postal code of letters and digits.' })
  }
  return issues
}
