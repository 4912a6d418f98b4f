import {
  BaseFeeForecastSchema,
  BlobFeesSchema,
  type BlobFeesBody,
  BaseFeeHistorySchema,
  BaseFeePercentileSchema,
  BusyThresholdSchema,
  FeesEventSchema,
  SuggestedGasFeesSchema,
  type BaseFeeForecastBody,
  type SuggestedGasFees,
} from '@/lib/core/contract/schemas'
import { ApiError, fetchApi, type Freshness } from './api-client'

/** One block's numbers of a chain, as the page shows them: the five fee endpoints' bodies for the same block. */
export type ChainData = {
  fees: SuggestedGasFees
  p50: string
  busy: string
  history: string[]
  /** The base fee of the next blocks (GET baseFeeForecast). */
  forecast: BaseFeeForecastBody
  freshness: Freshness
  /** How the page got them: the stream, or polling the five endpoints while the stream is down. */
  source: 'stream' | 'polling'
  /** The blob fees of the same block, on a chain with blobs (the stream's `blobFees`, GET blobFees). */
  blobFees?: BlobFeesBody
}

/** The block interval assumed until the service says (ms). */
export const DEFAULT_BLOCK_INTERVAL_MS = 2_000

/**
 * The data of one `fees` event of the stream, validated with the server's own schema.
 * @param blockIntervalMs the chain's block interval as last learned (the stream does not send it), ms
 * @param receivedAt when the event arrived, ms since the epoch
 */
export function parseFeesEvent(data: string, blockIntervalMs: number, receivedAt: number): ChainData | ApiError {
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return new ApiError(0, 'The stream sent data that is not JSON.')
  }
  const parsed = FeesEventSchema.safeParse(json)
  if (!parsed.success) return new ApiError(0, 'The stream sent data of an unexpected shape.')
  const event = parsed.data
  return {
    fees: event.suggestedGasFees,
    p50: event.baseFeePercentile.baseFeePercentile,
    busy: event.busyThreshold.busyThreshold,
    history: event.baseFeeHistory,
    forecast: event.baseFeeForecast,
    // the event is sent when its block's window is taken: its age is the time in transit
    freshness: { blockNumber: event.blockNumber, ageAtFetch: 0, receivedAt, stale: event.stale, blockIntervalMs },
    source: 'stream',
    ...(event.blobFees ? { blobFees: event.blobFees } : {}),
  }
}

/** Per fetcher (the page's one), the chains whose GET blobFees answered 400 (no blobs there, or not yet: a chain before
 * its blob fork), and until when they are not asked again, ms since the epoch. */
const withoutBlobs = new WeakMap<typeof fetchApi, Map<number, number>>()
const NO_BLOBS_RECHECK_MS = 10 * 60_000

/**
 * GET blobFees of a chain, or undefined where there are none: a 400 (a chain without blobs, not asked again) or any
 * other failure, which leaves the rest of the view as it is (the blob panel is the only part missing).
 */
async function loadBlobFees(chainId: number, fetcher: typeof fetchApi) {
  const known = withoutBlobs.get(fetcher) ?? withoutBlobs.set(fetcher, new Map()).get(fetcher)!
  if ((known.get(chainId) ?? 0) > Date.now()) return undefined
  return fetcher(`/networks/${chainId}/blobFees`, BlobFeesSchema).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 400) known.set(chainId, Date.now() + NO_BLOBS_RECHECK_MS)
    return undefined
  })
}

/** Times loadChain reads the five endpoints again when their answers speak of different blocks. */
export const SAME_BLOCK_TRIES = 3

/**
 * The five fee endpoints of one chain, read in parallel over HTTP like any client would, and re-read (up to
 * SAME_BLOCK_TRIES times in all) while their x-block-number headers differ, so that every number shown comes
 * from one block.
 */
export async function loadChain(chainId: number, fetcher: typeof fetchApi = fetchApi): Promise<ChainData> {
  const base = `/networks/${chainId}`
  for (let attempt = 1; ; attempt++) {
    const blob = loadBlobFees(chainId, fetcher)
    const [fees, p50, busy, history, forecast] = await Promise.all([
      fetcher(`${base}/suggestedGasFees`, SuggestedGasFeesSchema),
      fetcher(`${base}/baseFeePercentile`, BaseFeePercentileSchema),
      fetcher(`${base}/busyThreshold`, BusyThresholdSchema),
      fetcher(`${base}/baseFeeHistory`, BaseFeeHistorySchema),
      fetcher(`${base}/baseFeeForecast`, BaseFeeForecastSchema),
    ])
    const block = fees.freshness.blockNumber
    const blobFees = await blob
    const same = [p50, busy, history, forecast, ...(blobFees ? [blobFees] : [])].every((r) => r.freshness.blockNumber === block)
    if (same)
      return {
        fees: fees.data,
        p50: p50.data.baseFeePercentile,
        busy: busy.data.busyThreshold,
        history: history.data,
        forecast: forecast.data,
        freshness: {
          ...fees.freshness,
          stale: [fees, p50, busy, history, forecast, ...(blobFees ? [blobFees] : [])].some((r) => r.freshness.stale),
        },
        source: 'polling',
        ...(blobFees ? { blobFees: blobFees.data } : {}),
      }
    if (attempt >= SAME_BLOCK_TRIES) throw new ApiError(0, `The service answered different blocks ${SAME_BLOCK_TRIES} times in a row.`)
  }
}
