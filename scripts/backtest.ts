// npm run backtest -- <recording.jsonl[.gz] | window.csv[.gz] | shared> [--strategy ours,viem,…] [--judge lenient,moderate,strict] [--lag 0,1,2] [--chain 1] [--json out.json] [--every n] [--infer-base-fee]
import { writeFileSync } from 'node:fs'
import { runBacktest, WARMUP_BLOCKS, type BacktestResult, type LevelMetrics } from '../lib/core/evaluation/backtest'
import { chainFeePolicy } from '../lib/core/chain-rules/chain-policy'
import { toBlockStats } from './backtest/block-stats'
import { JUDGES } from '../lib/core/evaluation/judge'
import { STRATEGIES } from './backtest/strategies'
import { ETHEREUM_1559 } from './backtest/base-fee-csv'
import {
  InputFileError,
  isBlobCsvFile,
  isCsvFile,
  loadBaseFeeCsv,
  loadBlobCsv,
  loadRecording,
  loadSharedBaseFeeWindows,
  loadSharedDatasets,
  type SharedBaseFeeWindow,
} from './backtest/datasets'
import { forecastReport, formatForecastReport, type ForecastReport } from './backtest/forecast-report'
import type { Recording } from './record/recording'
import { blobBacktest, formatBlobBacktest, type BlobBacktest } from './backtest/blob-trials'
import type { BlobWindow } from './backtest/blob-csv'
import { parseCommandLine, usageExit } from './cli/cli-args'
import { runConfidenceBacktest, type ConfidenceRow } from '../lib/core/evaluation/confidence-backtest'

const usage =
  'usage: npm run backtest -- <recording.jsonl[.gz] | window.csv[.gz] | shared> [--strategy a,b] [--judge lenient,moderate,strict] [--lag 0,1,2] [--chain id] [--json out.json] [--shared dir] [--every n] [--infer-base-fee]'
const { values, positionals: args } = parseCommandLine(
  usage,
  {
    strategy: { type: 'string' },
    judge: { type: 'string' },
    lag: { type: 'string' },
    json: { type: 'string' },
    shared: { type: 'string' },
    chain: { type: 'string' },
    every: { type: 'string' },
    'infer-base-fee': { type: 'boolean' },
  },
  { positionals: true },
)
const names = values.strategy?.split(',')
const judgeNames = values.judge?.split(',')
const lags = (values.lag ?? '0,1,2').split(',').map(Number)
const jsonOut = values.json ?? 'backtest-results.json'
const sharedRoot = values.shared
const chainId = Number(values.chain ?? '1')
/** Blob windows: a trial at every n-th block (1: every block). */
const every = Number(values.every ?? '1')
/** Blob windows: ignore a base-fee column and infer the base fee as for a window without one (the inference judged where the truth is known). */
const inferBaseFee = values['infer-base-fee'] === true
const strategies = names ? STRATEGIES.filter((s) => names.includes(s.name)) : STRATEGIES
const judges = judgeNames ? JUDGES.filter((j) => judgeNames.includes(j.name)) : JUDGES
if (names && strategies.length !== names.length) {
  console.error(`unknown strategy in ${names.join(',')}; known: ${STRATEGIES.map((s) => s.name).join(', ')}`)
  process.exit(2)
}
if (judgeNames && judges.length !== judgeNames.length) {
  console.error(`unknown judge in ${judgeNames.join(',')}; known: ${JUDGES.map((j) => j.name).join(', ')}`)
  process.exit(2)
}
if (!Number.isSafeInteger(chainId) || chainId <= 0) usageExit(usage, `--chain ${values.chain}: not a chain id`)
if (!Number.isSafeInteger(every) || every <= 0) usageExit(usage, `--every ${values.every}: not a positive whole number`)
if (args.length === 0 || lags.some((l) => !Number.isInteger(l) || l < 0 || l > 10)) {
  console.error(usage)
  process.exit(2)
}

/** One input: a recording (the strategies' backtest) or a base-fee window (the forecast's). */
type Input =
  | { kind: 'recording'; name: string; recording: Recording }
  | ({ kind: 'base-fee' } & SharedBaseFeeWindow)
  | { kind: 'blob'; name: string; window: BlobWindow }

// a CSV window's gas used follows from its next base fee only by Ethereum's own rule: other chains'
// rules are configuration (OP-stack) or capped (Polygon), so there it stays unknown
const rule = chainFeePolicy(chainId).family === 'ethereum' ? ETHEREUM_1559 : null
const load = (a: string): Input[] =>
  a === 'shared'
    ? [
        ...loadSharedDatasets(sharedRoot).map((d) => ({ kind: 'recording' as const, ...d })),
        ...loadSharedBaseFeeWindows(sharedRoot).map((w) => ({ kind: 'base-fee' as const, ...w })),
      ]
    : isCsvFile(a) && isBlobCsvFile(a)
      ? [{ kind: 'blob', name: a, window: loadBlobCsv(a) }]
      : isCsvFile(a)
        ? [{ kind: 'base-fee', name: a, file: a, chainId, window: loadBaseFeeCsv(a, rule) }]
        : [{ kind: 'recording', name: a, recording: loadRecording(a) }]

// every input is read before any work: a file that cannot be read is one line on stderr, exit code 1
const inputs = args.flatMap((a) => {
  try {
    return load(a)
  } catch (err) {
    // an InputFileError names its file; anything else (no shared data) is named by the argument
    const message = err instanceof InputFileError ? err.message : `${a}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`
    console.error(`backtest: ${message}`)
    process.exit(1)
  }
})
const results: (BacktestResult & { confidence?: ConfidenceRow[] })[] = []
const forecasts: ForecastReport[] = []
const blobs: (BlobBacktest & { name: string })[] = []
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`)
const num = (x: number | null, d = 3) => (x === null ? '—' : x.toFixed(d))
const points = (m: LevelMetrics) =>
  `${m.inclusionRate >= m.targetInclusion ? '+' : '−'}${Math.abs(100 * (m.inclusionRate - m.targetInclusion)).toFixed(1)}`

/** ours' verdict on the issue's targets for one run: inclusion per level, overpayment against references that match it. */
function verdict(r: BacktestResult): string {
  const get = (s: string, l: string) => r.metrics.find((m) => m.strategy === s && m.level === l)
  const out: string[] = []
  for (const level of ['low', 'medium', 'high'] as const) {
    const ours = get('ours', level)
    if (!ours || ours.trials === 0) continue
    const meets = ours.inclusionRate >= ours.targetInclusion
    let line = `${level} ${pct(ours.inclusionRate)} (${meets ? 'meets' : 'MISSES'} ${pct(ours.targetInclusion)}; ${points(ours)} points)`
    if (r.mode === 'fees' && ours.medianOverpayment !== null) {
      const rivals = r.metrics.filter(
        (m) => m.level === level && m.strategy !== 'ours' && m.inclusionRate >= ours.inclusionRate && m.medianOverpayment !== null,
      )
      const cheaper = rivals.filter((m) => (m.medianOverpayment ?? 0) <= (ours.medianOverpayment ?? 0)).map((m) => m.strategy)
      line += cheaper.length
        ? `, overpays more than ${cheaper.join(', ')}`
        : rivals.length
          ? ', overpays least of those that match it'
          : ', no reference matches its inclusion'
    }
    out.push(line)
  }
  return out.join('; ')
}

/**
 * The confidence levels against their bands: included at least c − 2 points, at most c + 5 unless the tip was the
 * chain's floor in most trials (nothing cheaper was on offer), and a higher confidence never asking a lower tip.
 */
function confidenceVerdict(rows: ConfidenceRow[]): string {
  const out: string[] = []
  for (const r of rows) {
    if (r.trials === 0) continue
    const share = 100 * r.includedShare
    if (share < r.confidence - 2) out.push(`${r.confidence} MISSES its floor (${share.toFixed(1)}% < ${r.confidence - 2}%)`)
    else if (share > r.confidence + 5 && r.atFloorShare < 0.5)
      out.push(`${r.confidence} overshoots (${share.toFixed(1)}% > ${r.confidence + 5}%, tip above the chain floor)`)
  }
  const sorted = [...rows].sort((a, b) => a.confidence - b.confidence)
  for (const [i, r] of sorted.entries()) {
    const lower = sorted[i - 1]
    if (lower && (r.medianTipGwei ?? 0) < (lower.medianTipGwei ?? 0)) out.push(`${r.confidence} asks less than ${lower.confidence}`)
  }
  return out.length ? out.join('; ') : 'every level within its band (c − 2 … c + 5 points, or at the chain floor)'
}

for (const input of inputs) {
  if (input.kind === 'blob') {
    const b = blobBacktest(inferBaseFee ? { ...input.window, baseFees: null } : input.window, { lags, every })
    blobs.push({ name: input.name, ...b })
    for (const line of formatBlobBacktest(input.name, input.window, b)) console.log(line)
    continue
  }
  if (input.kind === 'base-fee') {
    const report = forecastReport(input, { lags })
    forecasts.push(report)
    for (const line of formatForecastReport(report)) console.log(line)
    continue
  }
  const { name, recording } = input
  const { blocks, intervalMs, tipsKnown } = toBlockStats(recording)
  const mode = tipsKnown ? 'fees' : 'base-fee'
  console.log(`\n## ${name}: chain ${recording.header.chainId}, ${blocks.length} blocks, ${intervalMs} ms interval, ${mode} mode`)
  if (blocks.length < WARMUP_BLOCKS + Math.max(...lags) + 7) {
    console.log(`(too short: a trial needs ${WARMUP_BLOCKS} blocks of history, the serving lag and the longest promised wait after it)`)
    continue
  }
  if (mode === 'base-fee')
    console.log(
      '(no per-transaction tips: inclusion counts whether the max fee minus the tip covers the base fee; no judge, no overpayment)',
    )
  for (const judge of mode === 'fees' ? judges : judges.slice(0, 1)) {
    for (const lag of lags) {
      const result = runBacktest({
        blocks,
        intervalMs,
        mode,
        strategies,
        source: name,
        chainId: recording.header.chainId,
        judge,
        lagBlocks: lag,
      })
      // the confidence levels (GET /gasprices/blockprices), judged on the next block alone
      const confidence =
        mode === 'fees'
          ? runConfidenceBacktest({ blocks, intervalMs, chainId: recording.header.chainId, judge, lagBlocks: lag })
          : undefined
      results.push(confidence ? { ...result, confidence } : result)
      const trials = Math.max(0, ...result.metrics.map((m) => m.trials))
      console.log(
        `\n### ${mode === 'fees' ? `judge ${judge.name} (${judge.description}), ` : ''}serving lag ${lag} block${lag === 1 ? '' : 's'}: up to ${trials} trials`,
      )
      if (trials === 0) {
        console.log(`(too short: a trial needs 20 blocks of history, ${lag} of lag and the longest promised wait after it)`)
        continue
      }
      console.log(`ours: ${verdict(result)}`)
      console.log(
        '| strategy | level | trials | promised blocks | in promise | vs claimed share (points) | median overpay | p90 overpay | mean wait (blocks) | OCB gap p50 (gwei) | OCB gap p99 (gwei) |',
      )
      console.log('|---|---|---|---|---|---|---|---|---|---|---|')
      for (const m of result.metrics) {
        console.log(
          `| ${m.strategy} | ${m.level} | ${m.trials} | ${m.promisedBlocks} | ${pct(m.inclusionRate)} | ${points(m)} | ${pct(m.medianOverpayment)} | ${pct(m.p90Overpayment)} | ${num(m.meanWaitBlocks, 2)} | ${num(m.medianGapGwei, 4)} | ${num(m.p99GapGwei, 4)} |`,
        )
      }
      if (confidence && confidence.some((c) => c.trials > 0)) {
        console.log(`\nconfidence levels (fees sent at block N, included in block N+1): ${confidenceVerdict(confidence)}`)
        console.log(
          '| confidence | trials | included | vs confidence (points) | median tip (gwei) | median overpay | tip at the chain floor |',
        )
        console.log('|---|---|---|---|---|---|---|')
        for (const c of confidence) {
          console.log(
            `| ${c.confidence} | ${c.trials} | ${pct(c.includedShare)} | ${(100 * c.includedShare - c.confidence >= 0 ? '+' : '−') + Math.abs(100 * c.includedShare - c.confidence).toFixed(1)} | ${num(c.medianTipGwei, 4)} | ${c.medianOverpayPct === null ? '—' : `${c.medianOverpayPct.toFixed(1)}%`} | ${pct(c.atFloorShare)} |`,
          )
        }
      }
    }
  }
}
// one CSV window: its report is the whole file (a base-fee window's forecast and max-fee tables, or a blob
// window's blobForecast and blobMaxFee); otherwise the list, the forecasts after the runs
const single = args.length === 1 && isCsvFile(args[0]!) ? (blobs[0] ?? forecasts[0]) : undefined
writeFileSync(jsonOut, JSON.stringify(single ?? [...results, ...forecasts, ...blobs], null, 2))
console.log(`\nwrote ${jsonOut}`)
