// npm run backtest -- <recording.jsonl | shared> [--strategy ours,viem,…] [--json out.json]
import { writeFileSync } from 'node:fs'
import { runBacktest, type BacktestResult } from '../lib/fees/backtest'
import { toBlockStats } from '../lib/fees/block-stats'
import { STRATEGIES } from '../lib/fees/strategies'
import { loadRecording, loadSharedDatasets } from '../lib/datasets/shared-data'
import { takeOption } from '../lib/cli-args'

const args = process.argv.slice(2)
const opt = (name: string) => takeOption(args, name)
const names = opt('--strategy')?.split(',')
const jsonOut = opt('--json') ?? 'backtest-results.json'
const sharedRoot = opt('--shared')
const strategies = names ? STRATEGIES.filter((s) => names.includes(s.name)) : STRATEGIES
if (names && strategies.length !== names.length) {
  console.error(`unknown strategy in ${names.join(',')}; known: ${STRATEGIES.map((s) => s.name).join(', ')}`)
  process.exit(2)
}
if (args.length === 0) {
  console.error('usage: npm run backtest -- <recording.jsonl[.gz] | shared> [--strategy a,b] [--json out.json] [--shared dir]')
  process.exit(2)
}

const datasets = args.flatMap((a) => (a === 'shared' ? loadSharedDatasets(sharedRoot) : [{ name: a, recording: loadRecording(a) }]))
const results: BacktestResult[] = []
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`)
for (const { name, recording } of datasets) {
  const { blocks, intervalMs, tipsKnown } = toBlockStats(recording)
  const mode = tipsKnown ? 'fees' : 'base-fee'
  const result = runBacktest({ blocks, intervalMs, mode, strategies, source: name, chainId: recording.header.chainId })
  results.push(result)
  const trials = Math.max(0, ...result.metrics.map((m) => m.trials))
  console.log(
    `\n## ${name}: chain ${result.chainId}, ${blocks.length} blocks, ${intervalMs} ms interval, ${mode} mode, up to ${trials} trials`,
  )
  if (trials === 0) {
    console.log('(too short: a trial needs 20 blocks of history and the longest promised wait after it)')
    continue
  }
  if (mode === 'base-fee')
    console.log('(no per-transaction tips: inclusion counts whether the max fee minus the tip covers the base fee; no overpayment)')
  console.log(
    '| strategy | level | trials | promised blocks | inclusion in promise | median overpay | p90 overpay | mean wait (blocks) | calibration |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const m of result.metrics) {
    console.log(
      `| ${m.strategy} | ${m.level} | ${m.trials} | ${m.promisedBlocks} | ${pct(m.inclusionRate)} | ${pct(m.medianOverpayment)} | ${pct(m.p90Overpayment)} | ${m.meanWaitBlocks === null ? '—' : m.meanWaitBlocks.toFixed(2)} | ${pct(m.calibration)} |`,
    )
  }
}
writeFileSync(jsonOut, JSON.stringify(results, null, 2))
console.log(`\nwrote ${jsonOut}`)
