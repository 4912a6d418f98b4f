/**
 * The base-fee forecast's backtest (issue 21): at every block of a recorded window that has a full
 * service window before it, the forecast and the max fees' base-fee caps made from the 500 base fees
 * up to it and the next one (what the service holds), judged on the base fees that followed.
 * - forecast: per horizon k, how often block head + k's base fee was at or under p50, p90 and p99,
 *   and the median p99 over the next base fee.
 * - maxFee: per level and serving lag L (the answer used L blocks after its head), how often the
 *   level's max fee (its base-fee cap: tips are not in these windows) stayed at or above the base fee
 *   of every block of its promised wait after it was used (head + L + 1 … head + L + wait), and the
 *   median cap over the next base fee.
 * A gap in the block numbers splits the window: no trial spans it.
 */
import { baseFeeQuantile, fitForecast, FORECAST_HORIZONS, FORECAST_QUANTILES } from '../../lib/core/fee-math/forecast'
import { forecastHorizonsFor, LEVEL_SETTINGS, levelBaseFeeCaps } from '../../lib/core/fee-math/estimator'
import type { ChainFeePolicy } from '../../lib/core/chain-rules/chain-policy'
import type { Urgency } from '../../lib/core/types'

/** A recorded base-fee window: block numbers ascending (gaps allowed), base fees in wei. */
export type BaseFeeWindow = { numbers: number[]; baseFees: bigint[]; intervalMs: number }

/** Blocks of history a trial needs: the service's window. */
export const SERVICE_WINDOW = 500

export type ForecastRow = {
  horizon: number
  trials: number
  p50Coverage: number
  p90Coverage: number
  p99Coverage: number
  medianP99OverNext: number
}
export type MaxFeeRow = { level: Urgency; lag: number; trials: number; heldShare: number; medianOverNext: number }
export type ForecastBacktest = { forecast: ForecastRow[]; maxFee: MaxFeeRow[]; trials: number }

export const median = (v: number[]) => {
  if (v.length === 0) return Number.NaN
  const s = [...v].sort((a, b) => a - b)
  return s[Math.floor((s.length - 1) / 2)]!
}
export const ratio = (a: bigint, b: bigint) => (b === 0n ? 1 : Number((a * 1_000_000n) / b) / 1e6)

/** One horizon's coverage tally: trials, how many were at or under p50, p90 and p99, and each p99 over the next fee. */
export type Coverage = { n: number; p50: number; p90: number; p99: number; over: number[] }

export const newCoverage = (horizons: number): Coverage[] =>
  Array.from({ length: horizons }, () => ({ n: 0, p50: 0, p90: 0, p99: 0, over: [] as number[] }))

/** Counts one trial of a horizon: the actual fee against the forecast's quantiles. */
export function tally(c: Coverage, actual: bigint, q: { p50: bigint; p90: bigint; p99: bigint }, next: bigint): void {
  c.n++
  if (actual <= q.p50) c.p50++
  if (actual <= q.p90) c.p90++
  if (actual <= q.p99) c.p99++
  c.over.push(ratio(q.p99, next))
}

/** The tallies as rows, horizon 1 first. */
export const coverageRows = (cover: Coverage[]): ForecastRow[] =>
  cover.map((c, i) => ({
    horizon: i + 1,
    trials: c.n,
    p50Coverage: c.n ? c.p50 / c.n : Number.NaN,
    p90Coverage: c.n ? c.p90 / c.n : Number.NaN,
    p99Coverage: c.n ? c.p99 / c.n : Number.NaN,
    medianP99OverNext: median(c.over),
  }))

/** Splits a window at its gaps into runs of consecutive blocks. */
export function consecutiveRuns(w: BaseFeeWindow): bigint[][] {
  const runs: bigint[][] = []
  let run: bigint[] = []
  w.numbers.forEach((n, i) => {
    if (i > 0 && n !== w.numbers[i - 1]! + 1) {
      runs.push(run)
      run = []
    }
    run.push(w.baseFees[i]!)
  })
  if (run.length) runs.push(run)
  return runs
}

/** Runs the forecast and max-fee trials on a window, by the chain's policy; lags 0–2 by default. */
export function forecastBacktest(
  w: BaseFeeWindow,
  policy: ChainFeePolicy,
  opts: { lags?: number[]; history?: number; every?: number } = {},
): ForecastBacktest {
  const lags = opts.lags ?? [0, 1, 2]
  const history = opts.history ?? SERVICE_WINDOW
  const every = opts.every ?? 1
  const cover = newCoverage(FORECAST_HORIZONS)
  const held = new Map<string, { n: number; held: number; over: number[] }>()
  let trials = 0
  for (const run of consecutiveRuns(w)) {
    // head at index h: its window run[h − history + 1 … h], next = run[h + 1]
    for (let h = history - 1; h + 1 < run.length; h += every) {
      trials++
      const window = run.slice(h - history + 1, h + 1)
      const next = run[h + 1]!
      const model = fitForecast(window, next, policy, forecastHorizonsFor(w.intervalMs))
      for (let k = 1; k <= FORECAST_HORIZONS && h + k < run.length; k++) {
        const q = (p: number) => baseFeeQuantile(model, k, p)
        tally(
          cover[k - 1]!,
          run[h + k]!,
          { p50: q(FORECAST_QUANTILES.p50), p90: q(FORECAST_QUANTILES.p90), p99: q(FORECAST_QUANTILES.p99) },
          next,
        )
      }
      const caps = levelBaseFeeCaps(model, w.intervalMs)
      for (const level of ['low', 'medium', 'high'] as const) {
        const wait = LEVEL_SETTINGS[level].maxWaitBlocks
        for (const lag of lags) {
          if (h + lag + wait >= run.length) continue
          const key = `${level}:${lag}`
          const row = held.get(key) ?? { n: 0, held: 0, over: [] }
          row.n++
          let ok = true
          for (let j = 1; j <= wait; j++) if (run[h + lag + j]! > caps[level]) ok = false
          if (ok) row.held++
          row.over.push(ratio(caps[level], next))
          held.set(key, row)
        }
      }
    }
  }
  return {
    trials,
    forecast: coverageRows(cover),
    maxFee: (['low', 'medium', 'high'] as const).flatMap((level) =>
      lags.map((lag) => {
        const r = held.get(`${level}:${lag}`) ?? { n: 0, held: 0, over: [] }
        return { level, lag, trials: r.n, heldShare: r.n ? r.held / r.n : Number.NaN, medianOverNext: median(r.over) }
      }),
    ),
  }
}
