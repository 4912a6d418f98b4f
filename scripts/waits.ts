// node --import tsx scripts/waits.ts [--data <dir>] – real mainnet waits against the waits each level promises, as markdown tables
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { takeOption } from '../lib/cli-args'
import { parseCsv } from '../lib/fees/recording'
import { checkLevelsByWindow, parseDelayWindows, summarizeWindows } from './backtest/inclusion-delay'
import { checkPromises, toMempoolTxs, verdict, WAIT_MARKS_S, waitsByTipBand } from './backtest/mempool-waits'

// mainnet's slot: the interval the service measures there, so the promised waits are 12, 24, 36, 72 s
const MAINNET_BLOCK_MS = 12_000
const WAITS_CSV = join('eth-mainnet-mempool-waits-2025', 'waiting_time_txs.csv.gz')
const HISTORY_JSON = join('eth-mainnet-inclusion-delay-2025-2026', 'history.json')

const args = process.argv.slice(2)
// resolved from this file, not the working directory: ../shared/data beside the checkout
const dir = takeOption(args, '--data') ?? fileURLToPath(new URL('../../shared/data', import.meta.url))
if (args.length > 0) {
  console.error('usage: node --import tsx scripts/waits.ts [--data <dir>]')
  process.exit(2)
}
for (const file of [WAITS_CSV, HISTORY_JSON]) {
  if (!existsSync(join(dir, file))) {
    console.error(`no ${file} under ${dir}: pass --data <dir>, the folder holding the recorded mainnet data (see ../shared/data/README.md)`)
    process.exit(2)
  }
}

const int = (n: number) => n.toLocaleString('en-US')
const pct = (x: number) => `${(x * 100).toFixed(1)}%`
const sec = (s: number | null, digits = 2) => (s === null ? '—' : s.toFixed(digits))
const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')

const rows = parseCsv(gunzipSync(readFileSync(join(dir, WAITS_CSV))).toString('utf8'))
const txs = toMempoolTxs(rows)
const bands = waitsByTipBand(txs)
const all = bands.at(-1)
const unknown = txs.filter((t) => t.tipWei === null).length
const blocks = new Set(txs.map((t) => t.block)).size

console.log(
  `## Waits by effective tip: ${WAITS_CSV}, ${int(txs.length)} transactions in ${int(blocks)} blocks, ${int(all?.negative ?? 0)} negative waits counted as 0 s`,
)
console.log(
  table(
    ['tip (gwei)', 'txs', 'negative', 'p50 (s)', 'p90 (s)', 'p95 (s)', 'p99 (s)', ...WAIT_MARKS_S.map((s) => `≤ ${s} s`)],
    bands.map((b) => [b.label, int(b.count), int(b.negative), sec(b.p50), sec(b.p90), sec(b.p95), sec(b.p99), ...b.within.map(pct)]),
  ),
)

console.log(
  `\n## Promised waits vs real waits: ${WAITS_CSV}, ${int(txs.length)} transactions (${int(unknown)} with an unknown tip, left out of a bound they may not reach)`,
)
console.log(
  table(
    ['level', 'promise', 'tip ≥ (gwei)', 'txs', 'left out', 'waited ≤ promise', 'target', 'verdict'],
    checkPromises(txs, MAINNET_BLOCK_MS).map((c) => [
      c.level,
      `≤ ${c.maxWaitS} s`,
      c.minTipGwei,
      int(c.count),
      int(c.leftOut),
      pct(c.share),
      pct(c.target),
      verdict(c.marginPoints),
    ]),
  ),
)

const windows = parseDelayWindows(JSON.parse(readFileSync(join(dir, HISTORY_JSON), 'utf8')))
const summary = summarizeWindows(windows)
console.log(
  `\n## Fee-viable inclusion time per 6-hour window: ${HISTORY_JSON}, ${int(summary.windows)} windows from ${summary.first} to ${summary.last}, ${int(summary.txs)} transactions`,
)
console.log(
  table(
    ['windows', 'txs', 'median of medians (s)', 'median of p90s (s)', 'median of p99s (s)', 'worst p99 (s)'],
    [
      [
        int(summary.windows),
        int(summary.txs),
        sec(summary.medianOfMedians, 1),
        sec(summary.medianOfP90s, 1),
        sec(summary.medianOfP99s, 1),
        sec(summary.worstP99, 1),
      ],
    ],
  ),
)

console.log(`\n## Promised waits vs 6-hour windows: ${HISTORY_JSON}, ${int(summary.windows)} windows`)
console.log(
  table(
    ['level', 'promise', 'target', 'windows', 'windows with p90 ≤ promise', 'windows with p99 ≤ promise'],
    checkLevelsByWindow(windows, MAINNET_BLOCK_MS).map((c) => [
      c.level,
      `≤ ${c.maxWaitS} s`,
      pct(c.target),
      int(c.windows),
      pct(c.p90Within),
      pct(c.p99Within),
    ]),
  ),
)
