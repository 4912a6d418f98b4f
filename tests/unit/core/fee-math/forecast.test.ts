import { describe, expect, test } from 'vitest'
import { chainFeePolicy, DEFAULT_FEE_POLICY, withLiveParams } from '@/lib/core/chain-rules/chain-policy'
import {
  baseFeeCap,
  baseFeeQuantile,
  fitForecast,
  forecastBaseFee,
  FORECAST_HORIZONS,
  MIN_FORECAST_STEPS,
} from '@/lib/core/fee-math/forecast'
import { createRandom } from '@/scripts/devnet/traffic-model'

const GWEI = 1_000_000_000n
const ethereum = chainFeePolicy(1)

/** next × (1 + ppm/10⁶)^k, each step rounded up. */
function grown(next: bigint, ppm: bigint, k: number): bigint {
  let v = next
  for (let i = 0; i < k; i++) v = (v * (1_000_000n + ppm) + 999_999n) / 1_000_000n
  return v
}

/**
 * An EIP-1559 base-fee path: each block's fullness u (gas used over target, 0–2) moves the next base
 * fee by (u − 1) / denominator, as go-ethereum's CalcBaseFee does (rounding aside). Returns the
 * window (all but the last) and the next base fee.
 */
function path(start: bigint, fullness: number[], denominator = 8): { baseFees: bigint[]; next: bigint } {
  const fees = [start]
  for (const u of fullness) {
    const b = fees.at(-1)!
    const delta = (b * BigInt(Math.round((u - 1) * 1_000_000))) / (BigInt(denominator) * 1_000_000n)
    fees.push(b + delta > 0n ? b + delta : 1n)
  }
  return { baseFees: fees.slice(0, -1), next: fees.at(-1)! }
}

/** A calm market: fullness around 1 (the target), persistent, as mainnet's blocks are. */
function calm(blocks: number, seed: number): number[] {
  const rnd = createRandom(seed)
  const out: number[] = []
  let u = 1
  for (let i = 0; i < blocks; i++) {
    u = 1 + 0.6 * (u - 1) + (rnd() - 0.5) * 0.9
    out.push(Math.min(2, Math.max(0, u)))
  }
  return out
}

const gwei = (wei: bigint) => Number(wei) / 1e9

describe('forecastBaseFee', () => {
  test('default: 10 horizons; k = 1 is the next base fee exactly; p50 ≤ p90 ≤ p99 ≤ bound; the bound is 12.5% a block on Ethereum', () => {
    const { baseFees, next } = path(30n * GWEI, calm(500, 1))
    const f = forecastBaseFee(baseFees, next, ethereum)
    expect(f.method).toBe('window')
    expect(f.estimatedBaseFee).toBe(next)
    expect(f.horizons.map((h) => h.blocks)).toEqual(Array.from({ length: FORECAST_HORIZONS }, (_, i) => i + 1))
    expect(f.horizons[0]).toEqual({ blocks: 1, p50: next, p90: next, p99: next, bound: next })
    for (const h of f.horizons) {
      expect(h.bound).toBe(grown(next, 125_000n, h.blocks - 1))
      expect(h.p50 <= h.p90 && h.p90 <= h.p99 && h.p99 <= h.bound!).toBe(true)
    }
    // a calm market's fan is far inside the bound: p99 at +10 well under 1.125⁹ ≈ 2.89×
    expect(gwei(f.horizons[9]!.p99) / gwei(next)).toBeLessThan(1.6)
    // and it widens with the horizon
    expect(f.horizons[9]!.p99 - f.horizons[9]!.p50 > f.horizons[2]!.p99 - f.horizons[2]!.p50).toBe(true)
  })

  test("behavior: a flat chain (Linea's 7 wei, BSC's 0): every quantile is the next base fee; no bound where the chain enforces none", () => {
    const linea = forecastBaseFee(Array(500).fill(7n), 7n, chainFeePolicy(59144))
    for (const h of linea.horizons) expect(h).toEqual({ blocks: h.blocks, p50: 7n, p90: 7n, p99: 7n, bound: null })
    const bsc = forecastBaseFee(Array(500).fill(0n), 0n, chainFeePolicy(56))
    for (const h of bsc.horizons) expect(h).toEqual({ blocks: h.blocks, p50: 0n, p90: 0n, p99: 0n, bound: null })
  })

  test('behavior: a burst: after a calm window, ten full blocks in a row lift the whole fan (the fullness persists), within the bound', () => {
    const quiet = calm(500, 2)
    const before = path(30n * GWEI, quiet)
    const burst = path(30n * GWEI, [...quiet.slice(10), ...Array(10).fill(2)])
    const f0 = forecastBaseFee(before.baseFees, before.next, ethereum)
    const f1 = forecastBaseFee(burst.baseFees, burst.next, ethereum)
    const rel = (f: typeof f0, k: number, q: 'p50' | 'p99') => gwei(f.horizons[k - 1]![q]) / gwei(f.estimatedBaseFee)
    // calm: the median stays near the next base fee; in the burst it keeps rising
    expect(Math.abs(rel(f0, 5, 'p50') - 1)).toBeLessThan(0.05)
    expect(rel(f1, 5, 'p50')).toBeGreaterThan(1.05)
    expect(rel(f1, 5, 'p99')).toBeGreaterThan(rel(f0, 5, 'p99'))
    for (const h of f1.horizons) expect(h.p99 <= h.bound!).toBe(true)
  })

  test('behavior: a long full spell (the last 150 blocks all full): the fan follows the rise up to the bound, never past it', () => {
    const { baseFees, next } = path(10n * GWEI, [...calm(350, 3), ...Array(150).fill(2)])
    const f = forecastBaseFee(baseFees, next, ethereum)
    for (const h of f.horizons.slice(1)) {
      expect(h.p99).toBe(h.bound)
      // the median expects the spell to go on for a while: well above flat
      expect(gwei(h.p50) / gwei(next)).toBeGreaterThan(1.05 ** (h.blocks - 1))
    }
  })

  test("behavior: OP-stack's bound comes from the head's extraData: 2% a block (denominator 250, elasticity 6), 4% (100, 5); none when the head carries none", () => {
    const { baseFees, next } = path(GWEI / 100n, calm(500, 4), 250)
    const holocene = forecastBaseFee(baseFees, next, withLiveParams(chainFeePolicy(10), '0x00000000fa00000006'))
    const base = forecastBaseFee(baseFees, next, withLiveParams(chainFeePolicy(8453), '0x000000006400000005'))
    const none = forecastBaseFee(baseFees, next, withLiveParams(chainFeePolicy(10), undefined))
    for (const k of [2, 5, 10]) {
      expect(holocene.horizons[k - 1]!.bound).toBe(grown(next, 20_000n, k - 1))
      expect(base.horizons[k - 1]!.bound).toBe(grown(next, 40_000n, k - 1))
      expect(none.horizons[k - 1]!.bound).toBeNull()
    }
    // a 250-denominator chain moves little: its fan is narrow, inside the 2% bound
    const h10 = holocene.horizons[9]!
    expect(h10.p99 <= h10.bound!).toBe(true)
    expect(gwei(h10.p99) / gwei(next)).toBeLessThan(1.1)
  })

  test("behavior: an OP-stack chain falling onto its Jovian minimum base fee: no quantile below the minimum the head's extraData carries", () => {
    // empty blocks (deposits only) on a 250-denominator chain: −0.4% a block from 0.02 gwei, the
    // rule's floor at 0.005 gwei (op-geth: max(minBaseFee, CalcBaseFee))
    const min = 5_000_000n
    const fees = [20_000_000n]
    for (let i = 0; i < 500; i++) {
      const b = fees.at(-1)!
      const fallen = b - b / 250n
      fees.push(fallen < min ? min : fallen)
    }
    // still falling: the last step above the floor
    const baseFees = fees.slice(-200, -1).map((b, i) => b + BigInt(199 - i) * 40_000n)
    const next = baseFees.at(-1)! - baseFees.at(-1)! / 250n
    const jovian = '0x' + '01' + '000000fa' + '00000006' + min.toString(16).padStart(16, '0')
    const policy = withLiveParams(chainFeePolicy(10), jovian)
    expect(policy.minBaseFeeWei).toBe(min)
    const f = forecastBaseFee(baseFees, next, policy)
    expect(f.method).toBe('window')
    for (const h of f.horizons) for (const q of [h.p50, h.p90, h.p99]) expect(q >= min).toBe(true)
    // without the minimum the same window forecasts below it: the bound is what the test checks
    const unfloored = forecastBaseFee(baseFees, next, withLiveParams(chainFeePolicy(10), '0x00000000fa00000006'))
    expect(unfloored.horizons.some((h) => h.p50 < min)).toBe(true)
  })

  test.each(['0x02000000fa00000006', '0x01000000fa00000006', '0x00000000fa0000000600', '0x00zz0000fa00000006'])(
    'behavior: an extraData of an unknown version or length (%s) is read as no live parameters, never an error',
    (extra) => {
      expect(withLiveParams(chainFeePolicy(10), extra)).toEqual(chainFeePolicy(10))
    },
  )

  test('behavior: a chain with no bound (an unknown chain) forecasts from its own steps, even steps larger than 12.5%', () => {
    // steps of ±20% a block, alternating runs: more than EIP-1559 allows
    const rnd = createRandom(5)
    const fees = [GWEI]
    for (let i = 0; i < 500; i++) fees.push((fees.at(-1)! * BigInt(rnd() < 0.5 ? 120 : 84)) / 100n)
    const f = forecastBaseFee(fees.slice(0, -1), fees.at(-1)!, DEFAULT_FEE_POLICY)
    expect(f.method).toBe('window')
    for (const h of f.horizons) expect(h.bound).toBeNull()
    // two blocks ahead, its p99 is past the 12.5% a bounded chain would allow
    expect(gwei(f.horizons[1]!.p99) / gwei(f.estimatedBaseFee)).toBeGreaterThan(1.125)
  })

  test(`behavior: a window under ${MIN_FORECAST_STEPS} steps is not forecast: every quantile is the bound, and the max-fee cap too`, () => {
    const { baseFees, next } = path(30n * GWEI, calm(40, 6))
    const f = forecastBaseFee(baseFees, next, ethereum)
    expect(f.method).toBe('bound')
    for (const h of f.horizons) expect([h.p50, h.p90, h.p99]).toEqual([h.bound, h.bound, h.bound])
    expect(baseFeeCap(fitForecast(baseFees, next, ethereum), 9, 0.9)).toBe(grown(next, 125_000n, 8))
  })

  test('error: absurd steps on a chain with no bound (a base fee from 1 wei to 2^124 in a block): no crash, every quantile at most 2^256 − 1 wei, and at least the next base fee at p99', () => {
    const window = [...Array(498).fill(1n), 2n]
    for (const next of [2n ** 110n, 2n ** 124n, 2n ** 126n, 2n ** 127n]) {
      for (const policy of [DEFAULT_FEE_POLICY, ethereum]) {
        const f = forecastBaseFee(window, next, policy)
        for (const h of f.horizons) {
          expect(h.p99 <= (1n << 256n) - 1n).toBe(true)
          expect(h.p99 >= h.p90 && h.p90 >= h.p50).toBe(true)
          if (h.bound !== null) expect(h.p99 <= h.bound).toBe(true)
        }
        expect(f.horizons[9]!.p99 >= next).toBe(true)
        expect(baseFeeCap(fitForecast(window, next, policy), 9, 0.9) <= (1n << 256n) - 1n).toBe(true)
      }
    }
  })

  test('behavior: on a simulated market with persistent fullness, the quantiles cover their share of the blocks that follow (±3 points)', () => {
    // 3,000 blocks of the calm market; a forecast at every 5th block from the 500th on, judged on what came
    const fullness = calm(3_000, 7)
    const all = path(30n * GWEI, fullness)
    const fees = [...all.baseFees, all.next]
    const hits = { p50: 0, p90: 0, p99: 0 }
    let n = 0
    for (let h = 499; h + 10 < fees.length; h += 5) {
      const model = fitForecast(fees.slice(h - 499, h + 1), fees[h + 1]!, ethereum)
      for (const k of [2, 5, 10]) {
        const actual = fees[h + k]!
        n++
        if (actual <= baseFeeQuantile(model, k, 0.5)) hits.p50++
        if (actual <= baseFeeQuantile(model, k, 0.9)) hits.p90++
        if (actual <= baseFeeQuantile(model, k, 0.99)) hits.p99++
      }
    }
    expect(hits.p50 / n).toBeGreaterThan(0.47)
    expect(hits.p50 / n).toBeLessThan(0.53)
    expect(hits.p90 / n).toBeGreaterThan(0.87)
    expect(hits.p90 / n).toBeLessThan(0.93)
    expect(hits.p99 / n).toBeGreaterThan(0.97)
  })

  test('behavior: the max-fee cap over H blocks covers the highest of them: at least the p-quantile of each single block, at most the bound', () => {
    const { baseFees, next } = path(30n * GWEI, calm(500, 8))
    const model = fitForecast(baseFees, next, ethereum)
    for (const [H, q] of [
      [9, 0.9],
      [6, 0.95],
      [5, 0.99],
    ] as const) {
      const cap = baseFeeCap(model, H, q)
      expect(cap <= grown(next, 125_000n, H - 1)).toBe(true)
      expect(cap >= next).toBe(true)
      for (let k = 2; k <= H; k++) expect(cap >= baseFeeQuantile(model, k, q) - 1n).toBe(true)
    }
  })
})
