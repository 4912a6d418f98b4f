import { FULL_BLOCK_RATIO } from './estimator'
import type { Recording } from './recording'

/** Reward percentiles the backtest derives per block: what every strategy (ours and the references) reads. */
export const BACKTEST_PERCENTILES = [0, 5, 10, 20, 30, 50, 100] as const

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

/**
 * The tip block b demanded of a newcomer, by the estimator's rule (demandedTipAt): the
 * 10th-percentile tip of a full block, the 5th of a block with spare room, 0 of an empty block.
 * null when the data has no tips.
 */
export function demandedTip(b: BlockStats): bigint | null {
  if (b.gasUsedRatio === 0) return 0n
  const p = b.gasUsedRatio >= FULL_BLOCK_RATIO ? 10 : 5
  const tip = b.rewards[BACKTEST_PERCENTILES.indexOf(p)]
  if (tip === undefined) throw new RangeError(`block ${b.number} has no reward entry for the ${p}th percentile`)
  return tip
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

/** The recording's blocks as BlockStats, and the block interval (ms) from timestamps or the nominal one. */
export function toBlockStats(rec: Recording): { blocks: BlockStats[]; intervalMs: number; tipsKnown: boolean } {
  const blocks = rec.blocks.map((b): BlockStats => {
    const gasUsedRatio = b.gasLimit > 0 ? b.gasUsed / b.gasLimit : 0
    if (b.txs) {
      const sorted = b.txs.map((t) => ({ tip: BigInt(t.tip), gas: t.gas })).sort((x, y) => (x.tip < y.tip ? -1 : x.tip > y.tip ? 1 : 0))
      return {
        number: b.number,
        baseFee: BigInt(b.baseFeePerGas),
        gasUsedRatio,
        rewards: BACKTEST_PERCENTILES.map((p) => weightedPercentile(sorted, p)),
        tips: sorted.map((t) => t.tip),
      }
    }
    const grid = rec.header.percentiles ?? []
    return {
      number: b.number,
      baseFee: BigInt(b.baseFeePerGas),
      gasUsedRatio,
      rewards: BACKTEST_PERCENTILES.map((p) => {
        const i = grid.indexOf(p)
        if (i < 0 || !b.rewards) return null
        const r = b.rewards[i]
        if (r === undefined) throw new RangeError(`block ${b.number} has no reward for the ${p}th percentile of its header`)
        return BigInt(r)
      }),
    }
  })
  const first = rec.blocks[0]
  const last = rec.blocks[rec.blocks.length - 1]
  const measured =
    first?.timestamp !== undefined && last?.timestamp !== undefined && last.number > first.number
      ? ((last.timestamp - first.timestamp) * 1000) / (last.number - first.number)
      : undefined
  const intervalMs = measured ?? rec.header.nominalBlockIntervalMs
  if (!intervalMs) throw new Error(`${rec.header.source}: no timestamps and no nominal block interval`)
  const tipsKnown = blocks.length > 0 && blocks.every((b) => demandedTip(b) !== null)
  return { blocks, intervalMs: Math.round(intervalMs), tipsKnown }
}
