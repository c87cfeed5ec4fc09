import { isCursorError, type Page } from '../queries/pagination.ts'
import type { Outcome } from './operation.ts'
import { jsonOutcome } from './results.ts'

// A list as the contract shapes it: { data: { <resource>: [...] }, pagination }.
export async function paged<T>(resource: string, load: () => Promise<Page<T>>): Promise<Outcome<Record<string, T[]>>> {
  try {
    const page = await load()
    return { ok: true, data: { [resource]: page.items }, pagination: page.pagination }
  } catch (error) {
    return cursorRefusal(error)
  }
}

// The same list when the read returns each item as JSON text: the envelope is joined, not re-serialised.
export async function pagedJson<T>(
  resource: string,
  load: () => Promise<Page<string>>,
): Promise<Outcome<Record<string, T[]>>> {
  try {
    const page = await load()
    return jsonOutcome(`{${JSON.stringify(resource)}:[${page.items.join(',')}]}`, { pagination: page.pagination })
  } catch (error) {
    return cursorRefusal(error)
  }
}

function cursorRefusal(error: unknown): Outcome<never> {
  if (isCursorError(error))
    return {
      ok: false,
      error: {
        code: 'INVALID_CURSOR',
        message: error.message,
        details: { reason: error.reason, issues: [{ path: 'cursor', code: 'INVALID_CURSOR', message: error.message }] },
      },
    }
  throw error
}
