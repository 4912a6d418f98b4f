import {
  blobForkAt,
  blobScheduleOf,
  DEVNET_BLOB_SCHEDULE,
  GAS_PER_BLOB,
  MIN_BASE_FEE_PER_BLOB_GAS,
  type BlobFork,
  type BlobSchedule,
} from '../chain-rules/blob-schedule'
import type { ChainFeePolicy } from '../chain-rules/chain-policy'
import { BlobFeeMarketUnsupportedError, UpstreamBadResponseError } from '../contract/errors'
import { blobBaseFeeAt, maxExcessFor } from './blob-price'
import { LEVEL_SETTINGS, levelHorizon } from './estimator'
import { blobCapFor, blobForecast, calcExcessBlobGas, type BlobForecastHorizon, type BlobForecastInput } from './blob-forecast'
import type { FeeWindow, Urgency } from '../types'

/**
 * Blob fees (EIP-4844) from the window already read: the node's next blob base fee, the forecast, and per level
 * a cap sized by the forecast within the highest the protocol allows over the level's blocks. Integer wei. Pure.
 */

export { blobBaseFeeAt, fakeExponential, maxExcessFor } from './blob-price'

/** How far ahead a fork's activation counts for a cap: this many times the horizon's blocks (missed slots delay blocks). */
const FORK_LOOKAHEAD_FACTOR = 2

export type BlobCapInput = {
  /** The next block's blob base fee as the node reports it, wei (≥ 1). */
  nextBlobBaseFee: bigint
  schedule: BlobSchedule
  /** The head block's timestamp, unix seconds: its fork is the one active (as the node prices the next block). */
  headTimestamp: number
  /** The chain's measured block interval, ms. */
  blockIntervalMs: number
}

/**
 * The highest blob base fee of blocks head+1 … head+`blocks` (wei): the largest rise from the next one, at most
 * (max − target) × GAS_PER_BLOB of excess a block (EIP-4844 calc_excess_blob_gas; EIP-7918 and go-ethereum
 * calcExcessBlobGas keep the per-block maximum increase unchanged).
 */
export function maxBlobBaseFee(input: BlobCapInput, blocks: number): bigint {
  const { nextBlobBaseFee: next, schedule, headTimestamp, blockIntervalMs } = input
  const active = blobForkAt(schedule, headTimestamp)
  if (!active) throw new RangeError(`maxBlobBaseFee: no blob fork is active at ${headTimestamp}`)
  const lookahead = Math.ceil((FORK_LOOKAHEAD_FACTOR * blocks * Math.max(0, blockIntervalMs)) / 1000)
  const coming = schedule.filter((f) => f.activatesAt > headTimestamp && f.activatesAt <= headTimestamp + lookahead)
  const forks: BlobFork[] = [active, ...coming]
  const maxBlobs = Math.max(...forks.map((f) => f.params.max))
  const minTarget = Math.min(...forks.map((f) => f.params.target))
  const fraction = forks.map((f) => f.params.updateFraction).reduce((a, b) => (b < a ? b : a))
  const step = BigInt(Math.max(0, maxBlobs - minTarget)) * GAS_PER_BLOB
  const slack = coming.length > 0 ? BigInt(active.params.target) * GAS_PER_BLOB : 0n
  const excess = maxExcessFor(next, active.params.updateFraction) + slack + BigInt(Math.max(0, blocks - 1)) * step
  const fee = blobBaseFeeAt(excess, fraction)
  return fee > next ? fee : next
}

/** Each level's protocol bound (wei): the highest blob base fee over its levelHorizon, never less than a slower level's. blobLevelCaps sizes the served caps within it. */
export function blobFeeCaps(input: BlobCapInput): Record<Urgency, bigint> {
  return ascendingLevels(input.nextBlobBaseFee, (level) => maxBlobBaseFee(input, levelHorizon(level, input.blockIntervalMs)))
}

/** Each level's cap, raised to the next blob base fee and to any slower level's: low ≤ medium ≤ high. */
function ascendingLevels(next: bigint, capOf: (level: Urgency) => bigint): Record<Urgency, bigint> {
  const out = {} as Record<Urgency, bigint>
  let floor = next
  for (const level of ['low', 'medium', 'high'] as const) {
    const cap = capOf(level)
    out[level] = cap > floor ? cap : floor
    floor = out[level]
  }
  return out
}

/**
 * Each level's maxFeePerBlobGas (wei): the blob base fee every block of its levelHorizon stays under with the
 * level's promise (blobCapFor), never above the protocol's bound (blobFeeCaps, which is the cap where the window is
 * too short to size one), never below a slower level's.
 */
export function blobLevelCaps(forecastInput: BlobForecastInput, capInput: BlobCapInput): Record<Urgency, bigint> {
  const bounds = blobFeeCaps(capInput)
  return ascendingLevels(capInput.nextBlobBaseFee, (level) => {
    const sized = blobCapFor(forecastInput, levelHorizon(level, capInput.blockIntervalMs), LEVEL_SETTINGS[level].targetInclusion)
    return sized !== null && sized < bounds[level] ? sized : bounds[level]
  })
}

/** A window's blob fields, when its node reported them with a blob base fee (≥ 1 wei: EIP-4844's minimum) for the next block. */
function reportsBlobs(window: FeeWindow): boolean {
  return (
    window.nextBaseFeePerBlobGas !== undefined &&
    window.blobGasUsedRatio !== undefined &&
    BigInt(window.nextBaseFeePerBlobGas) >= MIN_BASE_FEE_PER_BLOB_GAS
  )
}

/** Blob fees of one window, in wei: what GET blobFees formats. */
export type BlobFees = {
  nextBlobBaseFee: bigint
  levels: Record<Urgency, bigint>
  /** The blob base fee forecast for blocks head + 1 … head + 10 ('bound': the history is too short). */
  forecast: { horizons: BlobForecastHorizon[]; method: 'window' | 'bound' }
  blobGasUsedRatio: number[]
  /** The blob target and maximum of the fork active at the head, blobs per block. */
  fork: BlobFork
}

/**
 * The blob fees of a window, or why there are none; a chain no table names has blobs when its node reports them.
 * @throws BlobFeeMarketUnsupportedError (no blobs), UpstreamBadResponseError (a chain with blobs whose node reports none)
 */
export function blobFeesOf(window: FeeWindow, family?: ChainFeePolicy['family']): BlobFees {
  const known = blobScheduleOf(window.chainId, family)
  if (known === null || window.legacy) throw new BlobFeeMarketUnsupportedError(window.chainId)
  const schedule = known === 'unknown' ? DEVNET_BLOB_SCHEDULE : known
  const fork = blobForkAt(schedule, window.headTimestamp)
  if (!fork) throw new BlobFeeMarketUnsupportedError(window.chainId)
  if (!reportsBlobs(window)) {
    if (known === 'unknown') throw new BlobFeeMarketUnsupportedError(window.chainId)
    throw new UpstreamBadResponseError(
      `The upstream node's eth_feeHistory has no blob base fee for chain ${window.chainId}, which carries blobs.`,
    )
  }
  const nextBlobBaseFee = BigInt(window.nextBaseFeePerBlobGas ?? 0)
  const input = { nextBlobBaseFee, schedule, headTimestamp: window.headTimestamp, blockIntervalMs: window.blockIntervalMs }
  const forecastInput = blobForecastInputOf(window, schedule, nextBlobBaseFee)
  const levels = blobLevelCaps(forecastInput, input)
  return { nextBlobBaseFee, levels, forecast: blobForecast(forecastInput), blobGasUsedRatio: window.blobGasUsedRatio ?? [], fork }
}

/**
 * What the blob forecast needs of a window: the next block's excess blob gas (exact from the head's header when
 * it gives the node's next blob base fee, else the most that fee allows), each block's blob count (its blob gas
 * used ratio × the maximum of the fork at its time), and the execution base fees, the window's and the next.
 */
export function blobForecastInputOf(window: FeeWindow, schedule: BlobSchedule, nextBlobBaseFee: bigint): BlobForecastInput {
  const t = window.headTimestamp
  const fork = (ts: number) => blobForkAt(schedule, ts) ?? blobForkAt(schedule, t)!
  const nextFork = fork(t + Math.round(window.blockIntervalMs / 1000))
  const headBaseFee = BigInt(window.baseFeePerGas.at(-1) ?? '0')
  let nextExcess: bigint | undefined
  if (window.headExcessBlobGas !== undefined && window.headBlobGasUsed !== undefined) {
    const exact = calcExcessBlobGas(nextFork, BigInt(window.headExcessBlobGas), BigInt(window.headBlobGasUsed), headBaseFee)
    if (blobBaseFeeAt(exact, nextFork.params.updateFraction) === nextBlobBaseFee) nextExcess = exact
  }
  const ratios = window.blobGasUsedRatio ?? []
  const n = ratios.length
  const blobCounts = ratios.map((r, i) => Math.round(r * fork(t - Math.round(((n - 1 - i) * window.blockIntervalMs) / 1000)).params.max))
  return {
    nextExcess: nextExcess ?? maxExcessFor(nextBlobBaseFee, nextFork.params.updateFraction),
    blobCounts,
    schedule,
    headTimestamp: t,
    blockIntervalMs: window.blockIntervalMs,
    baseFee: BigInt(window.nextBaseFeePerGas),
    baseFees: window.baseFeePerGas.map(BigInt),
  }
}
