import { DEFAULT_FEE_POLICY, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { maxOf, median, midRank, percentileNearestRank, range, sortAscending } from './statistics'
import type { FeeData, LevelEstimate, Urgency } from '../types'
import { answerAgeBlocks } from '../contract/freshness'
import { mulDivCeil, PPM } from '../units'
import { baseFeeCap, fitForecast, FORECAST_HORIZONS, type ForecastModel } from './forecast'

/** Per level (as MetaMask's gas-fee-controller): the promised wait in blocks, and the share that should get in within it. */
export const LEVEL_SETTINGS: Record<Urgency, { targetInclusion: number; minWaitBlocks: number; maxWaitBlocks: number }> = {
  low: { targetInclusion: 0.9, minWaitBlocks: 1, maxWaitBlocks: 6 },
  medium: { targetInclusion: 0.95, minWaitBlocks: 1, maxWaitBlocks: 3 },
  high: { targetInclusion: 0.99, minWaitBlocks: 1, maxWaitBlocks: 2 },
}

/** At least this many run minima lie above each level's quantile, so one short burst cannot set it. */
const TAIL_SAMPLES = 2

/** How many recent blocks a level's tip looks at: the policy's tip window, at least what its quantile needs. */
export function tipBlocks(level: Urgency, blockIntervalMs: number, tipWindowMs: number, available: number): number {
  const { targetInclusion, maxWaitBlocks } = LEVEL_SETTINGS[level]
  return inclusionTipBlocks({ targetInclusion, waitBlocks: maxWaitBlocks }, blockIntervalMs, tipWindowMs, available)
}

/** A promise on a tip: `targetInclusion` of transactions get in within `waitBlocks` blocks. */
export type InclusionTarget = { targetInclusion: number; waitBlocks: number }

/** How many recent blocks a target's tip looks at: the policy's tip window, at least what its quantile needs. */
export function inclusionTipBlocks(target: InclusionTarget, blockIntervalMs: number, tipWindowMs: number, available: number): number {
  const { targetInclusion, waitBlocks: w } = target
  const inTime = Math.ceil(tipWindowMs / Math.max(1, blockIntervalMs))
  const forQuantile = w - 1 + Math.ceil(TAIL_SAMPLES / (1 - targetInclusion) - 1e-9)
  return Math.max(0, Math.min(available, Math.max(inTime, forQuantile)))
}

/**
 * A target's tip (wei): the target-inclusion quantile of the cheapest demanded tip of each run of W blocks
 * (the wait): a transaction with it gets in within W blocks as often as the recent runs would have let it.
 */
export function inclusionTip(demanded: readonly bigint[], target: InclusionTarget): bigint {
  const { targetInclusion, waitBlocks: w } = target
  if (demanded.length === 0) return 0n
  const minima: bigint[] = []
  const runs = Math.max(1, demanded.length - w + 1)
  for (let i = 0; i < runs; i++) {
    // runs ≤ demanded.length, so the run is never empty
    minima.push(demanded.slice(i, i + w).reduce((m, d) => (d < m ? d : m)))
  }
  const sorted = sortAscending(minima)
  const rank = Math.max(1, Math.min(Math.ceil(targetInclusion * sorted.length - 1e-9), sorted.length - TAIL_SAMPLES))
  return sorted[rank - 1] ?? 0n
}

/** Reward percentiles requested from eth_feeHistory: 0–10 for the tips, 0/100 for the ranges, 50 for the trend. */
export const REWARD_PERCENTILES = [0, 1, 5, 10, 50, 100] as const

/** A block this full (gasUsed / gasLimit) had no room left: its marginal tip was contested (the backtest's judge). */
export const FULL_BLOCK_RATIO = 0.95
/** How many recent blocks the priority-fee trend looks at. */
const TIP_BLOCKS = 20
/** How many recent blocks the base-fee trend compares the next base fee with. */
const TREND_BLOCKS = 10
/**
 * Tips at or below this are a system's or a builder's, not a market price: go-ethereum eth/gasprice/gasprice.go
 * skips those under DefaultIgnorePrice; we and the backtest's judge drop it too.
 */
export const IGNORE_TIP_WEI = 2n

/** The largest per-block base fee rise to plan for (ppm): the chain's maximum, or a larger observed one where not enforced. */
export function maxBaseFeeRisePpm(
  policy: Pick<ChainFeePolicy, 'maxBaseFeeRisePpm' | 'enforceBaseFeeBounds' | 'liveParamsRead'>,
  baseFees: readonly bigint[],
  nextBaseFee: bigint,
): bigint {
  let rise = policy.maxBaseFeeRisePpm
  if (!policy.enforceBaseFeeBounds && !policy.liveParamsRead) {
    const series = [...baseFees, nextBaseFee]
    for (const [i, cur] of series.entries()) {
      const prev = series[i - 1]
      if (prev !== undefined && prev > 0n && cur > prev) {
        // an observed rise counts up to 100%; the chain's own rule, whatever it is
        const observed = mulDivCeil(cur - prev, PPM, prev)
        const capped = observed > PPM ? PPM : observed
        if (capped > rise) rise = capped
      }
    }
  }
  return rise
}

function rewardAt(data: FeeData, block: number, percentile: number): bigint | undefined {
  const column = data.rewardPercentiles.indexOf(percentile)
  if (column < 0) throw new RangeError(`reward percentile ${percentile} was not requested`)
  // a block whose node sent no reward row (an empty block, on some clients) has no tip data
  return data.rewards[block]?.[column]
}

/** What block i would have demanded of a newcomer, as far as eth_feeHistory tells. */
export function demandProxyAt(data: FeeData, i: number): bigint {
  const ratio = data.gasUsedRatio[i]
  if (ratio === undefined || ratio === 0) return 0n
  const real = (p: number) => {
    const tip = rewardAt(data, i, p)
    return tip !== undefined && tip > IGNORE_TIP_WEI ? tip : undefined
  }
  if (ratio >= FULL_BLOCK_RATIO) return real(10) ?? 0n
  return real(0) ?? real(1) ?? real(5) ?? 0n
}

/** Indices of the blocks that included transactions with tip data (gasUsedRatio > 0), most recent last. */
function nonEmptyBlocks(data: FeeData): number[] {
  const out: number[] = []
  data.gasUsedRatio.forEach((ratio, i) => {
    if (ratio > 0 && (data.rewards[i]?.length ?? 0) > 0) out.push(i)
  })
  return out
}

function rewardsAt(data: FeeData, blocks: readonly number[], percentile: number): bigint[] {
  return blocks.flatMap((i) => {
    const r = rewardAt(data, i, percentile)
    return r === undefined ? [] : [r]
  })
}

/** How many blocks a level's max fee must cover: the answer's possible age and the level's wait. */
export function levelHorizon(level: Urgency, blockIntervalMs: number): number {
  return answerAgeBlocks(blockIntervalMs) + LEVEL_SETTINGS[level].maxWaitBlocks
}

/** The horizons a window's forecast model is fitted for: the served FORECAST_HORIZONS, or the longest level horizon when that is more (fast chains). */
export function forecastHorizonsFor(blockIntervalMs: number): number {
  return Math.max(FORECAST_HORIZONS, ...(['low', 'medium', 'high'] as const).map((l) => levelHorizon(l, blockIntervalMs)))
}

/** The least headroom any max fee leaves (wei): the next base fee raised by one full block at the chain's rule (docs/estimator.md). */
export function headroomFloor(model: ForecastModel): bigint {
  return model.fullBlock
}

/**
 * Each level's base-fee cap (wei): what every block of its horizon stays under with the level's promise
 * (./forecast.ts baseFeeCap), never below headroomFloor.
 */
export function levelBaseFeeCaps(model: ForecastModel, blockIntervalMs: number): Record<Urgency, bigint> {
  const out = {} as Record<Urgency, bigint>
  let floor = headroomFloor(model)
  for (const level of ['low', 'medium', 'high'] as const) {
    const cap = baseFeeCap(model, levelHorizon(level, blockIntervalMs), LEVEL_SETTINGS[level].targetInclusion)
    out[level] = maxOf(cap, floor)
    floor = out[level]
  }
  return out
}

/**
 * The three levels, by the chain's fee policy: tip by inclusionTip over the chain's floor, max fee the level's
 * base-fee cap plus the tip; both fields hold low ≤ medium ≤ high. The sealed blocks' levels: a flashblocks chain's
 * pieces are laid over them by ./chain-levels.ts piecedLevels.
 */
export function estimateLevels(data: FeeData, policy: ChainFeePolicy = DEFAULT_FEE_POLICY): Record<Urgency, LevelEstimate> {
  const model = levelForecastModel(data, policy)
  const caps = levelBaseFeeCaps(model, data.blockIntervalMs)
  const out = {} as Record<Urgency, LevelEstimate>
  let floorTip = policy.ignoresTips ? 0n : policy.minSuggestedPriorityFeeWei
  for (const level of ['low', 'medium', 'high'] as const) {
    const s = LEVEL_SETTINGS[level]
    const target = { targetInclusion: s.targetInclusion, waitBlocks: s.maxWaitBlocks }
    const blocks = inclusionTipBlocks(target, data.blockIntervalMs, policy.tipWindowMs, data.gasUsedRatio.length)
    const tip = policy.ignoresTips ? 0n : maxOf(inclusionTip(recentDemand(data, blocks), target), floorTip)
    out[level] = {
      maxPriorityFeePerGas: tip,
      maxFeePerGas: caps[level] + tip,
      minWaitTimeMs: Math.round(data.blockIntervalMs * s.minWaitBlocks),
      maxWaitTimeMs: Math.round(data.blockIntervalMs * s.maxWaitBlocks),
    }
    floorTip = tip
  }
  return out
}

/** The base-fee forecast the caps are read from: the window's model within the chain's (or the observed) largest rise. */
export function levelForecastModel(data: FeeData, policy: ChainFeePolicy = DEFAULT_FEE_POLICY): ForecastModel {
  const risePpm = maxBaseFeeRisePpm(policy, data.baseFees, data.nextBaseFee)
  return fitForecast(data.baseFees, data.nextBaseFee, { ...policy, maxBaseFeeRisePpm: risePpm }, forecastHorizonsFor(data.blockIntervalMs))
}

/** What the last `blocks` blocks of the window demanded of a newcomer (demandProxyAt), oldest first. */
export function recentDemand(data: FeeData, blocks: number): bigint[] {
  const start = data.gasUsedRatio.length - blocks
  return data.gasUsedRatio.slice(start).map((_, j) => demandProxyAt(data, start + j))
}

/** Base fee statistics of the window, in wei. */
export function baseFeeStats(data: FeeData) {
  const p90 = percentileNearestRank(data.baseFees, 90)
  return {
    /** 50th percentile (nearest-rank) of the window's base fees. */
    p50: percentileNearestRank(data.baseFees, 50),
    /** 90th percentile (nearest-rank): the busy threshold. */
    p90,
    /** How the next base fee ranks in the window: networkCongestion (see congestion). */
    congestion: congestion(data.baseFees, data.nextBaseFee, p90),
    range: range(data.baseFees),
  }
}

/** networkCongestion: the mid-rank of the next base fee among the window's, so a flat window is 0.5, not 1. */
export function congestion(baseFees: readonly bigint[], next: bigint, busyThreshold: bigint): number {
  const rank = midRank(baseFees, next)
  const halfRank = 1 / (2 * baseFees.length)
  const agreed = next > busyThreshold ? Math.max(rank, Math.min(1, 0.9 + halfRank)) : Math.min(rank, 0.9)
  return Math.round(agreed * 1e6) / 1e6
}

/** "up" when the next base fee is above the recent median, else "down" (the spec allows only these two). */
export function baseFeeTrend(data: FeeData): 'up' | 'down' {
  const recent = data.baseFees.slice(-TREND_BLOCKS)
  return data.nextBaseFee > median(recent) ? 'up' : 'down'
}

/** "up" when the recent half's median p50 tip is above the earlier half's; otherwise (or too few blocks) "down". */
export function priorityFeeTrend(data: FeeData): 'up' | 'down' {
  const half = TIP_BLOCKS / 2
  const blocks = nonEmptyBlocks(data).slice(-TIP_BLOCKS)
  if (blocks.length < 2) return 'down'
  const split = Math.max(1, blocks.length - half)
  const earlier = rewardsAt(data, blocks.slice(0, split), 50)
  const recent = rewardsAt(data, blocks.slice(split), 50)
  return median(recent) > median(earlier) ? 'up' : 'down'
}

/** Priority fee ranges, wei: [p0, p100] of the latest non-empty block, and over the window; [0, 0] without one. */
export function priorityFeeRanges(data: FeeData): { latest: [bigint, bigint]; historical: [bigint, bigint] } {
  const blocks = nonEmptyBlocks(data)
  const last = blocks.at(-1)
  if (last === undefined) return { latest: [0n, 0n], historical: [0n, 0n] }
  const lows = rewardsAt(data, blocks, 0)
  const highs = rewardsAt(data, blocks, 100)
  return {
    // nonEmptyBlocks holds only blocks with a full reward row
    latest: [rewardAt(data, last, 0) ?? 0n, rewardAt(data, last, 100) ?? 0n],
    historical: [range(lows)[0], range(highs)[1]],
  }
}
