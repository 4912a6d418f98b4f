import { describe, expect, test } from 'vitest'
import { BLOB_BASE_COST, blobScheduleOf, GAS_PER_BLOB, type BlobFork, type BlobSchedule } from '@/lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt, maxExcessFor } from '@/lib/core/fee-math/blob-fees'
import {
  BLOB_FORECAST_HORIZONS,
  blobCapFor,
  blobForecast,
  calcExcessBlobGas,
  MIN_BLOB_HISTORY,
  MIN_BLOB_RUNS,
  type BlobForecastInput,
} from '@/lib/core/fee-math/blob-forecast'
import { createRandom } from '@/scripts/devnet/traffic-model'

const mainnet = blobScheduleOf(1) as BlobSchedule
const fork = (name: string): BlobFork => mainnet.find((f) => f.name === name)!
const BPO2 = fork('BPO2')
const PRAGUE = fork('Prague')
/** A head one block into BPO2, Prague's numbers a while before (no reserve in Prague). */
const T_BPO2 = BPO2.activatesAt + 86_400
const T_PRAGUE = PRAGUE.activatesAt + 86_400

/** Excess blob gas of a chain run by the protocol from `start` over these blob counts, under one fork. */
function run(start: bigint, counts: number[], f: BlobFork, baseFee = 0n): bigint[] {
  const out = [start]
  for (const c of counts) out.push(calcExcessBlobGas(f, out.at(-1)!, BigInt(c) * GAS_PER_BLOB, baseFee))
  return out
}

const input = (over: Partial<BlobForecastInput> & { blobCounts: number[] }): BlobForecastInput => ({
  nextExcess: 0n,
  schedule: mainnet,
  headTimestamp: T_BPO2,
  blockIntervalMs: 12_000,
  baseFee: 0n,
  ...over,
})

describe('blob forecast: synthetic markets', () => {
  test('default: k = 1 is the next blob base fee, exactly; p50 ≤ p90 ≤ p99 ≤ bound on every horizon', () => {
    const rnd = createRandom(5)
    const counts = Array.from({ length: 500 }, () => Math.floor(rnd() * 22))
    const nextExcess = 40_000_000n
    const f = blobForecast(input({ blobCounts: counts, nextExcess }))
    expect(f.method).toBe('window')
    expect(f.horizons).toHaveLength(BLOB_FORECAST_HORIZONS)
    expect(f.horizons[0]!.p50).toBe(blobBaseFeeAt(nextExcess, BPO2.params.updateFraction))
    expect(f.horizons[0]!.p99).toBe(f.horizons[0]!.p50)
    for (const h of f.horizons) {
      expect(h.p50 <= h.p90 && h.p90 <= h.p99 && h.p99 <= h.bound).toBe(true)
      expect(h.p50).toBeGreaterThanOrEqual(1n)
    }
  })

  test('behavior: a market at 1 wei (blocks under target) forecasts 1 wei at every quantile', () => {
    const counts = Array.from({ length: 500 }, (_, i) => i % 7) // at most 6 blobs, target 14
    const f = blobForecast(input({ blobCounts: counts }))
    for (const h of f.horizons) expect([h.p50, h.p90, h.p99]).toEqual([1n, 1n, 1n])
    // its bound still rises: every block at 21 blobs
    expect(f.horizons.at(-1)!.bound).toBeGreaterThan(1n)
  })

  test('behavior: a saturated market (every block at the maximum) forecasts the bound', () => {
    const counts = Array.from({ length: 500 }, () => BPO2.params.max)
    const f = blobForecast(input({ blobCounts: counts, nextExcess: 200_000_000n }))
    for (const h of f.horizons) expect(h.p50).toBe(h.bound)
  })

  test('behavior: a spike in the window (five blocks at the maximum among blocks at target) lifts p99, not p50', () => {
    const counts = Array.from({ length: 500 }, (_, i) => (i >= 300 && i < 305 ? BPO2.params.max : BPO2.params.target))
    const nextExcess = 100_000_000n
    const f = blobForecast(input({ blobCounts: counts, nextExcess }))
    const h10 = f.horizons[9]!
    // at target the excess holds: the median run changes nothing
    const rise = (n: number) => blobBaseFeeAt(nextExcess + BigInt(n * 7) * GAS_PER_BLOB, BPO2.params.updateFraction)
    expect(h10.p50).toBe(rise(0))
    expect(h10.p90).toBe(rise(0))
    // 13 of the 492 runs of 9 blocks hold part of the spike: the 0.995 quantile is in them
    expect(h10.p99).toBeGreaterThan(rise(0))
    expect(h10.p99).toBeLessThanOrEqual(rise(5))
  })

  test('behavior: a fork boundary inside the horizon: blocks after it take the new fork (more blobs per block, a slower fee)', () => {
    // Osaka (Prague's target 6, max 9) history at 8 blobs a block; BPO1 (target 10) from block head + 4
    const bpo1 = fork('BPO1')
    const head = bpo1.activatesAt - 4 * 12
    const counts = Array.from({ length: 500 }, () => 8)
    const nextExcess = 50_000_000n
    const f = blobForecast(input({ blobCounts: counts, nextExcess, headTimestamp: head, baseFee: 0n }))
    // blocks head + 2, head + 3 follow Osaka: +2 blobs over target each
    const osaka = fork('Osaka')
    const e3 = run(nextExcess, [8, 8], osaka)[2]!
    expect(f.horizons[2]!.p50).toBe(blobBaseFeeAt(e3, osaka.params.updateFraction))
    // from head + 4, BPO1: 8 blobs are under its target of 10, the excess falls
    const e5 = run(e3, [8, 8], bpo1)[2]!
    expect(e5).toBeLessThan(e3)
    expect(f.horizons[4]!.p50).toBe(blobBaseFeeAt(e5, bpo1.params.updateFraction))
  })

  test('behavior: the reserve price binding (EIP-7918): blocks under target still raise the excess while the blob fee is below base fee / 16', () => {
    const counts = Array.from({ length: 500 }, () => 4)
    const baseFee = 10_000_000_000n // 10 gwei: the reserve is 625,000,000 wei a blob gas
    // 20 blobs of excess: with 4 blobs a block the plain rule takes 10 off a block, the reserve branch adds 4 × 7/21
    const nextExcess = 20n * GAS_PER_BLOB
    expect(BLOB_BASE_COST * baseFee).toBeGreaterThan(GAS_PER_BLOB * blobBaseFeeAt(nextExcess, BPO2.params.updateFraction))
    const reserved = blobForecast(input({ blobCounts: counts, baseFee, nextExcess }))
    const plain = blobForecast(input({ blobCounts: counts, baseFee: 0n, nextExcess }))
    expect(plain.horizons.at(-1)!.p50).toBe(1n)
    const expected = run(
      nextExcess,
      Array.from({ length: 9 }, () => 4),
      BPO2,
      baseFee,
    )[9]!
    expect(expected).toBeGreaterThan(nextExcess)
    expect(reserved.horizons.at(-1)!.p50).toBe(blobBaseFeeAt(expected, BPO2.params.updateFraction))
  })

  test('behavior: the reserve follows the base fee along each run: a history whose base fee rose 5% a block keeps the reserve branch binding', () => {
    const baseFee = 10_000_000_000n
    const fraction = BPO2.params.updateFraction
    // the smallest excess at or above the reserve price of this base fee, and one blob under it
    const reserve = maxExcessFor((baseFee + 15n) / 16n - 1n, fraction) + 1n
    const nextExcess = reserve - GAS_PER_BLOB
    const counts = Array.from({ length: 500 }, () => 4)
    const baseFees = counts.map((_, i) => BigInt(Math.round(1e9 * 1.05 ** i)))
    const rising = blobForecast(input({ blobCounts: counts, baseFee, baseFees, nextExcess }))
    const held = blobForecast(input({ blobCounts: counts, baseFee, nextExcess }))
    // the reserve rises by fraction × ln 1.05 a block, faster than 4 blobs × 7/21 add: the branch holds every block
    const step = (4n * GAS_PER_BLOB * 7n) / 21n
    expect(rising.horizons.at(-1)!.p50).toBe(blobBaseFeeAt(nextExcess + 9n * step, fraction))
    // with the base fee held, the excess crosses the reserve after one block and the plain rule takes it down
    expect(held.horizons.at(-1)!.p50).toBeLessThan(rising.horizons.at(-1)!.p50)
  })

  test('errors: a history shorter than MIN_BLOB_HISTORY gives the bound at every quantile (but the exact next fee)', () => {
    const f = blobForecast(input({ blobCounts: Array.from({ length: MIN_BLOB_HISTORY - 1 }, () => 0), nextExcess: 30_000_000n }))
    expect(f.method).toBe('bound')
    for (const h of f.horizons.slice(1)) expect([h.p50, h.p90, h.p99]).toEqual([h.bound, h.bound, h.bound])
  })
})

describe('blob caps sized by the forecast', () => {
  test('behavior: a cap covers its share of replayed runs, between the next fee and the bound, rising with the share', () => {
    const rnd = createRandom(9)
    const counts = Array.from({ length: 500 }, () => (rnd() < 0.2 ? 21 : Math.floor(rnd() * 15)))
    const i = input({ blobCounts: counts, nextExcess: 80_000_000n })
    const next = blobBaseFeeAt(i.nextExcess, BPO2.params.updateFraction)
    const caps = [0.5, 0.9, 0.99].map((q) => blobCapFor(i, 6, q))
    expect(caps[0]!).toBeGreaterThanOrEqual(next)
    expect(caps[1]!).toBeGreaterThanOrEqual(caps[0]!)
    expect(caps[2]!).toBeGreaterThanOrEqual(caps[1]!)
    const bound = blobForecast(i).horizons[5]!.bound
    expect(caps[2]!).toBeLessThanOrEqual(bound)
    // the 90% cap is held by at least 90% of the window's own runs of 5 blocks after the next
    let held = 0
    const runs = counts.length - 4
    for (let j = 0; j < runs; j++) {
      const path = run(i.nextExcess, counts.slice(j, j + 5), BPO2)
      const top = path.reduce((a, b) => (b > a ? b : a))
      if (blobBaseFeeAt(top, BPO2.params.updateFraction) <= caps[1]!) held++
    }
    expect(held / runs).toBeGreaterThanOrEqual(0.9)
  })

  test("behavior: a market that never moved still gets one full block's rise: the cap is never under it", () => {
    const counts = Array.from({ length: 500 }, () => BPO2.params.target)
    const i = input({ blobCounts: counts, nextExcess: 80_000_000n })
    const oneBlock = blobBaseFeeAt(i.nextExcess + BigInt(BPO2.params.max - BPO2.params.target) * GAS_PER_BLOB, BPO2.params.updateFraction)
    expect(oneBlock).toBeGreaterThan(blobBaseFeeAt(i.nextExcess, BPO2.params.updateFraction))
    for (const q of [0.5, 0.9, 0.99]) expect(blobCapFor(i, 6, q)).toBe(oneBlock)
  })

  test('errors: a window too short for the wait (fewer than MIN_BLOB_RUNS runs of it) sizes no cap: the caller keeps the bound', () => {
    const counts = Array.from({ length: 100 }, () => 5)
    const i = input({ blobCounts: counts, nextExcess: 80_000_000n })
    expect(blobCapFor(i, 100 - MIN_BLOB_RUNS + 2, 0.9)).not.toBeNull()
    expect(blobCapFor(i, 100 - MIN_BLOB_RUNS + 3, 0.9)).toBeNull()
  })

  test('behavior: a wait across a fork that slows the fee (BPO1 to BPO2): the cap stays within the highest bound of its blocks and over the next fee', () => {
    const BPO1 = fork('BPO1')
    const counts = Array.from({ length: 500 }, () => BPO1.params.max)
    const i = input({ blobCounts: counts, nextExcess: 120_000_000n, headTimestamp: BPO2.activatesAt - 30 })
    const f = blobForecast(i)
    const bounds = f.horizons.slice(0, 8).map((h) => h.bound)
    const highest = bounds.reduce((a, b) => (b > a ? b : a))
    // the fork lowers the fee of an excess: some later block's bound is under an earlier one's
    expect(bounds.some((b, k) => k > 0 && b < bounds[k - 1]!)).toBe(true)
    const cap = blobCapFor(i, 8, 0.99)!
    expect(cap).toBeLessThanOrEqual(highest)
    expect(cap).toBeGreaterThanOrEqual(bounds[1]! < highest ? bounds[1]! : highest)
    expect(cap).toBeGreaterThan(f.horizons[0]!.p50)
  })

  test('behavior: Prague (no reserve price) at 1 wei: caps stay at the next fee when the window never passes target', () => {
    const counts = Array.from({ length: 500 }, () => 3)
    const i = input({ blobCounts: counts, headTimestamp: T_PRAGUE, baseFee: 50_000_000_000n })
    expect(blobCapFor(i, 9, 0.99)).toBe(1n)
  })
})
