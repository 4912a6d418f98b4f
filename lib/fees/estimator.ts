import { maxOf, median, percentileNearestRank, percentileRank, range } from './statistics'
import type { FeeData, LevelEstimate, Urgency } from './types'
import { mulDivCeil } from './units'

/**
 * Per-urgency settings (one row per level, as MetaMask's gas-fee-controller has them): the promised
 * wait in blocks of the chain's measured interval, and the share of transactions that should get in
 * within it. Everything else is derived from these.
 */
export const LEVEL_SETTINGS: Record<Urgency, { targetInclusion: number; minWaitBlocks: number; maxWaitBlocks: number }> = {
  low: { targetInclusion: 0.9, minWaitBlocks: 1, maxWaitBlocks: 6 },
  medium: { targetInclusion: 0.95, minWaitBlocks: 1, maxWaitBlocks: 3 },
  high: { targetInclusion: 0.99, minWaitBlocks: 1, maxWaitBlocks: 2 },
}

/**
 * A level's tip (wei): over every run of W consecutive recent blocks (W = the level's promised
 * wait), the cheapest demanded tip in the run is the best chance a transaction sent before it would
 * have had; the tip is the target-inclusion quantile (nearest rank) of those minima. A tip at the
 * p-quantile would have got in within W blocks for a share p of the recent starting points, with
 * no assumption that consecutive blocks are independent (they are not: demand comes in bursts).
 */
export function levelTip(demanded: readonly bigint[], level: Urgency): bigint {
  const { targetInclusion, maxWaitBlocks: w } = LEVEL_SETTINGS[level]
  if (demanded.length === 0) return 0n
  const minima: bigint[] = []
  const runs = Math.max(1, demanded.length - w + 1)
  for (let i = 0; i < runs; i++) {
    // runs ≤ demanded.length, so the run is never empty
    minima.push(demanded.slice(i, i + w).reduce((m, d) => (d < m ? d : m)))
  }
  return percentileNearestRank(minima, targetInclusion * 100)
}

/** Reward percentiles requested from eth_feeHistory: 10 for the tips, 0/100 for the ranges, 50 for the trend. */
export const REWARD_PERCENTILES = [0, 10, 50, 100] as const

/** How many recent blocks the tip estimate and the priority-fee trend look at. */
export const TIP_BLOCKS = 20
/** How many recent blocks the base-fee trend compares the next base fee with. */
export const TREND_BLOCKS = 10
/** A block this full (gasUsed / gasLimit) had no room left: its marginal tip was contested. */
export const FULL_BLOCK_RATIO = 0.95
/**
 * Per-block base fee rise assumed when the window holds no full block to observe the chain's own
 * maximum: 1/8, EIP-1559's BASE_FEE_MAX_CHANGE_DENOMINATOR.
 */
const DEFAULT_RISE_PPM = 125_000n
const PPM = 1_000_000n

/**
 * The largest per-block base fee rise to plan for (ppm). A full block shows the chain's maximum
 * rise (12.5% on mainnet, 2% on OP-stack chains), so with one in the window the largest rise
 * observed is used; otherwise the larger of that and 1/8. At most 100%.
 */
export function maxBaseFeeRisePpm(baseFees: readonly bigint[], nextBaseFee: bigint, gasUsedRatio: readonly number[] = []): bigint {
  const series = [...baseFees, nextBaseFee]
  let observed = 0n
  for (const [i, cur] of series.entries()) {
    const prev = series[i - 1]
    if (prev !== undefined && prev > 0n && cur > prev) {
      const rise = mulDivCeil(cur - prev, PPM, prev)
      if (rise > observed) observed = rise
    }
  }
  const sawFullBlock = gasUsedRatio.some((r) => r >= FULL_BLOCK_RATIO)
  const rise = sawFullBlock && observed > 0n ? observed : observed > DEFAULT_RISE_PPM ? observed : DEFAULT_RISE_PPM
  return rise > PPM ? PPM : rise
}

function rewardAt(data: FeeData, block: number, percentile: number): bigint {
  const column = data.rewardPercentiles.indexOf(percentile)
  if (column < 0) throw new RangeError(`reward percentile ${percentile} was not requested`)
  const reward = data.rewards[block]?.[column]
  if (reward === undefined) throw new RangeError(`no reward at percentile ${percentile} for block ${block} of the window`)
  return reward
}

/**
 * What block i would have demanded of a newcomer, as far as eth_feeHistory can tell: its
 * 10th-percentile tip (what a full block demands; from percentiles alone the next blocks' fullness
 * is unknown, so the stricter rule is planned for), 0 when it was empty. Wei.
 */
export function demandProxyAt(data: FeeData, i: number): bigint {
  return data.gasUsedRatio[i] === 0 ? 0n : rewardAt(data, i, 10)
}

/** Indices of the blocks that included transactions (gasUsedRatio > 0), most recent last. */
function nonEmptyBlocks(data: FeeData): number[] {
  const out: number[] = []
  data.gasUsedRatio.forEach((ratio, i) => {
    if (ratio > 0) out.push(i)
  })
  return out
}

function rewardsAt(data: FeeData, blocks: readonly number[], percentile: number): bigint[] {
  return blocks.map((i) => rewardAt(data, i, percentile))
}

/**
 * The three levels. Tip: levelTip over the last TIP_BLOCKS blocks' demanded tips. Max fee: the node's next base fee grown by the largest per-block rise for the rest of the
 * medium wait (so it still covers the base fee in the last block medium promises), plus the tip;
 * every level gets that cap, since a cap costs nothing unless the base fee really rises.
 * low ≤ medium ≤ high holds by construction.
 */
export function estimateLevels(data: FeeData): Record<Urgency, LevelEstimate> {
  const risePpm = maxBaseFeeRisePpm(data.baseFees, data.nextBaseFee, data.gasUsedRatio)
  let baseFeeCap = data.nextBaseFee
  for (let k = 1; k < LEVEL_SETTINGS.medium.maxWaitBlocks; k++) baseFeeCap = mulDivCeil(baseFeeCap, PPM + risePpm, PPM)
  const recent = data.gasUsedRatio.map((_, i) => i).slice(-TIP_BLOCKS)
  const demanded = recent.map((i) => demandProxyAt(data, i))
  const out = {} as Record<Urgency, LevelEstimate>
  let floorTip = 0n
  for (const level of ['low', 'medium', 'high'] as const) {
    const s = LEVEL_SETTINGS[level]
    const tip = maxOf(levelTip(demanded, level), floorTip)
    out[level] = {
      maxPriorityFeePerGas: tip,
      maxFeePerGas: baseFeeCap + tip,
      minWaitTimeMs: Math.round(data.blockIntervalMs * s.minWaitBlocks),
      maxWaitTimeMs: Math.round(data.blockIntervalMs * s.maxWaitBlocks),
    }
    floorTip = tip
  }
  return out
}

/** Base fee statistics of the window, in wei. */
export function baseFeeStats(data: FeeData) {
  return {
    /** 50th percentile (nearest-rank) of the window's base fees. */
    p50: percentileNearestRank(data.baseFees, 50),
    /** 90th percentile (nearest-rank): the busy threshold. */
    p90: percentileNearestRank(data.baseFees, 90),
    /** Fraction of the window's base fees at or below the next base fee. */
    congestion: percentileRank(data.baseFees, data.nextBaseFee),
    range: range(data.baseFees),
  }
}

/**
 * "up" when the next base fee is above the median base fee of the last TREND_BLOCKS blocks,
 * otherwise "down" (the spec allows only these two; a flat fee is not getting more expensive).
 */
export function baseFeeTrend(data: FeeData): 'up' | 'down' {
  const recent = data.baseFees.slice(-TREND_BLOCKS)
  return data.nextBaseFee > median(recent) ? 'up' : 'down'
}

/**
 * "up" when the median p50 tip of the last TIP_BLOCKS/2 non-empty blocks is above the median p50 tip
 * of the TIP_BLOCKS/2 non-empty blocks before them; otherwise (or with too few blocks) "down".
 */
export function priorityFeeTrend(data: FeeData): 'up' | 'down' {
  const half = TIP_BLOCKS / 2
  const blocks = nonEmptyBlocks(data).slice(-TIP_BLOCKS)
  if (blocks.length < 2) return 'down'
  const split = Math.max(1, blocks.length - half)
  const earlier = rewardsAt(data, blocks.slice(0, split), 50)
  const recent = rewardsAt(data, blocks.slice(split), 50)
  return median(recent) > median(earlier) ? 'up' : 'down'
}

/**
 * Priority fee ranges, in wei.
 * - latest: [p0, p100] reward of the latest block that included a transaction.
 * - historical: [min p0, max p100] over every non-empty block of the window.
 * Both are ["0", "0"] when no block of the window included a transaction.
 */
export function priorityFeeRanges(data: FeeData): { latest: [bigint, bigint]; historical: [bigint, bigint] } {
  const blocks = nonEmptyBlocks(data)
  const last = blocks.at(-1)
  if (last === undefined) return { latest: [0n, 0n], historical: [0n, 0n] }
  const lows = rewardsAt(data, blocks, 0)
  const highs = rewardsAt(data, blocks, 100)
  return {
    latest: [rewardAt(data, last, 0), rewardAt(data, last, 100)],
    historical: [range(lows)[0], range(highs)[1]],
  }
}
