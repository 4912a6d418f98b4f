/**
 * The base-fee forecast's backtest on one window, as `npm run backtest` reports it: the JSON object
 * (issue 21, point 5) and the markdown it prints, with each number against its target (point 3:
 * p50 covers 45–55%, p90 88–92%, p99 ≥ 98.5% at horizons 2–10; point 4: each level's max fee held
 * over its promised wait in at least its promised share of trials).
 */
import { chainFeePolicy } from '../../lib/core/chain-rules/chain-policy'
import { LEVEL_SETTINGS } from '../../lib/core/fee-math/estimator'
import type { BaseFeeCsvWindow } from './base-fee-csv'
import { consecutiveRuns, forecastBacktest, SERVICE_WINDOW, type ForecastRow, type MaxFeeRow } from './forecast-trials'

/** The JSON `npm run backtest -- <file.csv> --json <out>` writes (coverages and shares as fractions 0–1). */
export type ForecastReport = {
  mode: 'forecast'
  /** the file read (or the shared dataset's name) */
  name: string
  file: string
  chainId: number
  blocks: number
  firstBlock: number
  lastBlock: number
  /** runs of consecutive blocks: 1 + the gaps in the block numbers (no trial spans a gap) */
  runs: number
  intervalMs: number
  intervalSource: BaseFeeCsvWindow['intervalSource']
  gasUsedSource: BaseFeeCsvWindow['gasUsedSource']
  /** the mean gas used over gas limit where known, null where never */
  meanGasUsedRatio: number | null
  /** blocks of history a trial needs (the service's window) */
  historyBlocks: number
  trials: number
  forecast: ForecastRow[]
  maxFee: MaxFeeRow[]
}

/** The calibration bands of issue 21 (point 3), judged at horizons 2…10 (horizon 1 is known exactly). */
export const COVERAGE_BANDS = [
  { key: 'p50Coverage', label: 'p50 45–55%', min: 0.45, max: 0.55 },
  { key: 'p90Coverage', label: 'p90 88–92%', min: 0.88, max: 0.92 },
  { key: 'p99Coverage', label: 'p99 ≥ 98.5%', min: 0.985, max: 1 },
] as const

/** Runs the forecast and max-fee trials on a window by its chain's policy, lags 0–2 unless given. */
export function forecastReport(
  input: { name: string; file: string; chainId: number; window: BaseFeeCsvWindow },
  opts: { lags?: number[] } = {},
): ForecastReport {
  const { window: w } = input
  const result = forecastBacktest(w, chainFeePolicy(input.chainId), { lags: opts.lags })
  const known = w.gasUsedRatio.filter((r): r is number => r !== null)
  return {
    mode: 'forecast',
    name: input.name,
    file: input.file,
    chainId: input.chainId,
    blocks: w.numbers.length,
    firstBlock: w.numbers[0]!,
    lastBlock: w.numbers.at(-1)!,
    runs: consecutiveRuns(w).length,
    intervalMs: w.intervalMs,
    intervalSource: w.intervalSource,
    gasUsedSource: w.gasUsedSource,
    meanGasUsedRatio: known.length ? known.reduce((a, b) => a + b, 0) / known.length : null,
    historyBlocks: SERVICE_WINDOW,
    trials: result.trials,
    forecast: result.forecast,
    maxFee: result.maxFee,
  }
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—')
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(3)}×` : '—')
const count = (x: number) => x.toLocaleString('en-US')

const GAS_USED = {
  columns: 'gas used from gas_used / gas_limit',
  'next-base-fee': 'gas used derived from the next base fee (EIP-1559 rule)',
  unknown: 'gas used unknown (no gas columns, and the chain has no EIP-1559 rule to derive it by)',
} as const

/** One line per band: at how many horizons 2–10 the coverage is in it, and which are not. */
function bandVerdict(rows: ForecastRow[]): string {
  const judged = rows.filter((r) => r.horizon >= 2 && r.trials > 0)
  if (judged.length === 0) return 'coverage bands: no trials at horizons 2–10'
  const parts = COVERAGE_BANDS.map((b) => {
    const out = judged.filter((r) => !(r[b.key] >= b.min && r[b.key] <= b.max))
    // two decimals: a near miss (98.47%) must not print as the bound itself
    const where = out.map((r) => `+${r.horizon} ${(r[b.key] * 100).toFixed(2)}%`).join(', ')
    return out.length === 0 ? `${b.label}: in at all ${judged.length}` : `${b.label}: OUT at ${out.length} of ${judged.length} (${where})`
  })
  return `coverage bands, horizons 2–10: ${parts.join('; ')}`
}

/** One line per level: whether its max fee held in its promised share of trials at every lag. */
function promiseVerdict(rows: MaxFeeRow[]): string {
  const parts = (['low', 'medium', 'high'] as const).map((level) => {
    const promise = LEVEL_SETTINGS[level].targetInclusion
    const mine = rows.filter((r) => r.level === level && r.trials > 0)
    if (mine.length === 0) return `${level} ≥ ${pct(promise)}: no trials`
    const missed = mine.filter((r) => !(r.heldShare >= promise))
    const lags = mine.map((r) => r.lag).join(', ')
    return missed.length === 0
      ? `${level} ≥ ${pct(promise)}: met at lag ${lags}`
      : `${level} ≥ ${pct(promise)}: MISSED at lag ${missed.map((r) => `${r.lag} (${(r.heldShare * 100).toFixed(2)}%)`).join(', ')}`
  })
  return `max fee promises: ${parts.join('; ')}`
}

/** The report as printed markdown lines: a heading, the forecast table, the max-fee table, a verdict under each. */
export function formatForecastReport(r: ForecastReport): string[] {
  const interval =
    r.intervalSource === 'timestamps'
      ? `${count(r.intervalMs)} ms interval (mean of the timestamps' gaps)`
      : `${count(r.intervalMs)} ms interval (no timestamps: 12 s slots assumed)`
  const fullness = r.meanGasUsedRatio === null ? '' : `, mean ${pct(r.meanGasUsedRatio)} of the gas limit`
  const out = [
    '',
    `## ${r.name}: base-fee forecast, chain ${r.chainId}, ${count(r.blocks)} blocks ${count(r.firstBlock)}–${count(r.lastBlock)}` +
      ` (${r.runs === 1 ? 'no gaps' : `${r.runs} runs split by gaps`}), ${interval}, ${GAS_USED[r.gasUsedSource]}${fullness}`,
  ]
  if (r.trials === 0) {
    out.push(
      `(too short: a trial needs ${r.historyBlocks} consecutive blocks of history and the next block, ${r.historyBlocks + 1} without a gap)`,
    )
    return out
  }
  out.push(
    '',
    `### forecast of block head + k's base fee: ${count(r.trials)} trials (the ${r.historyBlocks} base fees up to each head and the next one)`,
    bandVerdict(r.forecast),
    '| horizon k (blocks) | trials | p50 coverage | p90 coverage | p99 coverage | median p99 ÷ next base fee |',
    '|---|---|---|---|---|---|',
    ...r.forecast.map(
      (f) =>
        `| +${f.horizon} | ${f.trials} | ${pct(f.p50Coverage)} | ${pct(f.p90Coverage)} | ${pct(f.p99Coverage)} | ${times(f.medianP99OverNext)} |`,
    ),
    '',
    "### max fee's base-fee cap, held over the promised wait after a serving lag (no tips in a base-fee window)",
    promiseVerdict(r.maxFee),
    '| level | promise | serving lag (blocks) | trials | held | median max fee ÷ next base fee |',
    '|---|---|---|---|---|---|',
    ...r.maxFee.map(
      (m) =>
        `| ${m.level} | ${pct(LEVEL_SETTINGS[m.level].targetInclusion)} | ${m.lag} | ${m.trials} | ${pct(m.heldShare)} | ${times(m.medianOverNext)} |`,
    ),
  )
  return out
}
