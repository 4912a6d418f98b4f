import { maxOf, median, percentileNearestRank, percentileRank, range } from './statistics'
import type { FeeData, LevelEstimate, Urgency } from './types'
import { mulDivCeil } from './units'

/**
 * Per-urgency settings (MetaMask gas-fee-controller style: one row per level).
 * - tipPercentile: which of each recent block's reward percentiles the level's tip follows.
 * - baseFeeSteps: how many consecutive maximal base-fee rises (after the next block) maxFeePerGas
 *   survives. A cap costs nothing unless used, so faster levels get more headroom.
 * - minWaitBlocks / maxWaitBlocks: the promised wait, in blocks of the chain's measured interval.
 */
export const LEVEL_SETTINGS: Record<Urgency, {
  tipPercentile: number
  baseFeeSteps: number
  minWaitBlocks: number
  maxWaitBlocks: number
}> = {
  low: { tipPercentile: 10, baseFeeSteps: 0, minWaitBlocks: 1, maxWaitBlocks: 6 },
  medium: { tipPercentile: 30, baseFeeSteps: 2, minWaitBlocks: 1, maxWaitBlocks: 3 },
  high: { tipPercentile: 60, baseFeeSteps: 4, minWaitBlocks: 1, maxWaitBlocks: 2 },
}

/** Reward percentiles requested from eth_feeHistory: the levels' plus 0/50/100 for ranges and trends. */
export const REWARD_PERCENTILES = [0, 10, 30, 50, 60, 100] as const

/** How many recent non-empty blocks the tip estimate and the priority-fee trend look at. */
export const TIP_BLOCKS = 20
/** How many recent blocks the base-fee trend compares the next base fee with. */
export const TREND_BLOCKS = 10
/**
 * Smallest per-block base fee rise assumed for headroom: 1/8, EIP-1559's
 * BASE_FEE_MAX_CHANGE_DENOMINATOR. A chain whose window shows larger rises gets those instead.
 */
const MIN_RISE_PPM = 125_000n
const PPM = 1_000_000n

/** Largest relative base fee rise between consecutive blocks in the window (ppm), at least 1/8, at most 100%. */
export function maxBaseFeeRisePpm(baseFees: readonly bigint[], nextBaseFee: bigint): bigint {
  const series = [...baseFees, nextBaseFee]
  let best = MIN_RISE_PPM
  for (let i = 1; i < series.length; i++) {
    const prev = series[i - 1]
    const cur = series[i]
    if (prev > 0n && cur > prev) {
      const rise = mulDivCeil(cur - prev, PPM, prev)
      if (rise > best) best = rise
    }
  }
  return best > PPM ? PPM : best
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
  const column = data.rewardPercentiles.indexOf(percentile)
  if (column < 0) throw new RangeError(`reward percentile ${percentile} was not requested`)
  return blocks.map((i) => data.rewards[i][column])
}

/**
 * The tip of a level: the median, over the last TIP_BLOCKS non-empty blocks, of each block's
 * reward at the level's percentile; 0 when no recent block included a transaction (nothing competes).
 * @returns wei
 */
function levelTip(data: FeeData, percentile: number): bigint {
  const recent = nonEmptyBlocks(data).slice(-TIP_BLOCKS)
  if (recent.length === 0) return 0n
  return median(rewardsAt(data, recent, percentile))
}

/** The three urgency levels' suggestions. low ≤ medium ≤ high holds by construction. */
export function estimateLevels(data: FeeData): Record<Urgency, LevelEstimate> {
  const risePpm = maxBaseFeeRisePpm(data.baseFees, data.nextBaseFee)
  const out = {} as Record<Urgency, LevelEstimate>
  let floorTip = 0n
  let floorMaxFee = 0n
  for (const level of ['low', 'medium', 'high'] as const) {
    const s = LEVEL_SETTINGS[level]
    const tip = maxOf(levelTip(data, s.tipPercentile), floorTip)
    let baseFeeCap = data.nextBaseFee
    for (let k = 0; k < s.baseFeeSteps; k++) baseFeeCap = mulDivCeil(baseFeeCap, PPM + risePpm, PPM)
    const maxFee = maxOf(baseFeeCap + tip, floorMaxFee)
    out[level] = {
      maxPriorityFeePerGas: tip,
      maxFeePerGas: maxFee,
      minWaitTimeMs: Math.round(data.blockIntervalMs * s.minWaitBlocks),
      maxWaitTimeMs: Math.round(data.blockIntervalMs * s.maxWaitBlocks),
    }
    floorTip = tip
    floorMaxFee = maxFee
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
  if (blocks.length === 0) return { latest: [0n, 0n], historical: [0n, 0n] }
  const last = blocks[blocks.length - 1]
  const lows = rewardsAt(data, blocks, 0)
  const highs = rewardsAt(data, blocks, 100)
  return {
    latest: [rewardsAt(data, [last], 0)[0], rewardsAt(data, [last], 100)[0]],
    historical: [range(lows)[0], range(highs)[1]],
  }
}
