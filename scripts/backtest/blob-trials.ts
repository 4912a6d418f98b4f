/**
 * The blob forecast's backtest: at every block of a blob window with a full service window (500 blocks)
 * before it, the forecast and the level caps made from what the service holds then, judged on the blob
 * base fees that followed (each from the block's excess and the fork at its timestamp).
 * - blobForecast: per horizon k, how often block head + k's blob base fee was at or under p50, p90, p99,
 *   and the median p99 over the next blob base fee.
 * - blobMaxFee: per level and serving lag L, how often the level's cap stayed at or above the blob base fee
 *   of every block of its promised wait after it was used (head + L + 1 … head + L + wait), the median cap
 *   over the next blob base fee, and the same median for the protocol-bound cap served before.
 * Without a base-fee column the execution base fee (EIP-7918's reserve price) is inferred from which branch
 * each excess followed (base-fee-inference.ts); a trial sees the estimates up to the next block, as the
 * service sees the base fees.
 */
import { BLOB_SCHEDULES, blobForkAt, type BlobSchedule } from '../../lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt, blobFeeCaps, blobLevelCaps } from '../../lib/core/fee-math/blob-fees'
import {
  BLOB_FORECAST_HORIZONS,
  BLOB_QUANTILES,
  blobForecast,
  blobForecastRuns,
  type BlobForecastRuns,
} from '../../lib/core/fee-math/blob-forecast'
import { LEVEL_SETTINGS } from '../../lib/core/fee-math/estimator'
import type { Urgency } from '../../lib/core/types'
import type { BlobWindow } from './blob-csv'
import { inferBaseFees } from './base-fee-inference'
import { coverageRows, median, newCoverage, ratio, SERVICE_WINDOW, tally, type Coverage, type ForecastRow } from './forecast-trials'

/** Coverage counts ties by the forecast's own mass (see tallyTies); the `AtOrUnder` shares count a tie as covered. */
export type BlobForecastRow = ForecastRow & { p50AtOrUnder: number; p90AtOrUnder: number; p99AtOrUnder: number }
export type BlobMaxFeeRow = {
  level: Urgency
  lag: number
  trials: number
  heldShare: number
  medianOverNext: number
  medianBoundOverNext: number
}
export type BlobBacktest = {
  blobForecast: BlobForecastRow[]
  blobMaxFee: BlobMaxFeeRow[]
  trials: number
  /** Where the execution base fee came from: the file's column, or inferred from the blob data (only EIP-7918 reads it). */
  baseFee: 'column' | 'inferred'
}

/** How many of the sorted runs' blob base fees are below `fee` (`strict`) or at most `fee`. */
function runsAtOrUnder(sorted: Float64Array, fraction: bigint, fee: bigint, strict: boolean): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const f = blobBaseFeeAt(BigInt(Math.round(sorted[mid]!)), fraction)
    if (strict ? f < fee : f <= fee) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Counts one trial of horizon k with ties split by the forecast's own mass (the non-randomized PIT of Czado,
 * Gneiting and Held, Biometrics 2009, for discrete outcomes): where a share m of the runs sit exactly at the
 * actual fee, above a share F below it, the trial counts (q − F) ÷ m toward the q-quantile's coverage, clamped to
 * [0, 1]. A fee that holds at 1 wei is then not "covered" by every quantile alike. Horizon 1 is exact: counted plain.
 */
function tallyTies(
  c: Coverage,
  actual: bigint,
  f: { blocks: number; p50: bigint; p90: bigint; p99: bigint },
  next: bigint,
  runs: BlobForecastRuns,
): void {
  const sorted = runs.sorted?.[f.blocks - 1]
  if (f.blocks === 1 || !sorted) return tally(c, actual, f, next)
  const fraction = runs.fractions[f.blocks - 1]!
  const below = runsAtOrUnder(sorted, fraction, actual, true) / sorted.length
  const atOrBelow = runsAtOrUnder(sorted, fraction, actual, false) / sorted.length
  const share = (q: number) => (atOrBelow === below ? (below < q ? 1 : 0) : Math.min(1, Math.max(0, (q - below) / (atOrBelow - below))))
  c.n++
  c.p50 += share(BLOB_QUANTILES.p50)
  c.p90 += share(BLOB_QUANTILES.p90)
  c.p99 += share(BLOB_QUANTILES.p99)
  c.over.push(ratio(f.p99, next))
}

/** Runs the blob trials on a window (Ethereum mainnet's schedule unless given); lags 0–2; every `every`-th head. */
export function blobBacktest(
  w: BlobWindow,
  opts: { schedule?: BlobSchedule; lags?: number[]; every?: number; history?: number } = {},
): BlobBacktest {
  const schedule = opts.schedule ?? BLOB_SCHEDULES[1]!
  const lags = opts.lags ?? [0, 1, 2]
  const every = opts.every ?? 1
  const history = opts.history ?? SERVICE_WINDOW
  const n = w.numbers.length
  const forkOf = (i: number) => blobForkAt(schedule, w.timestamps[i]!)!
  const fees = w.excess.map((e, i) => blobBaseFeeAt(e, forkOf(i).params.updateFraction))
  const baseFees = w.baseFees ?? inferBaseFees(w, schedule)
  const cover = newCoverage(BLOB_FORECAST_HORIZONS)
  const plain = newCoverage(BLOB_FORECAST_HORIZONS)
  const held = new Map<string, { n: number; held: number; over: number[]; bound: number[] }>()
  let trials = 0
  const maxWait = Math.max(...Object.values(LEVEL_SETTINGS).map((s) => s.maxWaitBlocks))
  for (let h = history - 1; h + 1 < n; h += every) {
    trials++
    const next = fees[h + 1]!
    const input = {
      nextExcess: w.excess[h + 1]!,
      blobCounts: w.blobCounts.slice(h - history + 1, h + 1),
      schedule,
      headTimestamp: w.timestamps[h]!,
      blockIntervalMs: w.intervalMs,
      // the next block's base fee, as the service reads it (eth_feeHistory's last entry). Inferred, it is the
      // estimate through the next block's own branch: which side of 16 × its blob base fee the base fee sits on,
      // something the service knows at the head (both fees). Where that block is full (or the excess resets)
      // its branch shows nothing and the estimate is the filter's guess: the service would know the side there
      baseFee: baseFees[h + 1]!,
      baseFees: baseFees.slice(h - history + 1, h + 1),
    }
    const runs = blobForecastRuns(input)
    for (const f of blobForecast(input, runs).horizons) {
      if (h + f.blocks >= n) break
      tallyTies(cover[f.blocks - 1]!, fees[h + f.blocks]!, f, next, runs)
      tally(plain[f.blocks - 1]!, fees[h + f.blocks]!, f, next)
    }
    const capInput = { nextBlobBaseFee: next, schedule, headTimestamp: w.timestamps[h]!, blockIntervalMs: w.intervalMs }
    const bounds = blobFeeCaps(capInput)
    const caps = blobLevelCaps(input, capInput)
    for (const level of ['low', 'medium', 'high'] as const) {
      const cap = caps[level]
      const wait = LEVEL_SETTINGS[level].maxWaitBlocks
      for (const lag of lags) {
        if (h + lag + wait >= n || h + lag + maxWait >= n) continue
        let top = 0n
        for (let k = h + lag + 1; k <= h + lag + wait; k++) if (fees[k]! > top) top = fees[k]!
        const key = `${level}:${lag}`
        const r = held.get(key) ?? { n: 0, held: 0, over: [], bound: [] }
        r.n++
        if (cap >= top) r.held++
        r.over.push(ratio(cap, next))
        r.bound.push(ratio(bounds[level], next))
        held.set(key, r)
      }
    }
  }
  return {
    trials,
    baseFee: w.baseFees ? 'column' : 'inferred',
    blobForecast: coverageRows(cover).map((r, i) => ({
      ...r,
      p50AtOrUnder: plain[i]!.p50 / plain[i]!.n,
      p90AtOrUnder: plain[i]!.p90 / plain[i]!.n,
      p99AtOrUnder: plain[i]!.p99 / plain[i]!.n,
    })),
    blobMaxFee: (['low', 'medium', 'high'] as const).flatMap((level) =>
      lags.map((lag) => {
        const r = held.get(`${level}:${lag}`) ?? { n: 0, held: 0, over: [], bound: [] }
        return {
          level,
          lag,
          trials: r.n,
          heldShare: r.n ? r.held / r.n : Number.NaN,
          medianOverNext: median(r.over),
          medianBoundOverNext: median(r.bound),
        }
      }),
    ),
  }
}

/** The backtest's printed tables for one window. */
export function formatBlobBacktest(name: string, w: BlobWindow, b: BlobBacktest): string[] {
  const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`)
  const times = (x: number) => (Number.isNaN(x) ? '—' : `${x.toFixed(3)}×`)
  const out = [
    `\n## ${name}: ${w.numbers.length} blocks (${w.numbers[0]}–${w.numbers.at(-1)}), ${w.intervalMs} ms interval, ${b.trials} trials, base fee ${b.baseFee === 'column' ? "from the file's column" : 'inferred from the blob data (read only where EIP-7918 is active)'}`,
    `\n### blob base fee forecast: coverage of each quantile, ties split by the forecast's mass (at or under, a tie covered) (p99 is the ${BLOB_QUANTILES.p99} quantile)\n`,
    '| horizon | trials | p50 | p90 | p99 | median p99 ÷ next |',
    '|---|---|---|---|---|---|',
    ...b.blobForecast.map(
      (r) =>
        `| ${r.horizon} | ${r.trials} | ${pct(r.p50Coverage)} (${pct(r.p50AtOrUnder)}) | ${pct(r.p90Coverage)} (${pct(r.p90AtOrUnder)}) | ${pct(r.p99Coverage)} (${pct(r.p99AtOrUnder)}) | ${times(r.medianP99OverNext)} |`,
    ),
    '\n### maxFeePerBlobGas held over the promised wait after a serving lag\n',
    '| level | promise | serving lag | trials | held | median cap ÷ next | median protocol-bound cap ÷ next |',
    '|---|---|---|---|---|---|---|',
    ...b.blobMaxFee.map(
      (r) =>
        `| ${r.level} | ${pct(LEVEL_SETTINGS[r.level].targetInclusion)} | ${r.lag} | ${r.trials} | ${pct(r.heldShare)} | ${times(r.medianOverNext)} | ${times(r.medianBoundOverNext)} |`,
    ),
  ]
  return out
}
