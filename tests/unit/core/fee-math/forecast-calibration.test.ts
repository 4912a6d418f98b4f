// Issue 21's calibration, on every real base-fee window of ../shared/data (two mainnet spikes of
// 2022–2023, 1,640 mainnet blocks of September 2022, 1,024 Polygon PoS blocks of 2026): at every
// block with the service's 500-block window before it, the forecast and the max fees made from that
// window, judged on the base fees that followed (scripts/backtest/forecast-trials.ts, the code behind
// `npm run backtest -- <file.csv>`). Fails when a coverage leaves its band or a level's max fee holds
// for fewer trials than it promises. The printed table is what docs/estimator.md quotes.
import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { LEVEL_SETTINGS } from '@/lib/core/fee-math/estimator'
import { loadSharedBaseFeeWindows } from '@/scripts/backtest/datasets'
import { forecastBacktest } from '@/scripts/backtest/forecast-trials'
import { SHARED_DATA } from '../../../support/shared-data'

const windows = loadSharedBaseFeeWindows(SHARED_DATA)

describe('the base-fee forecast on the real windows', () => {
  test('default: the four real windows are there, each long enough for hundreds of trials', () => {
    expect(windows.map((w) => w.name)).toEqual([
      'mainnet-spike-july-2022',
      'mainnet-spike-may-2023',
      'mainnet-1640-blocks',
      'polygon-1024-feehistory',
    ])
  })

  test.each(windows.map((w) => [w.name, w] as const))(
    'behavior: %s: at every horizon 2–10, p50 covers 45–55% of the blocks that followed, p90 88–92%, p99 at least 98.5%; every level’s max fee held over its wait at lag 0–2 for at least its promise',
    (name, w) => {
      const r = forecastBacktest(w.window, chainFeePolicy(w.chainId))
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`
      console.log(
        `${name}: ${r.trials} trials\n` +
          r.forecast
            .map(
              (f) =>
                `  +${f.horizon}: p50 ${pct(f.p50Coverage)}, p90 ${pct(f.p90Coverage)}, p99 ${pct(f.p99Coverage)}, median p99/next ${f.medianP99OverNext.toFixed(3)}`,
            )
            .join('\n') +
          '\n' +
          r.maxFee
            .map(
              (m) => `  ${m.level} lag ${m.lag}: held ${pct(m.heldShare)} of ${m.trials}, median cap/next ${m.medianOverNext.toFixed(3)}`,
            )
            .join('\n'),
      )
      expect(r.trials).toBeGreaterThan(500)
      for (const f of r.forecast) {
        if (f.horizon === 1) {
          // the next base fee is known: every quantile is it
          expect([f.p50Coverage, f.p90Coverage, f.p99Coverage]).toEqual([1, 1, 1])
          continue
        }
        expect(f.trials).toBeGreaterThan(500)
        expect(f.p50Coverage, `+${f.horizon} p50`).toBeGreaterThanOrEqual(0.45)
        expect(f.p50Coverage, `+${f.horizon} p50`).toBeLessThanOrEqual(0.55)
        expect(f.p90Coverage, `+${f.horizon} p90`).toBeGreaterThanOrEqual(0.88)
        expect(f.p90Coverage, `+${f.horizon} p90`).toBeLessThanOrEqual(0.92)
        expect(f.p99Coverage, `+${f.horizon} p99`).toBeGreaterThanOrEqual(0.985)
      }
      expect(r.maxFee).toHaveLength(9)
      for (const m of r.maxFee) {
        expect(m.trials).toBeGreaterThan(500)
        expect(m.heldShare, `${m.level} lag ${m.lag}`).toBeGreaterThanOrEqual(LEVEL_SETTINGS[m.level].targetInclusion)
        // and far under the protocol's worst case the max fees asked for before (1.125⁸ ≈ 2.57× on mainnet)
        expect(m.medianOverNext).toBeLessThan(2)
      }
    },
    240_000,
  )
})
