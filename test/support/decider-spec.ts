import { type Decider, fold } from '../../src/aggregates/decider.ts'
import type { Result } from '../../src/aggregates/result.ts'

// Decider specs, as in Emmett's: given (the events so far), when (a command), then (the events it
// decides, or the refusal). Pure: no database, no clock. A failed expectation throws, which fails
// the tap test it runs in with the message below.

export type Then<R> = {
  // The decision succeeded; the events it appends, for further checks.
  thenDecides(): R
  // The decision succeeded with events of exactly these types, in this order.
  thenEmits(types: readonly string[]): R
  // The decision refused with this code; the refusal, for further checks.
  thenRefuses(code: string): { code: string; message: string; details?: Record<string, unknown> | undefined }
}

const typesOf = (value: unknown) =>
  Array.isArray(value) ? value.map((e: { type: string }) => e.type).join(', ') : JSON.stringify(value)

export function then<R>(result: Result<R>): Then<R> {
  return {
    thenDecides() {
      if (!result.ok) throw new Error(`expected a decision, got ${result.error.code}: ${result.error.message}`)
      return result.value
    },
    thenEmits(types) {
      const value = this.thenDecides()
      const got = typesOf(value)
      if (got !== types.join(', ')) throw new Error(`expected [${types.join(', ')}], got [${got}]`)
      return value
    },
    thenRefuses(code) {
      if (result.ok) throw new Error(`expected ${code}, got [${typesOf(result.value)}]`)
      if (result.error.code !== code)
        throw new Error(`expected ${code}, got ${result.error.code}: ${result.error.message}`)
      return result.error
    },
  }
}

// The spec of one aggregate's decider, with the context its decisions usually get.
export function deciderSpec<C, S, E, X>(decider: Decider<C, S, E, X>, context: X) {
  return {
    given(events: readonly E[]) {
      const state = fold(decider, events)
      return {
        state,
        when: (command: C, overrides: Partial<X> = {}) =>
          then(decider.decide(command, state, { ...context, ...overrides })),
      }
    },
  }
}

// The spec of a decision over several aggregates (publishing: the theme, the registry, the theme
// that was live): given each one's events, when the input, then the decision.
export function decisionSpec<S, I, R>(fold: (events: S) => (input: I) => Result<R>) {
  return {
    given: (events: S) => ({ when: (input: I) => then(fold(events)(input)) }),
  }
}
