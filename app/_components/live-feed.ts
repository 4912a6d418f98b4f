import { ErrorBodySchema } from '@/lib/core/contract/schemas'
import { ApiError } from './api-client'
import { DEFAULT_BLOCK_INTERVAL_MS, parseFeesEvent, type ChainData } from './chain-data'

/** What the feed needs of an EventSource (the browser's, or a fake in the unit tests). */
export type EventSourceLike = {
  readonly readyState: number
  addEventListener(type: string, listener: (event: Event) => void): void
  close(): void
}

/** EventSource.CLOSED: the browser gave up on the stream (a non-200 answer, or not an event stream). */
const CLOSED = 2

/** While polling, how long before the stream is tried again, ms. */
export const STREAM_RETRY_MS = 30_000

/** Connection errors in a row, with no open between them, after which the stream counts as down. */
const STREAM_ERRORS_BEFORE_FALLBACK = 2

export type LiveFeedDeps = {
  /** Opens the chain's event stream (new EventSource(url) in the browser). */
  openStream: (url: string) => EventSourceLike
  /** Reads the five fee endpoints, all of one block (loadChain). */
  load: (chainId: number) => Promise<ChainData>
  /** ms since the epoch */
  now: () => number
}

type Next = (error: unknown, data?: ChainData) => void

const clamp = (ms: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, ms))

/** The JSON error body of an `event: error` as an ApiError (a body of another shape is one too). */
function streamErrorOf(data: unknown): ApiError {
  let json: unknown = null
  try {
    json = typeof data === 'string' ? JSON.parse(data) : null
  } catch {
    // handled below: not the error body
  }
  const body = ErrorBodySchema.safeParse(json)
  return body.success
    ? new ApiError(body.data.statusCode, body.data.message)
    : new ApiError(0, 'The stream sent an error of an unexpected shape.')
}

/**
 * A chain's live numbers for useSWRSubscription: the stream's `fees` events, else polling about once per block and
 * retrying the stream every STREAM_RETRY_MS. An `event: error` (the upstream failing) is reported, not polled
 * around: polling would read the same upstream. Returns the unsubscribe function.
 */
export function subscribeChainFeed(chainId: number, next: Next, deps: LiveFeedDeps): () => void {
  let ended = false
  let source: EventSourceLike | undefined
  let failures = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let pollTimer: ReturnType<typeof setTimeout> | undefined
  /** The polling loop running (its generation), or 0: a stopped loop's late answer is dropped. */
  let polling = 0
  let generation = 0
  // the stream does not say the block interval: the last one the service told (a polled answer's header)
  let intervalMs = DEFAULT_BLOCK_INTERVAL_MS

  // the block shown, and when its data arrived: the same block again (marked stale now) keeps its age counting
  let shown: ChainData['freshness'] | undefined
  function show(data: ChainData): void {
    const same = shown?.blockNumber === data.freshness.blockNumber
    const freshness = same ? { ...data.freshness, receivedAt: shown!.receivedAt, ageAtFetch: shown!.ageAtFetch } : data.freshness
    shown = freshness
    next(null, same ? { ...data, freshness } : data)
  }

  function openStream(): void {
    retryTimer = undefined
    if (ended) return
    const es = deps.openStream(`/networks/${chainId}/stream`)
    source = es
    failures = 0
    es.addEventListener('open', () => {
      if (source === es) failures = 0
    })
    es.addEventListener('fees', (event) => {
      if (source !== es) return
      stopPolling()
      const data = parseFeesEvent((event as MessageEvent).data as string, intervalMs, deps.now())
      if (data instanceof ApiError) next(data)
      else show(data)
    })
    es.addEventListener('error', (event) => {
      if (source !== es) return
      // the server's `event: error` and the EventSource's own connection error share the name:
      // only the server's carries data
      if (typeof (event as MessageEvent).data === 'string') {
        stopPolling()
        next(streamErrorOf((event as MessageEvent).data))
        return
      }
      failures++
      if (es.readyState === CLOSED || failures >= STREAM_ERRORS_BEFORE_FALLBACK) fallBack(es)
    })
  }

  function fallBack(es: EventSourceLike): void {
    es.close()
    source = undefined
    startPolling()
    retryTimer = setTimeout(openStream, STREAM_RETRY_MS)
  }

  function startPolling(): void {
    if (polling) return
    polling = ++generation
    void poll(polling)
  }

  function stopPolling(): void {
    polling = 0
    if (pollTimer) clearTimeout(pollTimer)
    pollTimer = undefined
  }

  async function poll(loop: number): Promise<void> {
    pollTimer = undefined
    let delay: number
    try {
      const data = await deps.load(chainId)
      if (polling !== loop) return
      intervalMs = data.freshness.blockIntervalMs
      show(data)
      delay = clamp(intervalMs, 1_000, 60_000)
    } catch (err) {
      if (polling !== loop) return
      next(err)
      // retrying cannot help a 400 or 401; otherwise after Retry-After or 2 s, whichever is longer (30 s at most)
      if (err instanceof ApiError && (err.status === 400 || err.status === 401)) return
      delay = clamp(err instanceof ApiError && err.retryAfterSeconds ? err.retryAfterSeconds * 1000 : 0, 2_000, 30_000)
    }
    pollTimer = setTimeout(() => void poll(loop), delay)
  }

  openStream()
  return () => {
    ended = true
    source?.close()
    source = undefined
    stopPolling()
    if (retryTimer) clearTimeout(retryTimer)
  }
}
