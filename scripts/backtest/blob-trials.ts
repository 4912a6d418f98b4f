/**
 * The blob forecast's backtest: at every block of a blob window with a full service window (500 blocks)
 * before it, the forecast and the level caps made from what the service holds then, judged on the blob
 * base fees that followed (each from the block's excess and the fork at its timestamp).
 * - blobForecast: per horizon k, how often block head + k's blob base fee was at or under p50, p90, p99,
 *   and the median p99 over the next blob base fee.
 * - blobMaxFee: per level and serving lag L, how often the level's cap stayed at or above the blob base fee
 *   of every block of its promised wait after it was used (head + L + 1 … head + L + wait), the median cap
 *   over the next blob base fee, and the same median for the protocol-bound cap served before.
 * Without a base-fee column the reserve price (EIP-7918) is inferred: a block whose excess followed the
 * reserve branch had an execution base fee above 16 × its blob base fee, and the forecast is given the
 * largest such lower bound of the last 32 blocks (none: 0, the reserve never binds).
 */
import { BLOB_SCHEDULES, blobForkAt, GAS_PER_BLOB, type BlobSchedule } from '../../lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt, blobFeeCaps } from '../../lib/core/fee-math/blob-fees'
import { BLOB_FORECAST_HORIZONS, BLOB_QUANTILES, blobCapFor, blobForecast, calcExcessBlobGas } from '../../lib/core/fee-math/blob-forecast'
import { LEVEL_SETTINGS, levelHorizon } from '../../lib/core/fee-math/estimator'
import type { Urgency } from '../../lib/core/types'
import type { BlobWindow } from './blob-csv'
import { coverageRows, median, newCoverage, ratio, SERVICE_WINDOW, tally, type ForecastRow } from './forecast-trials'

export type BlobForecastRow = ForecastRow
export type BlobMaxFeeRow = {
  level: Urgency
  lag: number
  trials: number
  heldShare: number
  medianOverNext: number
  medianBoundOverNext: number
}
export type BlobBacktest = { blobForecast: BlobForecastRow[]; blobMaxFee: BlobMaxFeeRow[]; trials: number }

const RESERVE_MEMORY = 32

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
  // the reserve branch, block by block: block i + 1's excess from block i's did not follow the plain rule
  const reserveFloor: bigint[] = w.excess.map((e, i) => {
    if (i + 1 >= n || !forkOf(i + 1).reservePrice) return 0n
    const plain = calcExcessBlobGas({ ...forkOf(i + 1), reservePrice: false }, e, BigInt(w.blobCounts[i]!) * GAS_PER_BLOB, 0n)
    return plain === w.excess[i + 1] ? 0n : 16n * fees[i]! + 1n
  })
  const cover = newCoverage(BLOB_FORECAST_HORIZONS)
  const held = new Map<string, { n: number; held: number; over: number[]; bound: number[] }>()
  let trials = 0
  const maxWait = Math.max(...Object.values(LEVEL_SETTINGS).map((s) => s.maxWaitBlocks))
  for (let h = history - 1; h + 1 < n; h += every) {
    trials++
    const next = fees[h + 1]!
    let baseFee = 0n
    if (w.baseFees) baseFee = w.baseFees[h]!
    else for (let i = Math.max(0, h - RESERVE_MEMORY); i < h; i++) if (reserveFloor[i]! > baseFee) baseFee = reserveFloor[i]!
    const input = {
      nextExcess: w.excess[h + 1]!,
      blobCounts: w.blobCounts.slice(h - history + 1, h + 1),
      schedule,
      headTimestamp: w.timestamps[h]!,
      blockIntervalMs: w.intervalMs,
      baseFee,
    }
    const forecast = blobForecast(input)
    for (const f of forecast.horizons) {
      if (h + f.blocks >= n) break
      tally(cover[f.blocks - 1]!, fees[h + f.blocks]!, f, next)
    }
    const bounds = blobFeeCaps({ nextBlobBaseFee: next, schedule, headTimestamp: w.timestamps[h]!, blockIntervalMs: w.intervalMs })
    let floor = next
    for (const level of ['low', 'medium', 'high'] as const) {
      const sized = blobCapFor(input, levelHorizon(level, w.intervalMs), LEVEL_SETTINGS[level].targetInclusion)
      const capped = sized < bounds[level] ? sized : bounds[level]
      const cap = capped > floor ? capped : floor
      floor = cap
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
    blobForecast: coverageRows(cover),
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
    `\n## ${name}: ${w.numbers.length} blocks (${w.numbers[0]}–${w.numbers.at(-1)}), ${w.intervalMs} ms interval, ${b.trials} trials`,
    `\n### blob base fee forecast: share of trials at or under each quantile (p99 is the ${BLOB_QUANTILES.p99} quantile)\n`,
    '| horizon | trials | p50 | p90 | p99 | median p99 ÷ next |',
    '|---|---|---|---|---|---|',
    ...b.blobForecast.map(
      (r) =>
        `| ${r.horizon} | ${r.trials} | ${pct(r.p50Coverage)} | ${pct(r.p90Coverage)} | ${pct(r.p99Coverage)} | ${times(r.medianP99OverNext)} |`,
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
