// The one way a time is written for the merchant, on every dashboard page and in the editor: in
// the store's time zone when the store has one, else in UTC, always labelled with the zone
// ("26 Nov 2026, 11:32 Paris time", "26 Nov 2026, 10:32 UTC"), so two pages never disagree.
// The editor's browser code gets the written form from the server, never its own locale.

const formats = new Map<string, Intl.DateTimeFormat>()

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formats.set(zone, f)
  }
  return f
}

// A zone the runtime knows, or null (a missing or misspelt zone falls back to UTC).
export function knownZone(zone: string | null | undefined): string | null {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return null
  try {
    formatFor(zone)
    return zone
  } catch {
    return null
  }
}

// "Europe/Paris" → "Paris time"; "America/Argentina/Buenos_Aires" → "Buenos Aires time".
export const zoneLabel = (zone: string | null) => (zone ? `${zone.split('/').at(-1)!.replace(/_/g, ' ')} time` : 'UTC')

export function formatTime(at: Date | string, zone: string | null): string {
  const date = new Date(at)
  const z = knownZone(zone)
  return `${formatFor(z ?? 'UTC').format(date)} ${zoneLabel(z)}`
}

// The calendar day (YYYY-MM-DD) of an instant in the zone: the activity filters' days.
export function dayIn(at: Date | string, zone: string | null): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: knownZone(zone) ?? 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(at))
  const get = (type: string) => parts.find((p) => p.type === type)!.value
  return `${get('year')}-${get('month')}-${get('day')}`
}

// The instant a calendar day (YYYY-MM-DD) starts in the zone: a day filter means the store's day.
export function startOfDay(day: string, zone: string | null): Date {
  const z = knownZone(zone)
  const guess = Date.parse(`${day}T00:00:00Z`)
  if (!z) return new Date(guess)
  // The zone's offset at the guess, then at the corrected instant (a change of offset that day).
  let at = guess
  for (let i = 0; i < 2; i++) at = guess - offsetAt(at, z)
  return new Date(at)
}

// How far the zone's wall clock is ahead of UTC at an instant, in milliseconds.
function offsetAt(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at))
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value)
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return wall - Math.floor(at / 1000) * 1000
}
