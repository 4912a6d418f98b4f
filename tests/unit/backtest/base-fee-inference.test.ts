import { describe, expect, test } from 'vitest'
import { blobScheduleOf, GAS_PER_BLOB, type BlobSchedule } from '@/lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt } from '@/lib/core/fee-math/blob-price'
import { calcExcessBlobGas } from '@/lib/core/fee-math/blob-forecast'
import { inferBaseFees } from '@/scripts/backtest/base-fee-inference'
import type { BlobWindow } from '@/scripts/backtest/blob-csv'
import { createRandom } from '@/scripts/devnet/traffic-model'

const mainnet = blobScheduleOf(1) as BlobSchedule
const bpo2 = mainnet.find((f) => f.name === 'BPO2')!

/** BPO2 blocks 12 s apart with random blob counts and a base fee wandering ±`step` a block from 0.05 gwei; excess by the protocol. */
function chain(seed: number, n: number, step: number): BlobWindow {
  const rnd = createRandom(seed)
  const counts = Array.from({ length: n }, () => Math.floor(rnd() * 22))
  const baseFees: bigint[] = []
  let b = 50_000_000
  for (let i = 0; i < n; i++) baseFees.push(BigInt(Math.round((b *= 1 + (rnd() * 2 - 1) * step))))
  const excess = [60_000_000n]
  for (let i = 1; i < n; i++) excess.push(calcExcessBlobGas(bpo2, excess[i - 1]!, BigInt(counts[i - 1]!) * GAS_PER_BLOB, baseFees[i - 1]!))
  const start = bpo2.activatesAt + 86_400
  return {
    numbers: counts.map((_, i) => 1_000 + i),
    timestamps: counts.map((_, i) => start + 12 * i),
    blobCounts: counts,
    excess,
    baseFees,
    intervalMs: 12_000,
  }
}

/** The q-quantile of |ln(x[i + k] ÷ x[i])| over i ≥ from. */
function spread(x: readonly bigint[], k: number, q: number, from: number): number {
  const r: number[] = []
  for (let i = from; i + k < x.length; i++) r.push(Math.abs(Math.log(Number(x[i + k]!) / Number(x[i]!))))
  r.sort((a, b) => a - b)
  return r[Math.floor(q * (r.length - 1))]!
}

// thousands of synthetic blocks per test: CPU work, budgeted for a loaded machine (docs/development.md, "Slow tests")
describe('base fee inferred from blob data', { timeout: 30_000 }, () => {
  test('behavior: where the reserve price binds part of the time, the estimate tracks the real base fee', () => {
    const w = chain(3, 3_000, 0.03)
    const inferred = inferBaseFees({ ...w, baseFees: null }, mainnet)
    // after a warm-up, |ln(inferred ÷ real)|: the median within 5%, nine blocks in ten within 15%
    const errors = inferred
      .slice(200)
      .map((x, i) => Math.abs(Math.log(Number(x) / Number(w.baseFees![i + 200]!))))
      .sort((x, y) => x - y)
    expect(errors[Math.floor(errors.length / 2)]!).toBeLessThan(0.05)
    expect(errors[Math.floor(errors.length * 0.9)]!).toBeLessThan(0.15)
  })

  test("behavior: every estimate sits on the side of 16 × the blob base fee that the block's own branch says", () => {
    const w = chain(7, 2_000, 0.05)
    const inferred = inferBaseFees({ ...w, baseFees: null }, mainnet)
    let checked = 0
    for (let i = 0; i + 1 < w.numbers.length; i++) {
      const used = BigInt(w.blobCounts[i]!) * GAS_PER_BLOB
      const plain = calcExcessBlobGas({ ...bpo2, reservePrice: false }, w.excess[i]!, used, 0n)
      const reserve = calcExcessBlobGas(bpo2, w.excess[i]!, used, 1n << 120n)
      if (plain === reserve) continue
      const edge = 16n * blobBaseFeeAt(w.excess[i]!, bpo2.params.updateFraction)
      checked++
      if (w.excess[i + 1] === reserve) expect(inferred[i]!).toBeGreaterThan(edge)
      else expect(inferred[i]!).toBeLessThanOrEqual(edge)
    }
    expect(checked).toBeGreaterThan(1_000)
  })

  test("behavior: the estimate's spread over 9 blocks follows the real base fee's, narrow or wide (the step model is the likeliest one)", () => {
    for (const step of [0.015, 0.1]) {
      const w = chain(11, 4_000, step)
      const inferred = inferBaseFees({ ...w, baseFees: null }, mainnet)
      const real = spread(w.baseFees!, 9, 0.9, 500)
      const est = spread(inferred, 9, 0.9, 500)
      expect(est / real, `step ±${step}: 90th percentile of |ln ratio| over 9 blocks, inferred ${est}, real ${real}`).toBeGreaterThan(0.7)
      expect(est / real).toBeLessThan(1.4)
    }
  })

  test("behavior: an estimate depends on no later block's branch (the filter runs forward only)", () => {
    const w = chain(13, 1_500, 0.05)
    const full = inferBaseFees({ ...w, baseFees: null }, mainnet)
    const m = 900
    const cut = (a: readonly unknown[]) => a.slice(0, m)
    const prefix = inferBaseFees(
      {
        ...w,
        numbers: cut(w.numbers) as number[],
        timestamps: cut(w.timestamps) as number[],
        blobCounts: cut(w.blobCounts) as number[],
        excess: cut(w.excess) as bigint[],
        baseFees: null,
      },
      mainnet,
    )
    // the prefix's last block has no child to show its branch: every earlier one is the same
    expect(prefix.slice(0, m - 1)).toEqual(full.slice(0, m - 1))
    expect(full.slice(200).every((x) => x > 0n)).toBe(true)
  })
})
