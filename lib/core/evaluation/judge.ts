/**
 * The inclusion judges: what a block demanded of a newcomer's tip, from what a block's data shows (every
 * transaction's tip, or eth_feeHistory's reward percentiles).
 */
import { FULL_BLOCK_RATIO, IGNORE_TIP_WEI } from '../fee-math/estimator'

/** Reward percentiles the backtest derives per block: what every strategy (ours and the references) reads. */
export const BACKTEST_PERCENTILES = [0, 1, 5, 10, 20, 30, 50, 100] as const

/** A block as the backtest sees it: base fee, fullness, reward percentiles, and (full data) its tips. */
export type BlockStats = {
  number: number
  baseFee: bigint
  gasUsedRatio: number
  /** Reward at each BACKTEST_PERCENTILES entry (wei), or null where the data lacks it. */
  rewards: (bigint | null)[]
  /** Every transaction's tip, ascending (full data only). */
  tips?: bigint[]
}

/** The lowest tip above 2 wei a block included, or null. */
export function lowestRealTip(b: BlockStats): bigint | null {
  if (b.tips) return b.tips.find((t) => t > IGNORE_TIP_WEI) ?? null
  return b.rewards.find((r): r is bigint => r !== null && r > IGNORE_TIP_WEI) ?? null
}

/** Whether a judge can tell what the block demanded: every tip, or the grid's 0th, 5th and 10th percentiles. */
export function hasTipData(b: BlockStats): boolean {
  return b.tips !== undefined || [0, 5, 10].every((p) => rewardAt(b, p as (typeof BACKTEST_PERCENTILES)[number]) !== null)
}

const rewardAt = (b: BlockStats, p: (typeof BACKTEST_PERCENTILES)[number]) => b.rewards[BACKTEST_PERCENTILES.indexOf(p)] ?? null

/** A judge: the tip a block demanded of a newcomer (wei), or null when the data cannot tell. */
export type Judge = {
  name: 'lenient' | 'moderate' | 'strict'
  description: string
  demanded(b: BlockStats, chainMinTip: bigint): bigint | null
}

const floorAt = (tip: bigint | null, min: bigint) => (tip === null ? null : tip > min ? tip : min)
const isFull = (b: BlockStats) => b.gasUsedRatio >= FULL_BLOCK_RATIO

export const JUDGES: readonly Judge[] = [
  {
    name: 'lenient',
    description: 'a full block takes its lowest real tip (> 2 wei); a block with room takes the chain minimum',
    // a block with room demanded the chain minimum whatever its tips; only a full block without tip data cannot be judged
    demanded: (b, min) => (!isFull(b) ? min : !hasTipData(b) ? null : floorAt(lowestRealTip(b) ?? 0n, min)),
  },
  {
    name: 'moderate',
    description: 'a full block takes its 5th-percentile tip; a block with room takes its lowest real tip',
    demanded: (b, min) =>
      !b.tips ? null : floorAt(isFull(b) ? rewardAt(b, 5) : b.gasUsedRatio === 0 ? 0n : (lowestRealTip(b) ?? 0n), min),
  },
  {
    name: 'strict',
    description: "a full block takes its 10th-percentile tip; a block with room its 5th (v2's judge, the estimator's own statistic)",
    demanded: (b, min) => (!hasTipData(b) ? null : floorAt(b.gasUsedRatio === 0 ? 0n : rewardAt(b, isFull(b) ? 10 : 5), min)),
  },
]

/** The judge of the given name. */
export function judgeNamed(name: Judge['name']): Judge {
  const j = JUDGES.find((x) => x.name === name)
  if (!j) throw new RangeError(`no judge named ${name}`)
  return j
}

/**
 * OpenChainBench's "gap vs realized": the tip a level predicted against the realized percentile of
 * the next block's transactions (count-weighted nearest rank over every tip it included), with the
 * three tiers normalised onto p25 / p50 / p75 (OpenChainBench's scheme: p25/p50/p75/p90/p99).
 */
export const OPENCHAINBENCH_PERCENTILE = { low: 25, medium: 50, high: 75 } as const

/** The p-th percentile (nearest rank) of a block's tips, or null without tip data or transactions. */
export function realizedTip(b: BlockStats, p: number): bigint | null {
  if (!b.tips || b.tips.length === 0) return null
  return b.tips[Math.max(1, Math.ceil((p / 100) * b.tips.length)) - 1] ?? null
}

/**
 * Gas-weighted percentile as eth_feeHistory computes it (geth): txs sorted by tip, the first whose
 * cumulative gas reaches p% of the block's gas.
 */
export function weightedPercentile(sorted: readonly { tip: bigint; gas: number }[], p: number): bigint {
  if (sorted.length === 0) return 0n
  const total = sorted.reduce((s, t) => s + t.gas, 0)
  const threshold = (total * p) / 100
  let cumulative = 0
  let tip = 0n
  for (const tx of sorted) {
    cumulative += tx.gas
    tip = tx.tip
    if (cumulative >= threshold) return tip
  }
  // the threshold was never reached (p above 100): the largest tip
  return tip
}
