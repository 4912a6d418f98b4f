// node --import tsx scripts/waits.ts [--data <dir>] – real mainnet waits against the waits each level promises, as markdown tables
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { parseCommandLine } from './cli/cli-args'
import { parseCsv } from './record/recording'
import { checkLevelsByWindow, parseDelayWindows, summarizeWindows } from './backtest/inclusion-delay'
import {
  checkPromises,
  toMempoolTxs,
  verdict,
  WAIT_MARKS_S,
  waitsByFeeRecord,
  waitsByTipBand,
  type WaitStats,
} from './backtest/mempool-waits'

// mainnet's slot: the interval the service measures there, so the promised waits are 12, 24, 36, 72 s
const MAINNET_BLOCK_MS = 12_000
const WAITS_CSV = join('eth-mainnet-mempool-waits-2025', 'waiting_time_txs.csv.gz')
const HISTORY_JSON = join('eth-mainnet-inclusion-delay-2025-2026', 'history.json')

const { values } = parseCommandLine('usage: npm run waits [-- --data <dir>]', { data: { type: 'string' } })
// resolved from this file, not the working directory: ../shared/data beside the checkout
const dir = values.data ?? fileURLToPath(new URL('../../shared/data', import.meta.url))
for (const file of [WAITS_CSV, HISTORY_JSON]) {
  if (!existsSync(join(dir, file))) {
    console.error(`no ${file} under ${dir}: pass --data <dir>, the folder holding the recorded mainnet data (see ../shared/data/README.md)`)
    process.exit(2)
  }
}

const int = (n: number) => n.toLocaleString('en-US')
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`)
const sec = (s: number | null, digits = 2) => (s === null ? '—' : s.toFixed(digits))
const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')

const statsHead = ['tip (gwei)', 'txs', 'negative', 'p50 (s)', 'p90 (s)', 'p95 (s)', 'p99 (s)', ...WAIT_MARKS_S.map((s) => `≤ ${s} s`)]
const statsRow = (b: WaitStats) => [
  b.label,
  int(b.count),
  int(b.negative),
  sec(b.p50),
  sec(b.p90),
  sec(b.p95),
  sec(b.p99),
  ...b.within.map(pct),
]

const rows = parseCsv(gunzipSync(readFileSync(join(dir, WAITS_CSV))).toString('utf8'))
const txs = toMempoolTxs(rows)
const bands = waitsByTipBand(txs)
const all = bands.at(-1)
const bounded = txs.filter((t) => t.tipMinWei !== t.tipMaxWei).length
const blocks = new Set(txs.map((t) => t.block)).size

console.log(
  `## Waits by effective tip: ${WAITS_CSV}, ${int(txs.length)} transactions in ${int(blocks)} blocks, ${int(all?.negative ?? 0)} negative waits counted as 0 s`,
)
console.log(table(statsHead, bands.map(statsRow)))

const records = waitsByFeeRecord(txs)
const overstated = records.find((r) => r.label === 'overstated')?.count ?? 0
console.log(
  `\n## Waits by fee record (recorded price vs the EIP-1559 charge): ${WAITS_CSV}, ${int(txs.length)} transactions, ${int(overstated)} recorded above the charge`,
)
console.log(table(['fee record', ...statsHead.slice(1)], records.map(statsRow)))

const consistent = txs.filter((t) => t.feeRecord === 'consistent')
const checks = checkPromises(txs, MAINNET_BLOCK_MS)
const consistentChecks = checkPromises(consistent, MAINNET_BLOCK_MS)
console.log(
  `\n## Promised waits vs real waits: ${WAITS_CSV}, ${int(txs.length)} transactions, ${int(consistent.length)} with a consistent fee record (${int(bounded)} with a tip known only within bounds: left out of a threshold inside them)`,
)
console.log(
  table(
    [
      'level',
      'promise',
      'target',
      'tip ≥ (gwei)',
      'txs',
      'left out',
      'waited ≤ promise',
      'verdict',
      'consistent txs',
      'waited ≤ promise',
      'verdict',
    ],
    checks.map((c, i) => {
      const k = consistentChecks[i]
      return [
        c.level,
        `≤ ${c.maxWaitS} s`,
        pct(c.target),
        c.minTipGwei,
        int(c.count),
        int(c.leftOut),
        pct(c.share),
        verdict(c.marginPoints),
        k ? int(k.count) : '—',
        k ? pct(k.share) : '—',
        k ? verdict(k.marginPoints) : '—',
      ]
    }),
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
