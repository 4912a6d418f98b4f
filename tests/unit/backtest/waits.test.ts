import { describe, expect, test } from 'vitest'
import type { CsvRow } from '@/scripts/record/recording'
import { checkLevelsByWindow, parseDelayWindows, summarizeWindows, type DelayWindow } from '@/scripts/backtest/inclusion-delay'
import {
  baseFeeBounds,
  checkPromises,
  paidAtLeast,
  shareWithin,
  tipBand,
  toMempoolTxs,
  UNDECIDED_TIP_LABEL,
  verdict,
  waitsByFeeRecord,
  waitsByTipBand,
  waitStats,
  type MempoolTx,
} from '@/scripts/backtest/mempool-waits'
import { readCsv, readJson } from '../../support/shared-data'

const GWEI = 1_000_000_000n

/** A waiting_time_txs.csv row with the columns the functions read (wei as decimal strings). */
function row(block: number, tipCap: bigint, feeCap: bigint, effective: bigint, implied: string, wait = '6.000'): CsvRow {
  return {
    block_height: String(block),
    gas_tip_cap: String(tipCap),
    gas_fee_cap: String(feeCap),
    effective_gas_price_wei: String(effective),
    implied_base_fee_wei: implied,
    wait_seconds: wait,
  }
}

const tx = (tipMinWei: bigint, waitS: number, tipMaxWei = tipMinWei): MempoolTx => ({
  block: 1,
  tipMinWei,
  tipMaxWei,
  feeRecord: 'consistent',
  waitMs: waitS * 1000,
})

describe('toMempoolTxs', () => {
  // block 100's base fee is 1 gwei (row A implies it); block 101 has no uncapped row, 1 block later;
  // block 200 has none and no known block within 32
  const rows = [
    row(100, GWEI / 10n, 5n * GWEI, 1_100_000_000n, '1000000000'), // A: uncapped, pays its tip cap
    row(100, 2n * GWEI, 1_050_000_000n, 1_050_000_000n, ''), // B: the cap binds, 0.05 gwei above the base fee
    row(100, 5_010_000_000n, 15_030_000_000n, 15_030_000_000n, ''), // C: price recorded at the fee cap
    row(100, 3n * GWEI, 3n * GWEI, 3n * GWEI, ''), // D: legacy, 3 gwei gas price
    row(100, 7n * GWEI, 7n * GWEI, 7n * GWEI - 1n, '-1'), // E: fees / gas rounded down, read as uncapped
    row(101, 2n * GWEI, 1_500_000_000n, 1_500_000_000n, ''), // F: capped, base fee within 1 block's step
    row(200, 300_000_000n, GWEI, GWEI, '', '-2.500'), // G: capped, base fee anywhere in [0, 1 gwei]
  ]
  const txs = toMempoolTxs(rows)
  // F: base fee in [1 gwei · 7/8, ⌈1 gwei · 9/8⌉ + 2 wei] = [875,000,000, 1,125,000,002]
  // G: base fee in [0, 1 gwei]: tip in [min(0.3, 1 − 1), min(0.3, 1 − 0)] gwei
  test.each([
    ['A uncapped', 0, 100_000_000n, 100_000_000n, 'consistent'],
    ['B cap binds', 1, 50_000_000n, 50_000_000n, 'consistent'],
    ['C price recorded at the fee cap', 2, 5_010_000_000n, 5_010_000_000n, 'overstated'],
    ['D legacy', 3, 2n * GWEI, 2n * GWEI, 'consistent'],
    ['E implied −1', 4, 6n * GWEI, 6n * GWEI, 'consistent'],
    ['F neighbour block', 5, 1_500_000_000n - 1_125_000_002n, 1_500_000_000n - 875_000_000n, 'consistent'],
    ['G no neighbour', 6, 0n, 300_000_000n, 'undecided'],
  ] as const)('behavior: %s', (_, i, tipMin, tipMax, record) => {
    expect(txs[i]).toMatchObject({ tipMinWei: tipMin, tipMaxWei: tipMax, feeRecord: record })
  })

  test('behavior: waits in ms, negative kept (waitStats counts them as 0)', () => {
    expect(txs.map((t) => t.waitMs)).toEqual([6000, 6000, 6000, 6000, 6000, 6000, -2500])
  })

  test('behavior: the most frequent implied base fee is the block’s', () => {
    // 2 rows imply 1,000,000,001 (fees / gas rounded down once), 1 row 1,000,000,000
    const [a, b, capped] = toMempoolTxs([
      row(7, 100n, 2n * GWEI, 1_000_000_101n, '1000000001'),
      row(7, 100n, 2n * GWEI, 1_000_000_101n, '1000000001'),
      row(7, 2n * GWEI, 1_000_000_201n, 1_000_000_201n, ''),
    ])
    expect([a?.tipMinWei, b?.tipMinWei, capped?.tipMinWei]).toEqual([100n, 100n, 200n])
  })
})

describe('baseFeeBounds', () => {
  const known = new Map([
    [103, GWEI],
    [105, GWEI],
    [300, 10n * GWEI],
  ])
  const blocks = [...known.keys()]
  test.each([
    ['a known block', 103, 5n * GWEI, [GWEI, GWEI]],
    // from 103: [875,000,000, 1,125,000,002]; from 105: [⌊(1e9 − 2) · 8/9⌋, ⌈1e9 · 8/7⌉] = [888,888,887, 1,142,857,143]
    ['between two known blocks', 104, 5n * GWEI, [888_888_887n, 1_125_000_002n]],
    ['bounded by the fee cap', 104, GWEI, [888_888_887n, GWEI]],
    ['33 blocks from any known block', 138, 5n * GWEI, [0n, 5n * GWEI]],
    // 1 block after a 10 gwei base fee yet in with a 1 gwei cap: the neighbour is not believed
    ['bounds contradicting the inclusion', 301, GWEI, [0n, GWEI]],
  ] as const)('args: %s', (_, n, feeCap, want) => {
    expect(baseFeeBounds(n, known, blocks, feeCap)).toEqual(want)
  })
})

describe('tipBand', () => {
  test.each([
    [0n, '≤ 2 wei'],
    [2n, '≤ 2 wei'],
    [3n, '(2 wei, 0.01)'],
    [9_999_999n, '(2 wei, 0.01)'],
    [10_000_000n, '[0.01, 0.1)'],
    [499_999_999n, '[0.1, 0.5)'],
    [500_000_000n, '[0.5, 1)'],
    [1_999_999_999n, '[1, 2)'],
    [2n * GWEI, '[2, ∞)'],
    [10n ** 20n, '[2, ∞)'],
  ])('args: %s wei is in %s', (tip, label) => {
    expect(tipBand(tip).label).toBe(label)
  })
})

describe('waitStats', () => {
  test('default: negative waits count as 0 s and are reported', () => {
    // clamped and sorted: 0, 5, 10, 13, 30, 80 s; nearest rank: p50 = 3rd, p90/p95/p99 = 6th
    const s = waitStats(
      'x',
      [-3, 5, 10, 13, 30, 80].map((w) => tx(GWEI, w)),
    )
    expect(s).toEqual({ label: 'x', count: 6, negative: 1, p50: 10, p90: 80, p95: 80, p99: 80, within: [3 / 6, 4 / 6, 5 / 6, 5 / 6] })
  })
  test('behavior: an empty set has no statistics', () => {
    expect(waitStats('none', [])).toEqual({
      label: 'none',
      count: 0,
      negative: 0,
      p50: null,
      p90: null,
      p95: null,
      p99: null,
      within: [null, null, null, null],
    })
  })
})

describe('shareWithin', () => {
  test.each([
    [[12], 12_000, 1], // the bound is inclusive
    [[12.001], 12_000, 0],
    [[-5], 0, 1], // seen after its block: waited 0 s
    [[1, 2, 30, 40], 24_000, 0.5],
    [[], 24_000, 0],
  ])('args: waits %j s within %s ms is %s', (waits, maxMs, want) => {
    expect(
      shareWithin(
        waits.map((w) => tx(GWEI, w)),
        maxMs,
      ),
    ).toBe(want)
  })
})

describe('waitsByTipBand / waitsByFeeRecord', () => {
  test('default: one row per band, the straddling rows, then all', () => {
    const txs = [tx(1n, 0), tx(5_000_000n, 20), tx(5_000_000n, 40), tx(3n * GWEI, 4), tx(5_000_000n, 8, 20_000_000n)]
    const counts = Object.fromEntries(waitsByTipBand(txs).map((s) => [s.label, s.count]))
    expect(counts).toEqual({
      '≤ 2 wei': 1,
      '(2 wei, 0.01)': 2,
      '[0.01, 0.1)': 0,
      '[0.1, 0.5)': 0,
      '[0.5, 1)': 0,
      '[1, 2)': 0,
      '[2, ∞)': 1,
      [UNDECIDED_TIP_LABEL]: 1,
      all: 5,
    })
    expect(waitsByTipBand(txs).find((s) => s.label === '(2 wei, 0.01)')?.within).toEqual([0, 0.5, 0.5, 1])
  })
  test('default: one row per kind of fee record, then all', () => {
    const txs = [tx(GWEI, 5), { ...tx(GWEI, 50), feeRecord: 'overstated' as const }, { ...tx(GWEI, 60), feeRecord: 'overstated' as const }]
    expect(waitsByFeeRecord(txs).map((s) => [s.label, s.count, s.p50])).toEqual([
      ['consistent', 1, 5],
      ['overstated', 2, 50],
      ['understated', 0, null],
      ['undecided', 0, null],
      ['all', 3, 50],
    ])
  })
})

describe('paidAtLeast', () => {
  test.each([
    ['known tip above', tx(GWEI, 1), GWEI / 2n, true],
    ['known tip equal', tx(GWEI, 1), GWEI, true],
    ['known tip below', tx(GWEI, 1), 2n * GWEI, false],
    ['bounds straddle', tx(GWEI / 2n, 1, 2n * GWEI), GWEI, null],
    ['bounds all below', tx(0n, 1, GWEI / 2n), GWEI, false],
    ['any tip is ≥ 0', tx(0n, 1, 2n * GWEI), 0n, true],
  ] as const)('args: %s', (_, t, min, want) => {
    expect(paidAtLeast(t, min)).toBe(want)
  })
})

describe('checkPromises', () => {
  // 19 paid 1 gwei and waited 10 s, 1 paid 1 gwei and waited 30 s, 2 paid 0.005 gwei and waited
  // 100 s, 1 paid between 0.005 and 0.02 gwei and waited 5 s
  const txs = [
    ...Array.from({ length: 19 }, () => tx(GWEI, 10)),
    tx(GWEI, 30),
    tx(5_000_000n, 100),
    tx(5_000_000n, 100),
    tx(5_000_000n, 5, 20_000_000n),
  ]
  test('default: every level against every bound, on 12 s blocks', () => {
    const got = checkPromises(txs, 12_000, ['0', '0.01']).map((c) => [
      c.level,
      c.maxWaitS,
      c.target,
      c.minTipGwei,
      c.count,
      c.leftOut,
      c.share,
    ])
    expect(got).toEqual([
      ['low', 72, 0.9, '0', 23, 0, 21 / 23],
      ['low', 72, 0.9, '0.01', 20, 1, 1],
      ['medium', 36, 0.95, '0', 23, 0, 21 / 23],
      ['medium', 36, 0.95, '0.01', 20, 1, 1],
      ['high', 24, 0.99, '0', 23, 0, 20 / 23],
      ['high', 24, 0.99, '0.01', 20, 1, 19 / 20],
    ])
  })
  test('behavior: the margin is share − target in points', () => {
    const high = checkPromises(txs, 12_000, ['0.01']).find((c) => c.level === 'high')
    expect(high?.marginPoints).toBeCloseTo(-4, 9)
    expect(verdict(high?.marginPoints ?? 0)).toBe('misses by 4.0 points')
  })
  test('args: the block interval scales the promise', () => {
    expect(checkPromises(txs, 2_000, ['0']).map((c) => c.maxWaitS)).toEqual([12, 6, 4])
  })
})

describe('verdict', () => {
  test.each([
    [0.4, 'meets (+0.4 points)'],
    [0, 'meets (+0.0 points)'],
    [-1.24, 'misses by 1.2 points'],
    [-0.01, 'misses by < 0.1 points'],
  ])('args: %s points', (m, want) => {
    expect(verdict(m)).toBe(want)
  })
})

describe('inclusion-delay windows', () => {
  const at = (median: number, p90: number, p99: number, num_txs: number, timestamp: string): DelayWindow => ({
    median,
    mean: median,
    p90,
    p99,
    num_txs,
    timestamp,
    basefee_gwei: 0.1,
  })
  const windows = [
    at(5, 10, 20, 30, '2025-10-06T00:00:00'),
    at(7, 25, 40, 20, '2025-10-05T18:00:00'),
    at(6, 30, 80, 40, '2025-10-06T06:00:00'),
    at(9, 12, 24, 10, '2025-10-06T12:00:00'),
  ]
  test('default: share of windows within each level’s wait (inclusive)', () => {
    expect(checkLevelsByWindow(windows, 12_000)).toEqual([
      { level: 'low', maxWaitS: 72, target: 0.9, windows: 4, p90Within: 1, p99Within: 0.75 },
      { level: 'medium', maxWaitS: 36, target: 0.95, windows: 4, p90Within: 1, p99Within: 0.5 },
      { level: 'high', maxWaitS: 24, target: 0.99, windows: 4, p90Within: 0.5, p99Within: 0.5 },
    ])
  })
  test('default: summary, lower medians of the windows’ statistics', () => {
    expect(summarizeWindows(windows)).toEqual({
      windows: 4,
      txs: 100,
      first: '2025-10-05T18:00:00',
      last: '2025-10-06T12:00:00',
      medianOfMedians: 6,
      medianOfP90s: 12,
      medianOfP99s: 24,
      worstP99: 80,
    })
  })
  test('behavior: no windows', () => {
    expect(summarizeWindows([])).toMatchObject({ windows: 0, txs: 0, first: null, medianOfMedians: null, worstP99: null })
    expect(checkLevelsByWindow([], 12_000).map((c) => c.p99Within)).toEqual([0, 0, 0])
  })
  test('behavior: fields not read (mempool_timing) are dropped', () => {
    const [w] = parseDelayWindows([{ ...windows[0], slot: 1, mempool_timing: [1, 2] }])
    expect(w).toEqual(windows[0])
  })
  test('error: a window without p99', () => {
    expect(() => parseDelayWindows([{ median: 1, mean: 1, p90: 2, num_txs: 3, timestamp: 't', basefee_gwei: 1 }])).toThrow(/p99/)
  })
})

describe('real data: BlockCypher mainnet waits 2025 and txdelay.xyz windows', () => {
  const rows = readCsv('eth-mainnet-mempool-waits-2025', 'waiting_time_txs.csv.gz')
  const txs = toMempoolTxs(rows)
  const bands = waitsByTipBand(txs)
  const all = bands.at(-1)

  test('behavior: 20,444 transactions, median wait 5–7 s (README: 5.85 s), about 5% seen after their block', () => {
    expect(txs).toHaveLength(20_444)
    expect(all?.label).toBe('all')
    expect(all?.p50).toBeGreaterThan(5)
    expect(all?.p50).toBeLessThan(7)
    expect((all?.negative ?? 0) / txs.length).toBeGreaterThan(0.04)
    expect((all?.negative ?? 0) / txs.length).toBeLessThan(0.06)
  })

  test('behavior: the bands (with the straddling rows) and the fee records each add up to every row', () => {
    expect(bands.slice(0, -1).reduce((n, b) => n + b.count, 0)).toBe(txs.length)
    expect(
      waitsByFeeRecord(txs)
        .slice(0, -1)
        .reduce((n, b) => n + b.count, 0),
    ).toBe(txs.length)
  })

  test('behavior: a row with an implied base fee paid its tip cap; no row records less than EIP-1559 charges', () => {
    const uncapped = rows.flatMap((r, i) => (Number(r.implied_base_fee_wei) > 0 ? [[BigInt(r.gas_tip_cap ?? -1), txs[i]] as const] : []))
    expect(uncapped.length).toBeGreaterThan(15_000)
    for (const [tipCap, t] of uncapped) expect([t?.tipMinWei, t?.tipMaxWei]).toEqual([tipCap, tipCap])
    expect(txs.filter((t) => t.feeRecord === 'understated')).toHaveLength(0)
  })

  test('behavior: 820 six-hour windows, each with median ≤ p90 ≤ p99', () => {
    const windows = parseDelayWindows(readJson('eth-mainnet-inclusion-delay-2025-2026', 'history.json'))
    expect(windows).toHaveLength(820)
    expect(new Set(windows.map((w) => w.timestamp)).size).toBe(820)
    for (const w of windows) {
      expect(w.median).toBeLessThanOrEqual(w.p90)
      expect(w.p90).toBeLessThanOrEqual(w.p99)
    }
  })
})
