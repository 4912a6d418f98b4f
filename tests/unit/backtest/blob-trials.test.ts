import { describe, expect, test } from 'vitest'
import { blobScheduleOf, GAS_PER_BLOB, type BlobFork, type BlobSchedule } from '@/lib/core/chain-rules/blob-schedule'
import { calcExcessBlobGas } from '@/lib/core/fee-math/blob-forecast'
import type { BlobWindow } from '@/scripts/backtest/blob-csv'
import { blobBacktest } from '@/scripts/backtest/blob-trials'
import { createRandom } from '@/scripts/devnet/traffic-model'

const mainnet = blobScheduleOf(1) as BlobSchedule
const fork = (name: string): BlobFork => mainnet.find((f) => f.name === name)!

/** A window of `n` blocks 12 s apart from `start`, its excess made by the protocol from these counts and base fees. */
function chain(start: number, counts: number[], baseFees: bigint[], firstExcess: bigint): BlobWindow {
  const timestamps = counts.map((_, i) => start + 12 * i)
  const excess = [firstExcess]
  for (let i = 1; i < counts.length; i++) {
    const f = mainnet.filter((x) => x.activatesAt <= timestamps[i]!).at(-1)!
    excess.push(calcExcessBlobGas(f, excess[i - 1]!, BigInt(counts[i - 1]!) * GAS_PER_BLOB, baseFees[i - 1]!))
  }
  return { numbers: counts.map((_, i) => 1_000 + i), timestamps, blobCounts: counts, excess, baseFees, intervalMs: 12_000 }
}

describe('blob backtest', () => {
  test('behavior: a market held at 1 wei is covered by each quantile at its own share (ties split by the forecast mass), and at or under it always', () => {
    const n = 620
    const w = chain(
      fork('Prague').activatesAt + 86_400,
      Array.from({ length: n }, () => 0),
      Array.from({ length: n }, () => 0n),
      0n,
    )
    const b = blobBacktest(w)
    for (const r of b.blobForecast.slice(1)) {
      expect(r.trials).toBeGreaterThan(100)
      expect(r.p50Coverage).toBeCloseTo(0.5, 9)
      expect(r.p90Coverage).toBeCloseTo(0.9, 9)
      expect(r.p99Coverage).toBeCloseTo(0.995, 9)
      expect([r.p50AtOrUnder, r.p90AtOrUnder, r.p99AtOrUnder]).toEqual([1, 1, 1])
    }
  })

  // two backtests of 300 heads each: CPU work, budgeted for a loaded machine (docs/development.md, "Slow tests")
  test(
    'behavior: without a base-fee column the next block is judged with the estimate through its own branch, as the service knows its base fee: horizon 2 as covered as with the real base fee',
    { timeout: 60_000 },
    () => {
      const rnd = createRandom(5)
      const n = 2_000
      const counts = Array.from({ length: n }, () => Math.floor(rnd() * 22))
      // a base fee wandering ±10% a block (EIP-1559 allows 12.5%): the next block's branch often differs from the head's
      const baseFees: bigint[] = []
      let b = 50_000_000
      for (let i = 0; i < n; i++) baseFees.push(BigInt(Math.round((b *= 1 + (rnd() - 0.5) * 0.2))))
      const w = chain(fork('BPO2').activatesAt + 86_400, counts, baseFees, 60_000_000n)
      const known = blobBacktest(w, { every: 5 }).blobForecast[1]!
      const inferred = blobBacktest({ ...w, baseFees: null }, { every: 5 }).blobForecast[1]!
      expect(inferred.trials).toBe(known.trials)
      for (const q of ['p50Coverage', 'p90Coverage', 'p99Coverage'] as const) expect(Math.abs(inferred[q] - known[q])).toBeLessThan(0.02)
    },
  )
})
