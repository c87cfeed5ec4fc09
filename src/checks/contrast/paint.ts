// Which colours the storefront's stylesheet (src/render/stylesheet.css) paints where: for text,
// its colour, the background behind it, opacity and size; for form controls, their border; in the
// stylesheet's own selectors. Every focusable element also gets the focus outline (:focus-visible).
// Colours are palette roles (src/theme/palette.ts) or the stylesheet's fixed colours. Later rules
// win, as in the stylesheet's cascade (more specific selectors are listed after the general
// ones). Only what changes a text's colour, background, opacity, size or visibility is here; the
// browser agreement test (test/checks/axe-agreement.e2e.test.ts) holds this model to Chromium.
import type { Palette } from '../../theme/palette.ts'
import { selector, type Selector } from '../html.ts'

export type Paint = keyof Palette | `#${string}`
/** A background a colour cannot describe: the hero's gradient (primary to heroEnd), or an image. */
export type Backdrop = Paint | { gradient: readonly [Paint, Paint] } | 'image'

type Rule = {
  sel: Selector
  color?: Paint
  background?: Backdrop
  opacity?: number
  /** 24 px and more (or bold 18.66 px) at every width: 3:1 suffices. */
  large?: boolean
  /** Not shown (closed details, menus shown on hover, off-screen helpers). */
  hidden?: true
  /** What a merchant calls it, for messages. */
  name?: string
  /** The focus outline's colour inside (stylesheet: :focus-visible and its dark-ground overrides). */
  focus?: Paint
  /** A form control: the colour of the border that shows where it is (WCAG 1.4.11, 3:1). */
  control?: { border: Paint; name: string }
}

const rule = (css: string, props: Omit<Rule, 'sel'>): Rule => ({ sel: selector(css), ...props })

export const PAINT: readonly Rule[] = [
  rule('body', { color: 'text', background: 'bg', name: 'Text', focus: 'focus' }),
  rule('.visually-hidden, .skip-link, .submenu, details:not([open]) > :not(summary), option, svg', { hidden: true }),
  // Inactive controls are exempt from WCAG 1.4.3 (a sold-out product's button and sizes).
  rule('button[disabled], .variant-option input[disabled] + span', { hidden: true }),
  rule('h1, h2', { large: true, name: 'Heading' }),
  rule('.card-title, .product-description h2, .preset-minimal .section-head h2', { large: false }),
  rule('.preset-minimal .section-title-center h2', { large: false }),
  rule('.preview-banner', { background: '#111318', color: '#f5f5f5', name: 'Preview banner' }),
  rule('.preview-banner strong', { color: '#ffd166' }),
  rule('.preview-banner .preview-pill', { background: '#ffd166', color: '#111318' }),
  rule('.preview-notes', { background: '#fff7e0', color: '#5c4400' }),
  rule('.scheme-primary', { background: 'primary', color: 'onPrimary', name: 'Announcement bar text' }),
  rule('.scheme-secondary', { background: 'secondary', color: 'onSecondary', name: 'Announcement bar text' }),
  rule('.scheme-contrast', { background: 'text', color: 'bg', name: 'Announcement bar text' }),
  rule('.site-header', { background: 'bg' }),
  rule('.nav-desktop a[aria-current="page"]', {
    background: 'surface',
    color: 'primaryInk',
    name: 'Current menu entry',
  }),
  rule('.header-cod', { background: 'tint', color: 'primaryInk', name: 'Cash-on-delivery note in the header' }),
  rule('.section-head .link-more', { color: 'primaryInk', name: 'Link' }),
  rule('.tinted', { background: 'surface' }),
  rule('.btn', { background: 'primary', color: 'onPrimary', large: false, name: 'Button text' }),
  rule('.btn-outline', { background: 'bg', color: 'primaryInk', name: 'Outline button text' }),
  rule('.tinted .btn-outline', { background: 'surface' }),
  rule('.hero', {
    background: { gradient: ['primary', 'heroEnd'] },
    color: 'onPrimary',
    name: 'Hero text',
    focus: 'onPrimary',
  }),
  rule('.hero.has-image, .banner', {
    background: 'image',
    color: '#ffffff',
    name: 'Text over the image',
    focus: '#ffffff',
  }),
  rule('.hero p', { opacity: 0.92 }),
  rule('.on-dark .btn', { background: 'secondary', color: 'onSecondary', name: 'Button text' }),
  rule('.on-dark .btn-outline', { background: 'image', color: '#ffffff', name: 'Outline button text' }),
  rule('.hero:not(.has-image) .btn-outline', { background: { gradient: ['primary', 'heroEnd'] } }),
  rule('.card-vendor, .price .was, .product-vendor, .breadcrumbs, .listing-head p', { color: 'muted' }),
  rule('.listing-tools label, .result-count, .quote .role, .gallery figcaption, .article-meta', { color: 'muted' }),
  rule('.listing-tools label.check', { color: 'text' }),
  rule('.badge', { background: 'secondary', color: 'onSecondary', name: '“Sale” badge' }),
  rule('.badge.sold-out', { background: 'text', color: 'bg', name: '“Sold out” badge' }),
  rule('.collection-card, .gallery-count', { background: 'image', color: '#ffffff' }),
  rule('.collection-card .count', { opacity: 0.9 }),
  rule('.prose a', { color: 'primaryInk', name: 'Link' }),
  rule('.prose blockquote', { color: 'muted' }),
  rule('.prose code', { background: 'surface' }),
  rule('.product-price .save', { background: 'tint', color: 'primaryInk', name: '“Save” badge' }),
  rule('.cod-box', { background: 'surface' }),
  rule('.tinted .cod-box', { background: 'bg' }),
  rule('.cod-box p', { color: 'muted' }),
  rule('.variant-option span', { background: 'bg' }),
  rule('.variant-option input[checked] + span', { background: 'text', color: 'bg' }),
  rule('.pagination [aria-current="page"]', { background: 'text', color: 'bg' }),
  rule('.empty', { background: 'surface', color: 'muted' }),
  rule('.quote, .faq-list details', { background: 'bg' }),
  rule('.newsletter, .notice', { background: 'tint' }),
  rule('.newsletter p', { color: 'muted' }),
  rule('.sample-note', { background: 'surface' }),
  rule('.not-found .code', { color: 'tintStrong' }),
  rule('.variant-option span', { control: { border: 'control', name: 'Border of an option (size, colour)' } }),
  rule('.qty input, .listing-tools select, .listing-tools input[type="number"], .newsletter input[type="email"]', {
    control: { border: 'control', name: 'Border of a form field' },
  }),
  rule('.site-footer', { background: 'footerBg', color: 'footerText', name: 'Footer text', focus: 'footerText' }),
  rule('.site-footer h2', { large: false }),
  rule('.site-footer p', { opacity: 0.82 }),
  rule('.site-footer a', { opacity: 0.9 }),
  rule('.footer-bottom', { opacity: 0.75 }),
]
