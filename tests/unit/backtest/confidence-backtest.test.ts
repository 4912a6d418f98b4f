import { describe, expect, test } from 'vitest'
import { runConfidenceBacktest } from '@/lib/core/evaluation/confidence-backtest'
import { BACKTEST_PERCENTILES, JUDGES, judgeNamed, type BlockStats } from '@/lib/core/evaluation/judge'
import { loadSharedDatasets } from '@/scripts/backtest/datasets'
import { toBlockStats } from '@/scripts/backtest/block-stats'
import { SHARED_DATA } from '../../support/shared-data'

const GWEI = 1_000_000_000n
const LEVELS = [99, 95, 90, 80, 70]

/**
 * A stationary market: every block has room, and its cheapest tip is drawn uniformly from 1…100 gwei (a fixed
 * pseudo-random sequence), the rest of its tips above it. A confidence c should get into the next block c% of the time.
 */
function stationaryMarket(n: number, seed = 7): BlockStats[] {
  let s = seed
  return Array.from({ length: n }, (_, i) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    const cheapest = BigInt(1 + Math.floor((s / 2 ** 31) * 100)) * GWEI
    const tips = [cheapest, cheapest + GWEI, cheapest + 2n * GWEI, cheapest + 5n * GWEI]
    return {
      number: 1_000 + i,
      baseFee: 10n * GWEI,
      gasUsedRatio: 0.5,
      rewards: BACKTEST_PERCENTILES.map((p) => (p === 0 ? cheapest : cheapest + GWEI)),
      tips,
    }
  })
}

describe('runConfidenceBacktest', () => {
  // 780 trials keep the share within 4 points: CPU work, budgeted for a loaded machine (docs/development.md, "Slow tests")
  test('behavior: in a stationary market each confidence gets into the next block about c% of the time', { timeout: 60_000 }, () => {
    const rows = runConfidenceBacktest({
      blocks: stationaryMarket(800),
      intervalMs: 12_000,
      chainId: 1,
      judge: judgeNamed('moderate'),
      confidences: LEVELS,
    })
    for (const r of rows) {
      // 779 trials: two standard errors of a 70% share is 3.3 points
      expect(r.trials).toBe(800 - 20)
      expect(Math.abs(100 * r.includedShare - r.confidence), `confidence ${r.confidence}`).toBeLessThanOrEqual(4)
    }
    // a higher confidence never asks less
    const tips = rows.map((r) => r.medianTipGwei!)
    for (let i = 1; i < tips.length; i++) expect(tips[i - 1]!).toBeGreaterThanOrEqual(tips[i]!)
  })

  test('args: a serving lag of 2 blocks gives two trials fewer and sees older data', () => {
    const blocks = stationaryMarket(60)
    const at = (lagBlocks: number) => runConfidenceBacktest({ blocks, intervalMs: 12_000, chainId: 1, lagBlocks, confidences: [90] })[0]!
    expect(at(0).trials - at(2).trials).toBe(2)
    expect(at(2).lag).toBe(2)
  })
})

describe('confidence rows on the shared window with every transaction', () => {
  const txs = loadSharedDatasets(SHARED_DATA).find((d) => d.name === 'mainnet-100-blocks-txs')!
  const { blocks, intervalMs } = toBlockStats(txs.recording)
  const rows = JUDGES.flatMap((judge) =>
    [0, 1, 2].flatMap((lagBlocks) => runConfidenceBacktest({ blocks, intervalMs, chainId: 1, judge, lagBlocks, confidences: LEVELS })),
  )
  const share = (judge: string, lag: number, c: number) =>
    rows.find((r) => r.judge === judge && r.lag === lag && r.confidence === c)!.includedShare

  test('behavior: a stricter judge never lets more of the same fees in', () => {
    for (const lag of [0, 1, 2])
      for (const c of LEVELS) {
        expect(share('lenient', lag, c)).toBeGreaterThanOrEqual(share('moderate', lag, c))
        expect(share('moderate', lag, c)).toBeGreaterThanOrEqual(share('strict', lag, c))
      }
  })

  // The promise is made under the moderate judge (docs/estimator.md, "Confidence levels"). The bands it meets on
  // this window are asserted; the ones it misses (99 under c − 2; 80 and 70 over c + 5) are measured and stated there.
  test('behavior: under the moderate judge 70, 80, 90 and 95 get in at least c − 2; 90 and 95 at most c + 5; lags 0–2', () => {
    for (const lag of [0, 1, 2]) {
      for (const c of [70, 80, 90, 95]) expect(100 * share('moderate', lag, c), `confidence ${c}, lag ${lag}`).toBeGreaterThanOrEqual(c - 2)
      for (const c of [90, 95]) expect(100 * share('moderate', lag, c), `confidence ${c}, lag ${lag}`).toBeLessThanOrEqual(c + 5)
    }
  })
})
