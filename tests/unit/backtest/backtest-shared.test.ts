import { describe, expect, test } from 'vitest'
import { loadSharedDatasets } from '@/scripts/backtest/datasets'
import { runBacktest } from '@/lib/core/evaluation/backtest'
import { JUDGES } from '@/lib/core/evaluation/judge'
import { toBlockStats } from '@/scripts/backtest/block-stats'
import { STRATEGIES } from '@/scripts/backtest/strategies'
import { SHARED_DATA } from '../../support/shared-data'

/**
 * The backtest runs on every real dataset under every judge and serving lag. Its verdicts against the
 * targets are printed by `npm run backtest -- shared` and stated in docs, not asserted here: these
 * tests check what the data decides and the code could get wrong.
 */
const datasets = loadSharedDatasets(SHARED_DATA)

describe('backtest on the shared real datasets', () => {
  test('default: every dataset is read', () => {
    const names = datasets.map((d) => d.name)
    for (const n of ['mainnet-1640-blocks', 'mainnet-100-blocks-txs', 'polygon-1024-feehistory']) expect(names).toContain(n)
    expect(names.filter((n) => n.startsWith('erigon-')).length).toBeGreaterThan(10)
  })

  const txs = datasets.find((d) => d.name === 'mainnet-100-blocks-txs')!
  const { blocks, intervalMs, tipsKnown } = toBlockStats(txs.recording)

  test('behavior: the window with every transaction is judged on tips; the judges order from lenient to strict', () => {
    expect(tipsKnown).toBe(true)
    const rate = (judge: (typeof JUDGES)[number]) =>
      runBacktest({ blocks, intervalMs, mode: 'fees', strategies: STRATEGIES, source: txs.name, chainId: 1, judge })
        .metrics.filter((m) => m.strategy === 'viem')
        .map((m) => m.inclusionRate)
    const [lenient, moderate, strict] = JUDGES.map(rate)
    // a stricter judge never lets more of the same suggestions in
    lenient!.forEach((r, i) => expect(r).toBeGreaterThanOrEqual(moderate![i]!))
    moderate!.forEach((r, i) => expect(r).toBeGreaterThanOrEqual(strict![i]!))
    // and the judges differ on this window: viem's tips get in under the lenient judge far more often
    expect(lenient![1]! - strict![1]!).toBeGreaterThan(0.3)
  })

  test("behavior: OpenChainBench's gap is computed for every strategy on the window with tips", () => {
    const r = runBacktest({ blocks, intervalMs, mode: 'fees', strategies: STRATEGIES, source: txs.name, chainId: 1 })
    for (const m of r.metrics) {
      expect(m.medianGapGwei).not.toBeNull()
      expect(m.p99GapGwei!).toBeGreaterThanOrEqual(m.medianGapGwei!)
    }
  })
})
