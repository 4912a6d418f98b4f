import type { Recording } from '../record/recording'
import { BACKTEST_PERCENTILES, hasTipData, weightedPercentile, type BlockStats } from '../../lib/core/evaluation/judge'

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
        // an empty row: the node sent no rewards for this block (no transactions)
        if (i < 0 || !b.rewards || b.rewards.length === 0) return null
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
  const tipsKnown = blocks.length > 0 && blocks.every(hasTipData)
  return { blocks, intervalMs: Math.round(intervalMs), tipsKnown }
}
