import 'server-only'
/** The confidence answers of a window (GET /gasprices/…, lib/blocknative): prices per confidence level, forecasts, in wei. */
import { BlobFeeMarketUnsupportedError } from '../core/contract/errors'
import type { ConfidencePrice } from '../core/fee-math/confidence'
import { windowConfidencePrices } from '../core/fee-math/chain-levels'
import { forecastBaseFee } from '../core/fee-math/forecast'
import { toFeeData } from '../core/fee-math/fee-data'
import { windowPolicy } from '../core/fee-math/window-policy'
import { perWindow, servedWindow, type ReportMeta } from './served-window'
import { blobsOf } from './reports'

/** The highest confidence level: the ladder of every window is made up to it, once. */
const TOP_CONFIDENCE = 99

/**
 * Per window, what the confidence answers are made of, in wei: each level 1…99 of the levels' model with a
 * one-block wait (lib/core/fee-math/confidence.ts), the base-fee forecast's and the blob forecast's quantiles,
 * and what the service read of the head. Made once per window, whatever levels a request asks.
 */
const confidenceOf = perWindow('confidence-report', (window, policy) => {
  const data = toFeeData(window)
  const live = windowPolicy(policy, window)
  const ladder = windowConfidencePrices(
    window,
    policy,
    Array.from({ length: TOP_CONFIDENCE }, (_, i) => i + 1),
  )
  const forecast = forecastBaseFee(data.baseFees, data.nextBaseFee, live)
  const blob = blobsOf(window, policy)
  // a chain without blobs has no blob fields; a chain with blobs whose node reports none, GET blobFees' error
  if ('error' in blob && !(blob.error instanceof BlobFeeMarketUnsupportedError)) return { error: blob.error }
  const blobs = 'fees' in blob ? blob.fees : null
  return {
    ladder,
    baseFeeForecast: forecast.horizons.map((h) => ({ blocks: h.blocks, p50: h.p50, p99: h.p99 })),
    blob: blobs && {
      nextBlobBaseFee: blobs.nextBlobBaseFee,
      forecast: blobs.forecast.horizons.map((h) => ({ blocks: h.blocks, p50: h.p50, p99: h.p99 })),
    },
    maxPrice: highestPricePaid(data.baseFees, data.rewards, data.rewardPercentiles) ?? data.nextBaseFee,
  }
})

/**
 * The highest effective gas price (wei) the newest block with tip data paid: its base fee plus its 100th-percentile
 * reward; null when no block of the window has one.
 */
function highestPricePaid(baseFees: readonly bigint[], rewards: readonly bigint[][], percentiles: readonly number[]): bigint | null {
  const column = percentiles.indexOf(100)
  if (column < 0) return null
  for (let i = rewards.length - 1; i >= 0; i--) {
    const top = rewards[i]?.[column]
    if (top !== undefined && baseFees[i] !== undefined) return baseFees[i]! + top
  }
  return null
}

/** One window's confidence answers (wei) and what a response needs of it. */
export type ConfidenceReport = {
  meta: ReportMeta
  /** The next block's base fee (head + 1): suggestedGasFees' estimatedBaseFee. */
  nextBaseFee: bigint
  /** Each asked level, in the order asked. */
  prices: ConfidencePrice[]
  /** The base fee of blocks head + 1 … head + 10: p50 and p99 of the forecast (GET baseFeeForecast). */
  baseFeeForecast: { blocks: number; p50: bigint; p99: bigint }[]
  /** Where the chain has blobs: the next blob base fee and its forecast (GET blobFees). */
  blob: { nextBlobBaseFee: bigint; forecast: { blocks: number; p50: bigint; p99: bigint }[] } | null
  /** How many transactions the head block holds, where the node said. */
  headTransactionCount: number | null
  /** The highest effective gas price the newest block with tip data paid (else the next base fee). */
  maxPrice: bigint
}

/**
 * The confidence answers of a supported EIP-1559 chain (GET /gasprices/…), from the same window as every endpoint.
 * @param confidences integers in 1…99 (percent), answered in this order
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, UpstreamUnavailableError, UpstreamBadResponseError (also a
 *   chain with blobs whose node reports none, as GET blobFees)
 */
export async function getConfidenceReport(chainId: number, confidences: readonly number[]): Promise<ConfidenceReport> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: true })
  const made = confidenceOf(window, policy)
  if ('error' in made) throw made.error
  return {
    meta,
    nextBaseFee: BigInt(window.nextBaseFeePerGas),
    prices: confidences.map((c) => {
      const price = made.ladder[c - 1]
      if (!price) throw new RangeError(`confidence ${c} is not an integer in 1…${TOP_CONFIDENCE}`)
      return price
    }),
    baseFeeForecast: made.baseFeeForecast,
    blob: made.blob,
    headTransactionCount: window.headTransactionCount ?? null,
    maxPrice: made.maxPrice,
  }
}
