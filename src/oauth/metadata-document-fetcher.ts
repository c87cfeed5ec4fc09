import { LRUCache } from 'lru-cache'
import pLimit from 'p-limit'
import type { Logger } from 'pino'
import { type FetchResult, fetchMetadataDocument, TIMEOUT_MS } from './metadata-document.ts'

// Anyone can name any https URL as a client_id, so what the service fetches for strangers is
// bounded per instance: a document that failed is not fetched again for 5 minutes, requests for
// a URL already being fetched wait for that fetch, at most 4 fetches run at a time, and a caller
// never waits past the one deadline (queueing included). Why a fetch failed goes to the log,
// not to the stranger (one message on the page: no probe of what answers where).

export const FAILURE_TTL_MS = 5 * 60_000
export const OUTBOUND_CONCURRENCY = 4

type Settings = Parameters<typeof fetchMetadataDocument>[1]
type Failure = Extract<FetchResult, { ok: false }>

export class MetadataDocumentFetcher {
  private readonly failures = new LRUCache<string, Failure>({ max: 10_000, ttl: FAILURE_TTL_MS })
  private readonly inFlight = new Map<string, Promise<FetchResult>>()
  private readonly limit = pLimit(OUTBOUND_CONCURRENCY)

  private readonly settings: Settings
  private readonly logger: Logger

  constructor(settings: Settings, logger: Logger) {
    this.settings = settings
    this.logger = logger
  }

  // False when the answer is already known or on its way: no new outbound request.
  wouldFetch(clientId: string): boolean {
    return !this.failures.has(clientId) && !this.inFlight.has(clientId)
  }

  fetch(clientId: string, validRedirect: (uri: string) => boolean): Promise<FetchResult> {
    const failed = this.failures.get(clientId)
    if (failed) return Promise.resolve(failed)
    const running = this.inFlight.get(clientId)
    if (running) return running
    const signal = AbortSignal.timeout(TIMEOUT_MS)
    const fetched = this.limit(() => fetchMetadataDocument(clientId, this.settings, validRedirect, signal)).then(
      (result) => {
        if (!result.ok) {
          this.failures.set(clientId, result)
          this.logger.warn({ clientId, reason: result.message }, 'client metadata document refused')
        }
        return result
      },
    )
    // Still queued at the deadline (4 slow fetches ahead): answered now, not remembered as the URL's fault.
    const queuedTooLong = new Promise<FetchResult>((resolve) =>
      signal.addEventListener(
        'abort',
        () => resolve({ ok: false, message: 'no outbound slot for the client metadata document before the deadline' }),
        { once: true },
      ),
    )
    const answer = Promise.race([fetched, queuedTooLong]).finally(() => this.inFlight.delete(clientId))
    this.inFlight.set(clientId, answer)
    return answer
  }
}
